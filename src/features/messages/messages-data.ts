// Conversations, messages, drafts and receipts on the local replica; device settings (read marks, notification choices).
import { useCallback, useEffect, useState } from 'react';
import {
  useQuery,
  useReplica,
  type PowerSyncDatabase,
  type ReplicaQueryOptions,
} from '../../data/replica.tsx';
import {
  earlierStartParameters,
  findThreadQuery,
  shapeThreadWindow,
  THREAD_EARLIER_START_SQL,
  THREAD_PAGE_SIZE,
  type ThreadKey,
} from './thread-window.ts';

export interface ConversationSummary {
  id: string;
  match_id: string | null;
  other_id: string;
  other_name: string | null;
  other_photos: string | null;
  other_visible: number;
  match_exists: number;
  blocked_by_me: number;
  last_content: string | null;
  /** The last message's metadata (JSON text): an agent's message is labelled in the preview too. */
  last_metadata: string | null;
  last_type: string | null;
  last_sender_id: string | null;
  last_at: string | null;
  /** The conversation's own last-message time, as the server set it. */
  conversation_last_at: string | null;
  /** When the conversation was opened: with the match. */
  created_at: string;
  unread: number;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  sender_id: string;
  recipient_id: string;
  content: string;
  type: string;
  metadata: string | null;
  status: string;
  created_at: string;
}

/** The device_settings key holding the newest incoming created_at this member has read in a conversation. */
export const getReadMarkKey = (conversationId: string) => `read:${conversationId}`;
export const NOTIFY_MESSAGES_KEY = 'notify.messages';
export const NOTIFY_ASKED_KEY = 'notify.permissionAsked';

// Unread = incoming, not marked read on the server and newer than this device's read mark (the mark
// counts when read receipts are off and the server keeps such messages "delivered").
const UNREAD_SQL = `
  select count(*) from messages m
  where m.conversation_id = c.id and m.recipient_id = ?1 and m.status <> 'read'
    and m.created_at > coalesce((select value from device_settings where id = 'read:' || c.id), '')`;

const CONVERSATIONS_SQL = `
  select c.id, c.match_id,
    case when c.participant1_id = ?1 then c.participant2_id else c.participant1_id end as other_id,
    pp.name as other_name, pp.photos as other_photos, (pp.id is not null) as other_visible,
    exists (select 1 from matches mt where mt.id = c.match_id) as match_exists,
    exists (select 1 from blocked_users b where b.blocker_id = ?1
      and b.blocked_id = case when c.participant1_id = ?1 then c.participant2_id else c.participant1_id end) as blocked_by_me,
    lm.content as last_content, lm.type as last_type, lm.metadata as last_metadata, lm.sender_id as last_sender_id, lm.created_at as last_at,
    c.last_message_at as conversation_last_at, c.created_at,
    (${UNREAD_SQL}) as unread
  from conversations c
  left join public_profiles pp
    on pp.id = case when c.participant1_id = ?1 then c.participant2_id else c.participant1_id end
  left join messages lm on lm.id = (
    select m2.id from messages m2 where m2.conversation_id = c.id order by m2.created_at desc, m2.id desc limit 1)
  where c.participant1_id = ?1 or c.participant2_id = ?1
  order by coalesce(lm.created_at, c.last_message_at, c.created_at) desc`;

export function useConversations(me: string, options?: ReplicaQueryOptions) {
  return useQuery<ConversationSummary>(CONVERSATIONS_SQL, [me], options);
}

/**
 * Unread incoming messages over all conversations (sidebar, dashboard); undefined until the replica has
 * answered.
 */
export function useUnreadMessageCount(me: string): number | undefined {
  const { data, isLoading, error } = useQuery<{ n: number }>(
    `select count(*) as n from messages m
     where m.recipient_id = ?1 and m.status <> 'read'
       and m.created_at > coalesce((select value from device_settings where id = 'read:' || m.conversation_id), '')`,
    [me],
  );
  return isLoading || error ? undefined : (data[0]?.n ?? 0);
}

/**
 * The open thread's window (thread-window.ts): the newest page, oldest first, live; `loadEarlier` moves the
 * window's start back by a page. New messages keep appearing at the bottom.
 */
export function useThreadMessages(conversationId: string, pageSize: number = THREAD_PAGE_SIZE) {
  const db = useReplica();
  const [start, setStart] = useState<{ conversationId: string; key: ThreadKey }>();
  const windowStart = start?.conversationId === conversationId ? start.key : undefined;
  const { sql, parameters } = findThreadQuery(conversationId, windowStart, pageSize);
  const { data, isLoading, isFetching } = useQuery<MessageRow>(sql, parameters);
  // While the grown window's query runs, data still holds the previous window's rows: shape them as that
  // window (else its one extra earlier row would show) and keep its button.
  const [dataStart, setDataStart] = useState(windowStart);
  if (!isFetching && dataStart !== windowStart) setDataStart(windowStart);
  const shaped = shapeThreadWindow(data, isFetching ? dataStart : windowStart, pageSize);
  const { messages } = shaped;
  const hasEarlier = shaped.hasEarlier || isFetching;
  const oldest = messages[0];
  const loadEarlier = useCallback(async () => {
    if (!oldest) return;
    const next = await db.getOptional<ThreadKey>(
      THREAD_EARLIER_START_SQL,
      earlierStartParameters(conversationId, oldest, pageSize),
    );
    if (next) setStart({ conversationId, key: { created_at: next.created_at, id: next.id } });
  }, [db, conversationId, oldest, pageSize]);
  return { messages, hasEarlier, isLoading, isFetching, loadEarlier };
}

export function useDeviceSetting(key: string): string | undefined {
  const { data } = useQuery<{ value: string | null }>('select value from device_settings where id = ?', [
    key,
  ]);
  return data[0]?.value ?? undefined;
}

