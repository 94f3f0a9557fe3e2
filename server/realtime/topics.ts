// The channel naming rules (see README.md): which topics exist and who may join each kind.

/** The rows that own a member-only channel, and the columns naming its two members. */
export const MEMBER_RESOURCES = {
  conversation: { table: 'public.conversations', members: ['participant1_id', 'participant2_id'] },
  call: { table: 'public.video_calls', members: ['caller_id', 'recipient_id'] },
  game: { table: 'public.game_sessions', members: ['player1_id', 'player2_id'] },
} as const;

export type MemberResource = keyof typeof MEMBER_RESOURCES;

/**
 * Presence keys on online-users that only refresh a member's entry (the app re-tracks every 10 s): a
 * re-track changing nothing else is stored for presence_state but not sent to everyone online.
 */
export const ONLINE_USERS_REFRESH_KEYS = ['lastActivity'] as const;

export type TopicAccess =
  /** Anyone holding the anon key, signed in or not. */
  | { kind: 'public'; subtopic: string }
  /** Signed-in members; the presence key is forced to the member's user id. */
  | { kind: 'online-users'; subtopic: string }
  /** Only the two members of the row; checked in SQL as that member, so row-level security decides too. */
  | { kind: 'member'; subtopic: string; resource: MemberResource; id: string };

const TOPIC_PREFIX = 'realtime:';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PUBLIC_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

/** Classifies a topic; undefined when it is not one this server serves. */
export function findTopicAccess(topic: string): TopicAccess | undefined {
  if (!topic.startsWith(TOPIC_PREFIX)) return undefined;
  const subtopic = topic.slice(TOPIC_PREFIX.length);
  if (subtopic === 'online-users') return { kind: 'online-users', subtopic };
  const colon = subtopic.indexOf(':');
  if (colon < 0) return undefined;
  const prefix = subtopic.slice(0, colon);
  const rest = subtopic.slice(colon + 1);
  if (prefix === 'public') return PUBLIC_NAME.test(rest) ? { kind: 'public', subtopic } : undefined;
  if (Object.hasOwn(MEMBER_RESOURCES, prefix) && UUID.test(rest)) {
    return { kind: 'member', subtopic, resource: prefix as MemberResource, id: rest.toLowerCase() };
  }
  return undefined;
}
