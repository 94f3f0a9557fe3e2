// Issue #7: a conversation of 10k messages synced by the real rules into a @powersync/node replica with
// the app's schema, then the messages thread screen's query timed through the SDK and on the replica file
// itself (better-sqlite3, read-only). The thread screen's query is the one src/features/messages runs
// (thread-window.ts): its first page, the newest messages; the former query (every message) for comparison.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { PowerSyncDatabase, SyncStreamConnectionMethod } from '@powersync/node';
import { AppSchema } from '../../src/data/schema.ts';
import { findThreadQuery, THREAD_PAGE_SIZE } from '../../src/features/messages/thread-window.ts';
import { plainSdkWorkers, startSyncServer } from '../../tests/server/sync-support.ts';
import { median } from '../support/median.ts';

/** The slice of better-sqlite3 used here (the package ships no types). */
interface RawSqlite {
  prepare(source: string): { all(...params: unknown[]): unknown[] };
  close(): void;
}
const RawDatabase = createRequire(import.meta.url)('better-sqlite3') as new (
  file: string,
  options?: { readonly?: boolean },
) => RawSqlite;

/** What the thread screen ran before it paged (every message of the conversation), for comparison. */
export const THREAD_ALL_SQL = `select id, conversation_id, sender_id, recipient_id, content, type, metadata, status, created_at
     from messages where conversation_id = ? order by created_at, id`;

interface Timings {
  sdk: number[];
  raw: number[];
  plan: string;
}

export interface ThreadResult {
  messages: number;
  syncMs: number;
  /** The former screen query: every message. */
  all: Timings;
  /** The thread screen's query: its first page (the newest messages and one more). */
  page: Timings;
}

export async function measureThread(
  kind: 'pglite' | 'postgres',
  count: number,
  runs: number,
): Promise<ThreadResult> {
  const [a = '', b = ''] = [crypto.randomUUID(), crypto.randomUUID()].sort();
  // Two members who like each other (the triggers make the match and its conversation), then the
  // history written directly: the message triggers' rate limits are for members, not for a fixture.
  const setupSql = `
    insert into auth.users (id, email, raw_user_meta_data) values
      ('${a}', 'a-${a}@example.test', '{"name":"Ann"}'), ('${b}', 'b-${b}@example.test', '{"name":"Ben"}');
    insert into public.user_interactions (user_id, target_id, interaction_type) values
      ('${a}', '${b}', 'like'), ('${b}', '${a}', 'like');
    alter table public.messages disable trigger user;
    insert into public.messages (id, conversation_id, sender_id, recipient_id, content, status, created_at)
    select gen_random_uuid(), c.id, case when g % 2 = 0 then c.participant1_id else c.participant2_id end,
      case when g % 2 = 0 then c.participant2_id else c.participant1_id end,
      'message ' || g || ' ' || repeat('lorem ipsum ', 1 + g % 8), 'read',
      now() - interval '1 second' * (${count} - g)
    from public.conversations c, generate_series(1, ${count}) g;
    alter table public.messages enable trigger user;`;
  const t = await startSyncServer(kind, { setupSql });
  const { rows } = await t.db.query<{ id: string }>('select id::text as id from public.conversations');
  const conversationId = rows[0]?.id;
  if (!conversationId) throw new Error('the fixture made no conversation');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-thread-'));
  const db = new PowerSyncDatabase({
    schema: AppSchema,
    database: { dbFilename: 'replica.db', dbLocation: dir, ...plainSdkWorkers },
  });
  try {
    await db.init();
    const started = performance.now();
    await db.connect(
      {
        fetchCredentials: async () => ({ endpoint: t.url, token: await t.signToken(a) }),
        uploadData: async () => {},
      },
      { connectionMethod: SyncStreamConnectionMethod.HTTP },
    );
    await db.waitForFirstSync();
    const syncMs = performance.now() - started;
    await db.disconnect();
    const synced = await db.get<{ n: number }>(
      'select count(*) as n from messages where conversation_id = ?',
      [conversationId],
    );
    if (synced.n !== count) throw new Error(`the replica holds ${synced.n} messages, expected ${count}`);

    // The same file and SQL without the SDK (its views are ordinary SQLite views over JSON columns).
    const raw = new RawDatabase(path.join(dir, 'replica.db'), { readonly: true });
    const time = async (
      sql: string,
      params: readonly (string | number)[],
      rowsExpected: number,
    ): Promise<Timings> => {
      const sdk: number[] = [];
      const rawTimes: number[] = [];
      for (let i = 0; i < runs; i++) {
        let s = performance.now();
        const viaSdk = await db.getAll(sql, [...params]);
        sdk.push(performance.now() - s);
        s = performance.now();
        const direct = raw.prepare(sql).all(...params);
        rawTimes.push(performance.now() - s);
        if (viaSdk.length !== rowsExpected || direct.length !== rowsExpected)
          throw new Error(
            `the query returned ${viaSdk.length} and ${direct.length} rows, not ${rowsExpected}`,
          );
      }
      const plan = (raw.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[])
        .map((p) => p.detail)
        .join('; ');
      return { sdk, raw: rawTimes, plan };
    };
    try {
      const all = await time(THREAD_ALL_SQL, [conversationId], count);
      const first = findThreadQuery(conversationId, undefined);
      const page = await time(first.sql, first.parameters, Math.min(THREAD_PAGE_SIZE + 1, count));
      return { messages: count, syncMs, all, page };
    } finally {
      raw.close();
    }
  } finally {
    await db.close().catch(() => {});
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describeThread(r: ThreadResult): string[] {
  const line = (name: string, x: Timings) => {
    const sdk = median(x.sdk);
    const raw = median(x.raw);
    return `${name}: @powersync/node median ${sdk.toFixed(1)} ms, raw SQLite on the replica file median ${raw.toFixed(1)} ms (${(sdk / raw).toFixed(1)}x); goal median < 50 ms: ${sdk < 50 ? 'met' : 'NOT met'}; plan: ${x.plan}`;
  };
  return [
    `thread of ${r.messages} messages: initial sync ${r.syncMs.toFixed(0)} ms`,
    line('former thread query (every message)', r.all),
    line(`thread screen query (first page: newest ${THREAD_PAGE_SIZE} + 1)`, r.page),
  ];
}
