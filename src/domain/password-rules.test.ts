import { describe, expect, it } from 'vitest';
import {
  checkPasswordForSignup,
  checkPasswordStrict,
  getPasswordScore,
  getPasswordStrength,
  getStrengthBarFraction,
} from './password-rules.ts';

describe('the strict password rule', () => {
  it.each([
    ['Ab1!xyz', 'Password should be at least 8 characters'],
    ['Abcdefg!', 'Password should include at least one number'],
    ['abcdef1!', 'Password should include at least one uppercase letter'],
    ['ABCDEF1!', 'Password should include at least one lowercase letter'],
    ['Abcdefg1', 'Password should include at least one special character'],
  ])('refuses %s with the message of its first failure', (password, message) => {
    expect(checkPasswordStrict(password)).toEqual({ valid: false, message });
  });

  it('accepts a password meeting every rule', () => {
    expect(checkPasswordStrict('Abcdef1!')).toEqual({ valid: true, message: 'Password strength is good' });
  });
});

describe('the sign-up feedback', () => {
  it('does not ask for a special character', () => {
    expect(checkPasswordForSignup('Abcdefg1').valid).toBe(true);
  });
  it('still asks for length, number and both cases', () => {
    expect(checkPasswordForSignup('Abc1').message).toBe('Password should be at least 8 characters');
    expect(checkPasswordForSignup('abcdefg1').message).toBe(
      'Password should include at least one uppercase letter',
    );
  });
});

describe('the strength score', () => {
  it.each([
    ['', 0, 'weak'],
    ['abc', 0, 'weak'],
    ['abcdefgh', 1, 'weak'],
    ['abcdefgh1', 2, 'fair'],
    ['Abcdefgh1', 3, 'good'],
    ['Abcdefgh1!', 4, 'good'],
    ['Abcdefgh1!xyz', 5, 'strong'],
    ['!', 1, 'weak'],
  ] as const)('%j scores %i (%s)', (password, score, strength) => {
    expect(getPasswordScore(password)).toBe(score);
    expect(getPasswordStrength(password)).toBe(strength);
  });

  it('maps the four levels to 1/5, 2/5, 3/5 and full width', () => {
    expect(getStrengthBarFraction('weak')).toBeCloseTo(0.2);
    expect(getStrengthBarFraction('fair')).toBeCloseTo(0.4);
    expect(getStrengthBarFraction('good')).toBeCloseTo(0.6);
    expect(getStrengthBarFraction('strong')).toBe(1);
  });
});
