import { describe, expect, it } from 'vitest';
import {
  buildContentSecurityPolicy,
  CONTENT_SECURITY_POLICY,
  SECURITY_HEADERS,
} from '../../server/http/security-headers.ts';
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

describe('connect-src', () => {
  const connect = (csp: string) => csp.split('; ').find((d) => d.startsWith('connect-src'));
  it('is the app own origin alone in self-contained mode, at whatever address it is opened', () => {
    expect(connect(CONTENT_SECURITY_POLICY)).toBe("connect-src 'self'");
  });
  it('adds a hosted build backend origins and their WebSocket forms, and nothing else', () => {
    expect(
      connect(buildContentSecurityPolicy(['https://abc.supabase.co/rest/v1', 'https://ps.example.org:8443'])),
    ).toBe(
      "connect-src 'self' https://abc.supabase.co wss://abc.supabase.co https://ps.example.org:8443 wss://ps.example.org:8443",
    );
  });
});
