import { describe, expect, it } from 'vitest';
import { parseFunctionSettings } from './function-settings.ts';

describe('parseFunctionSettings', () => {
  it('reads verify_jwt per function and ignores other sections and comments', () => {
    const s = parseFunctionSettings(`
[api]
verify_jwt = false
[functions.stripe-webhook]
verify_jwt = false # signed by Stripe instead
[functions."delete-account"]
verify_jwt = true
[auth]
`);
    expect(s.get('stripe-webhook')).toEqual({ verifyJwt: false });
    expect(s.get('delete-account')).toEqual({ verifyJwt: true });
    expect(s.has('api')).toBe(false);
  });
});
