// Lovy's error catalogue (members-area.md, "Lovy / AI"): the words the chat shows as an assistant message.

export type LovyErrorType =
  'API_KEY_MISSING' | 'NETWORK_ERROR' | 'RATE_LIMIT' | 'API_ERROR' | 'EMPTY' | 'OTHER';

const MESSAGES: Record<Exclude<LovyErrorType, 'EMPTY'>, string> = {
  API_KEY_MISSING: 'API key is missing. Please check your configuration.',
  NETWORK_ERROR: 'Network error. Please check your internet connection and try again.',
  RATE_LIMIT: "You've reached the rate limit. Please try again in a few minutes.",
  API_ERROR: 'There was an issue with the AI service. Please try again later.',
  OTHER: 'Something went wrong. Please try again later.',
};

/** A reply generation that produced nothing. */
export const LOVY_FAILED_REPLY =
  "I'm sorry, I'm having trouble responding right now. Please try again in a moment.";

export function findLovyError(type: LovyErrorType): string {
  return type === 'EMPTY' ? LOVY_FAILED_REPLY : MESSAGES[type];
}
