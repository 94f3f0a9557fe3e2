// The session-storage keys of a pending e-mail confirmation (spec §3), with change notification for the auth state.

export const PENDING_EMAIL_CONFIRMATION_KEY = 'pendingEmailConfirmation';
export const PENDING_EMAIL_ADDRESS_KEY = 'pendingEmailAddress';

export function readSessionFlag(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function notify() {
  window.dispatchEvent(new Event('heartsync:pending-confirmation'));
}

export function setPendingConfirmation(email: string): void {
  try {
    sessionStorage.setItem(PENDING_EMAIL_CONFIRMATION_KEY, 'true');
    sessionStorage.setItem(PENDING_EMAIL_ADDRESS_KEY, email);
  } catch {
    /* storage unavailable */
  }
  notify();
}

export function clearPendingConfirmation(): void {
  try {
    sessionStorage.removeItem(PENDING_EMAIL_CONFIRMATION_KEY);
    sessionStorage.removeItem(PENDING_EMAIL_ADDRESS_KEY);
  } catch {
    /* storage unavailable */
  }
  notify();
}
