// Sign-in of an address with no account must cost what a wrong password costs (issue 13: no timing oracle):
// the check still runs one argon2 verification, against a hash made with the same parameters as members'.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, passwordPool, verifyPassword } from './passwords.ts';

const paramsOf = (hash: string) => hash.split('$').slice(1, 4).join('$');

describe('verifyPassword', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('with no stored hash it still verifies once, against a hash of the members’ parameters, and says no', async () => {
    const member = await hashPassword('Str0ng!Passw0rd');
    const verify = vi.spyOn(passwordPool, 'verify');
    for (const missing of [null, undefined, ''])
      expect(await verifyPassword(missing, 'Str0ng!Passw0rd')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(3);
    for (const [hash] of verify.mock.calls) expect(paramsOf(hash)).toBe(paramsOf(member));
  });

  it('a stored hash is verified the same way, once', async () => {
    const member = await hashPassword('Str0ng!Passw0rd');
    const verify = vi.spyOn(passwordPool, 'verify');
    expect(await verifyPassword(member, 'Str0ng!Passw0rd')).toBe(true);
    expect(await verifyPassword(member, 'wrong password 1')).toBe(false);
    expect(verify).toHaveBeenCalledTimes(2);
  });
});
