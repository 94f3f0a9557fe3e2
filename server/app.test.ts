import { describe, expect, it } from 'vitest';
import { redactQuery } from './app.ts';

describe('redactQuery', () => {
  it('hides mailed tokens and keys from logged URLs but keeps the rest', () => {
    expect(redactQuery('/auth/v1/verify?token=abc123&type=signup&redirect_to=%2F')).toBe(
      '/auth/v1/verify?token=[redacted]&type=signup&redirect_to=%2F',
    );
    expect(redactQuery('/realtime/v1/websocket?apikey=ey.j.w&vsn=1.0.0')).toBe(
      '/realtime/v1/websocket?apikey=[redacted]&vsn=1.0.0',
    );
    expect(redactQuery('/rest/v1/profiles?id=eq.1')).toBe('/rest/v1/profiles?id=eq.1');
  });
});
