// Sign-up and sign-in form validation and the name sanitising of spec §5.

export interface SignupInput {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export type SignupErrors = Partial<Record<keyof SignupInput, string>>;

// Pragmatic address shape: something@something.tld, no spaces; the server has the final word.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email.trim());
}

/** Returns the field errors; an empty object means the input may be sent. */
export function validateSignup(input: SignupInput): SignupErrors {
  const errors: SignupErrors = {};
  if (input.firstName.trim().length < 2) errors.firstName = 'First name must be at least 2 characters.';
  if (input.lastName.trim().length < 2) errors.lastName = 'Last name must be at least 2 characters.';
  if (!isValidEmail(input.email)) errors.email = 'Please enter a valid email address.';
  if (input.password.length < 8) errors.password = 'Password must be at least 8 characters.';
  return errors;
}

/** Escapes angle brackets and trims, so a name can never become markup anywhere it is shown. */
export function sanitizeName(name: string): string {
  return name.replace(/</g, '&lt;').replace(/>/g, '&gt;').trim();
}

/** The name sent with the sign-up: first and last name joined by a space, sanitised. */
export function getSignupName(firstName: string, lastName: string): string {
  return sanitizeName(`${firstName.trim()} ${lastName.trim()}`);
}

export function validateSignin(email: string, password: string): string | undefined {
  if (email.trim() === '' || password === '') return 'Email and password are required.';
  return undefined;
}