export async function setDeviceSetting(db: PowerSyncDatabase, key: string, value: string): Promise<void> {
  // PowerSync tables are views: no upsert, so replace inside one transaction.
  await db.writeTransaction(async (tx) => {
    await tx.execute('delete from device_settings where id = ?', [key]);
    await tx.execute('insert into device_settings (id, key, value) values (?, ?, ?)', [key, key, value]);
  });
}

export async function getDeviceSetting(db: PowerSyncDatabase, key: string): Promise<string | undefined> {
  const row = await db.getOptional<{ value: string | null }>(
    'select value from device_settings where id = ?',
    [key],
  );
  return row?.value ?? undefined;
}

export async function saveDraft(
  db: PowerSyncDatabase,
  conversationId: string,
  content: string,
): Promise<void> {
  if (content === '') {
    await db.execute('delete from message_drafts where id = ?', [conversationId]);
    return;
  }
  await db.writeTransaction(async (tx) => {
    await tx.execute('delete from message_drafts where id = ?', [conversationId]);
    await tx.execute(
      'insert into message_drafts (id, conversation_id, content, updated_at) values (?, ?, ?, ?)',
      [conversationId, conversationId, content, new Date().toISOString()],
    );
  });
}

/** The conversation's saved draft and when it was saved (ms; 0 when there is none). */
export async function getDraft(
  db: PowerSyncDatabase,
  conversationId: string,
): Promise<{ content: string; updatedAt: number }> {
  const row = await db.getOptional<{ content: string | null; updated_at: string | null }>(
    'select content, updated_at from message_drafts where id = ?',
    [conversationId],
  );
  return { content: row?.content ?? '', updatedAt: row?.updated_at ? Date.parse(row.updated_at) : 0 };
}

/** A message as the replica stores it on its way to the server. */
export interface OutgoingMessage {
  /** Client-made, so the upload lands exactly once. */
  id: string;
  conversationId: string;
  me: string;
  other: string;
  content: string;
  type?: 'text' | 'image' | 'game_invite' | 'game_result';
  /** A JSON object (an image's size, a game card's session); nothing for text. */
  metadata?: Record<string, unknown>;
  createdAt?: string;
}

/** What insertMessage needs of a replica write transaction. */
export interface ReplicaExecutor {
  execute(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Writes one outgoing message inside the caller's transaction (a plain message here, a game's card in
 * games-data.ts). Its metadata goes as replica JSON text, which the connector turns back into an object on
 * upload (STRUCTURED_COLUMNS), so it works offline too.
 */
export async function insertMessage(tx: ReplicaExecutor, m: OutgoingMessage): Promise<void> {
  await tx.execute(
    `insert into messages (id, conversation_id, sender_id, recipient_id, content, type, metadata, status, created_at)
     values (?, ?, ?, ?, ?, ?, ?, 'sent', ?)`,
    [
      m.id,
      m.conversationId,
      m.me,
      m.other,
      m.content,
      m.type ?? 'text',
      JSON.stringify(m.metadata ?? {}),
      m.createdAt ?? new Date().toISOString(),
    ],
  );
}

/**
 * Queues a message; it shows at once and uploads when online, in order, exactly once (client-made id), and
 * clears the conversation's unsent draft in the same transaction.
 */
export async function sendMessage(
  db: PowerSyncDatabase,
  m: Omit<OutgoingMessage, 'id' | 'createdAt'>,
): Promise<string> {
  const id = crypto.randomUUID();
  await db.writeTransaction(async (tx) => {
    await insertMessage(tx, { ...m, id });
    await tx.execute('delete from message_drafts where id = ?', [m.conversationId]);
  });
  return id;
}

/** Marks incoming messages that reached this device as delivered (once each; the server keeps status forward-only). */
export function useMarkDelivered(me: string | undefined, db: PowerSyncDatabase): void {
  const { data } = useQuery<{ id: string }>(
    "select id from messages where recipient_id = ? and status = 'sent'",
    [me ?? ''],
  );
  const ids = data.map((r) => r.id).join(',');
  useEffect(() => {
    if (!me || ids === '') return;
    void db.execute(
      `update messages set status = 'delivered' where recipient_id = ? and status = 'sent' and id in (${ids
        .split(',')
        .map(() => '?')
        .join(',')})`,
      [me, ...ids.split(',')],
    );
  }, [db, me, ids]);
}

/**
 * Marks a conversation read: the device's read mark always; the server status 'read' only when the member
 * shares read receipts (else 'delivered', which the server would store anyway). With `shownFrom` (the oldest
 * message the thread shows), only the messages from there on change status: earlier ones were not seen.
 */
export async function markConversationRead(
  db: PowerSyncDatabase,
  conversationId: string,
  me: string,
  shareReceipts: boolean,
  shownFrom?: ThreadKey,
): Promise<void> {
  const newest = await db.getOptional<{ at: string | null }>(
    'select max(created_at) as at from messages where conversation_id = ? and recipient_id = ?',
    [conversationId, me],
  );
  if (!newest?.at) return;
  const mark = await getDeviceSetting(db, getReadMarkKey(conversationId));
  if (mark !== newest.at) await setDeviceSetting(db, getReadMarkKey(conversationId), newest.at);
  const target = shareReceipts ? 'read' : 'delivered';
  await db.execute(
    `update messages set status = ?1 where conversation_id = ?2 and recipient_id = ?3 and status <> 'read' and status <> ?1
       and (?4 is null or (created_at >= ?4 and (created_at > ?4 or id >= ?5)))`,
    [target, conversationId, me, shownFrom?.created_at ?? null, shownFrom?.id ?? null],
  );
}
