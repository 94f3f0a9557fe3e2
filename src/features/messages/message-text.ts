// Pure rules of the chat: what may be sent, the notification preview, typing timing and who may still write.

/** Notification bodies for new messages are cut to this many characters followed by "..." (spec §5). */
export const NOTIFICATION_PREVIEW_LENGTH = 50;
/** A typing event is sent at most this often while the member keeps typing. */
export const TYPING_SEND_INTERVAL_MS = 2000;
/** The other member's "typing..." disappears this long after their last typing event. */
export const TYPING_SHOW_MS = 3500;
/** The server's limit on a message's content (messages.content check). */
export const MESSAGE_MAX_LENGTH = 4000;

/** The text to send, or undefined when the input is empty or only whitespace (never sent). */
export function findSendableText(input: string): string | undefined {
  const text = input.trim();
  return text.length > 0 ? text : undefined;
}

export function getNotificationBody(content: string): string {
  return content.length > NOTIFICATION_PREVIEW_LENGTH
    ? `${content.slice(0, NOTIFICATION_PREVIEW_LENGTH)}...`
    : content;
}

/** Enter sends; Shift+Enter (and Enter while an input method is composing) makes a new line. */
export function isSendKey(e: { key: string; shiftKey: boolean; isComposing?: boolean }): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.isComposing;
}

export type ClosedReason = 'you-blocked' | 'unmatched' | 'unavailable';

/** Why the member can no longer write in a conversation, or undefined while messaging is open. */
export function findClosedReason(input: {
  matchId: string | null;
  matchExists: boolean;
  blockedByMe: boolean;
  otherVisible: boolean;
}): ClosedReason | undefined {
  if (input.blockedByMe) return 'you-blocked';
  if (!input.matchId || !input.matchExists) return 'unmatched';
  // A block or report by the other member hides them (is_hidden_pair) without saying who did what.
  if (!input.otherVisible) return 'unavailable';
  return undefined;
}

export function getClosedText(reason: ClosedReason, name: string): string {
  switch (reason) {
    case 'you-blocked':
      return `You blocked ${name}. Messaging is closed.`;
    case 'unmatched':
      return `You and ${name} are no longer matched, so messaging is closed.`;
    case 'unavailable':
      return 'This member is no longer available, so messaging is closed.';
  }
}
