import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from '../../server/http/security-headers.ts';
import { getHeaderWarnings } from './security-headers.ts';

describe('the startup header check', () => {
  it('finds nothing to say about the headers our server sends', () => {
    expect(getHeaderWarnings(new Headers(SECURITY_HEADERS))).toEqual([]);
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
  });
  it('names every missing header', () => {
    expect(getHeaderWarnings(new Headers())).toEqual([
      'Missing security header: content-security-policy',
      'Missing security header: x-frame-options',
      'Missing security header: x-content-type-options',
      'Missing security header: referrer-policy',
      'Missing security header: strict-transport-security',
    ]);
  });
  it('flags a weak CSP', () => {
    const h = new Headers(SECURITY_HEADERS);
    h.set('content-security-policy', "script-src 'self' 'unsafe-inline' 'unsafe-eval'");
    expect(getHeaderWarnings(h)).toEqual([
      "CSP lacks default-src 'self'",
      'CSP contains unsafe-inline',
      'CSP contains unsafe-eval',
    ]);
  });
  it("does not mistake 'wasm-unsafe-eval' for unsafe-eval", () => {
    const h = new Headers(SECURITY_HEADERS);
    h.set('content-security-policy', "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
    expect(getHeaderWarnings(h)).toEqual([]);
  });
});
