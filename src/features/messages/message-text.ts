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

export function getNotificationBody(content: string, aiWritten = false): string {
  const text =
    content.length > NOTIFICATION_PREVIEW_LENGTH
      ? `${content.slice(0, NOTIFICATION_PREVIEW_LENGTH)}...`
      : content;
  // An agent's message says so wherever it shows, the notification too.
  return aiWritten ? `Written with AI help: ${text}` : text;
}

/** What an image message's metadata says about the picture (upright pixel size, measured before upload). */
export interface ImageMeta {
  width: number;
  height: number;
}

const MAX_IMAGE_SIDE = 100_000;

/** The image size in a message's metadata (replica JSON text), or undefined when absent or not sensible. */
export function findImageMeta(metadata: string | null | undefined): ImageMeta | undefined {
  if (!metadata) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { width, height } = parsed as Record<string, unknown>;
  const ok = (n: unknown): n is number =>
    Number.isInteger(n) && (n as number) > 0 && (n as number) <= MAX_IMAGE_SIDE;
  return ok(width) && ok(height) ? { width, height } : undefined;
}

/**
 * Whether a message was written by an agent (its metadata's `ai.generated`, set in SQL by the Wingman, 0123):
 * both members see it labelled. Anything unreadable counts as not marked.
 */
export function isAiWritten(metadata: string | null | undefined): boolean {
  if (!metadata) return false;
  try {
    const parsed = JSON.parse(metadata) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return false;
    const ai = (parsed as Record<string, unknown>)['ai'];
    if (typeof ai !== 'object' || ai === null) return false;
    // The sync service hands JSON booleans to the replica as 1 (PowerSync's rule); the server's rows say true.
    const generated = (ai as Record<string, unknown>)['generated'];
    return generated === true || generated === 1;
  } catch {
    return false;
  }
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
