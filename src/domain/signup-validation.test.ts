import { describe, expect, it } from 'vitest';
import { getSignupName, sanitizeName, validateSignin, validateSignup } from './signup-validation.ts';

const good = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', password: 'Secret12' };

describe('sign-up validation', () => {
  it('accepts a complete form', () => {
    expect(validateSignup(good)).toEqual({});
  });
  it('gives the spec message for every field', () => {
    expect(validateSignup({ firstName: 'A', lastName: ' B ', email: 'nope', password: '1234567' })).toEqual({
      firstName: 'First name must be at least 2 characters.',
      lastName: 'Last name must be at least 2 characters.',
      email: 'Please enter a valid email address.',
      password: 'Password must be at least 8 characters.',
    });
  });
  it.each(['a@b', 'a b@c.de', '@c.de', 'x@.'])('refuses the address %j', (email) => {
    expect(validateSignup({ ...good, email }).email).toBe('Please enter a valid email address.');
  });
});

describe('name sanitising', () => {
  it('escapes angle brackets and trims', () => {
    expect(sanitizeName('  <b>Eve</b> ')).toBe('&lt;b&gt;Eve&lt;/b&gt;');
  });
  it('joins first and last name with one space', () => {
    expect(getSignupName(' Ada ', 'Lovelace ')).toBe('Ada Lovelace');
    expect(getSignupName('<script>', 'x')).toBe('&lt;script&gt; x');
  });
});

describe('sign-in validation', () => {
  it('requires both fields', () => {
    expect(validateSignin('', 'x')).toBeDefined();
    expect(validateSignin('a@b.c', '')).toBeDefined();
    expect(validateSignin('a@b.c', 'x')).toBeUndefined();
  });
});
