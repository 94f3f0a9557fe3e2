// Password rules of spec §5: the strict rule with its feedback messages, the sign-up screen feedback and the strength score.

export const PASSWORD_MIN_LENGTH = 8;
/** Length that earns the second strength point. */
export const PASSWORD_BONUS_LENGTH = 12;

export type PasswordStrength = 'weak' | 'fair' | 'good' | 'strong';

export interface PasswordCheck {
  valid: boolean;
  message: string;
}

const hasNumber = (p: string) => /\d/.test(p);
const hasUpper = (p: string) => /[A-Z]/.test(p);
const hasLower = (p: string) => /[a-z]/.test(p);
const hasSpecial = (p: string) => /[^A-Za-z0-9]/.test(p);

/** The strict rule (reset password): length, number, uppercase, lowercase and special character, first failure wins. */
export function checkPasswordStrict(password: string): PasswordCheck {
  if (password.length < PASSWORD_MIN_LENGTH)
    return { valid: false, message: 'Password should be at least 8 characters' };
  if (!hasNumber(password)) return { valid: false, message: 'Password should include at least one number' };
  if (!hasUpper(password))
    return { valid: false, message: 'Password should include at least one uppercase letter' };
  if (!hasLower(password))
    return { valid: false, message: 'Password should include at least one lowercase letter' };
  if (!hasSpecial(password))
    return { valid: false, message: 'Password should include at least one special character' };
  return { valid: true, message: 'Password strength is good' };
}

/** The sign-up screen's feedback: length, number, uppercase and lowercase only (spec §5). */
export function checkPasswordForSignup(password: string): PasswordCheck {
  if (password.length < PASSWORD_MIN_LENGTH)
    return { valid: false, message: 'Password should be at least 8 characters' };
  if (!hasNumber(password)) return { valid: false, message: 'Password should include at least one number' };
  if (!hasUpper(password))
    return { valid: false, message: 'Password should include at least one uppercase letter' };
  if (!hasLower(password))
    return { valid: false, message: 'Password should include at least one lowercase letter' };
  return { valid: true, message: 'Password strength is good' };
}

/** One point each: length >= 8, length >= 12, mixed case, a digit, a special character (0..5). */
export function getPasswordScore(password: string): number {
  let score = 0;
  if (password.length >= PASSWORD_MIN_LENGTH) score++;
  if (password.length >= PASSWORD_BONUS_LENGTH) score++;
  if (hasUpper(password) && hasLower(password)) score++;
  if (hasNumber(password)) score++;
  if (hasSpecial(password)) score++;
  return score;
}

/** Score 1 or less weak, 2 fair, 3 or 4 good, 5 strong; empty is weak. */
export function getPasswordStrength(password: string): PasswordStrength {
  if (password === '') return 'weak';
  const score = getPasswordScore(password);
  if (score <= 1) return 'weak';
  if (score === 2) return 'fair';
  if (score <= 4) return 'good';
  return 'strong';
}

/** Width of the strength bar as a fraction: weak 1/5, fair 2/5, good 3/5, strong full. */
export function getStrengthBarFraction(strength: PasswordStrength): number {
  return { weak: 1 / 5, fair: 2 / 5, good: 3 / 5, strong: 1 }[strength];
}
