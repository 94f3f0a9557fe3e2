// The thread's window: the SQL run on SQLite (the replica's engine) with a plain messages table, and its shaping.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import {
  compareThreadKeys,
  earlierStartParameters,
  findThreadQuery,
  shapeThreadWindow,
  THREAD_EARLIER_START_SQL,
  type ThreadKey,
} from './thread-window.ts';

interface Sqlite {
  exec(sql: string): void;
  prepare(sql: string): {
    all(...p: unknown[]): unknown[];
    get(...p: unknown[]): unknown;
    run(...p: unknown[]): unknown;
  };
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => Sqlite;

interface Row extends ThreadKey {
  content: string;
}

function makeDb(count: number) {
  const db = new Database(':memory:');
  db.exec(`create table messages (id text primary key, conversation_id text, sender_id text, recipient_id text,
    content text, type text, metadata text, status text, created_at text);
    create index by_conversation on messages (conversation_id, created_at);`);
  const insert = db.prepare(`insert into messages values (?, ?, 'a', 'b', ?, 'text', '{}', 'sent', ?)`);
  // Pairs of messages share a created_at (same millisecond): the id breaks the tie.
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2))).toISOString();
    insert.run(`m${String(i).padStart(4, '0')}`, 'c1', `message ${i}`, at);
  }
  insert.run('other', 'c2', 'another conversation', new Date(Date.UTC(2027, 0, 1)).toISOString());
  return { db, insert };
}

function openWindow(db: Sqlite, start: ThreadKey | undefined, page: number) {
  const { sql, parameters } = findThreadQuery('c1', start, page);
  return shapeThreadWindow(db.prepare(sql).all(...parameters) as Row[], start, page);
}

function earlierStart(db: Sqlite, oldest: ThreadKey, page: number): ThreadKey | undefined {
  return db.prepare(THREAD_EARLIER_START_SQL).get(...earlierStartParameters('c1', oldest, page)) as
    ThreadKey | undefined;
}

describe('thread window', () => {
  it('opens on the newest page, oldest first, and says earlier messages exist', () => {
    const { db } = makeDb(120);
    const w = openWindow(db, undefined, 50);
    expect(w.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 50 }, (_, i) => `message ${70 + i}`),
    );
    expect(w.hasEarlier).toBe(true);
  });

  it('grows by a page per "Load earlier messages" until the first message, keeping order across equal times', () => {
    const { db } = makeDb(120);
    let w = openWindow(db, undefined, 50);
    let start: ThreadKey | undefined;
    const sizes: number[] = [];
    while (w.hasEarlier) {
      const oldest = w.messages[0];
      if (!oldest) throw new Error('an empty window cannot have earlier messages');
      start = earlierStart(db, oldest, 50);
      if (!start) throw new Error('earlier messages exist but no start was found');
      w = openWindow(db, start, 50);
      sizes.push(w.messages.length);
    }
    expect(sizes).toEqual([100, 120]);
    expect(w.messages.map((m) => m.content)).toEqual(Array.from({ length: 120 }, (_, i) => `message ${i}`));
  });

  it('keeps the earlier messages and adds new ones at the bottom once grown', () => {
    const { db, insert } = makeDb(60);
    const first = openWindow(db, undefined, 50);
    const start = earlierStart(db, first.messages[0]!, 50);
    expect(start).toEqual({ created_at: new Date(Date.UTC(2026, 0, 1)).toISOString(), id: 'm0000' });
    insert.run('m9999', 'c1', 'new one', new Date(Date.UTC(2026, 5, 1)).toISOString());
    const w = openWindow(db, start, 50);
    expect(w.messages).toHaveLength(61);
    expect(w.messages.at(-1)?.content).toBe('new one');
    expect(w.hasEarlier).toBe(false);
  });

  it('shows a short conversation whole, and an empty one as nothing', () => {
    const { db } = makeDb(3);
    expect(openWindow(db, undefined, 50)).toMatchObject({ hasEarlier: false });
    expect(openWindow(db, undefined, 50).messages).toHaveLength(3);
    const empty = makeDb(0).db;
    expect(openWindow(empty, undefined, 50)).toEqual({ messages: [], hasEarlier: false });
  });

  it('orders keys by time, then id', () => {
    expect(compareThreadKeys({ created_at: '1', id: 'b' }, { created_at: '2', id: 'a' })).toBe(-1);
    expect(compareThreadKeys({ created_at: '2', id: 'a' }, { created_at: '2', id: 'b' })).toBe(-1);
    expect(compareThreadKeys({ created_at: '2', id: 'b' }, { created_at: '2', id: 'b' })).toBe(0);
  });

  it('shapes a window from its start without the one earlier row', () => {
    const rows = [
      { created_at: '3', id: 'c' },
      { created_at: '2', id: 'b' },
      { created_at: '1', id: 'a' },
    ];
    expect(shapeThreadWindow(rows, { created_at: '2', id: 'b' })).toEqual({
      messages: [rows[1], rows[0]],
      hasEarlier: true,
    });
    expect(shapeThreadWindow(rows, undefined, 2)).toEqual({ messages: [rows[1], rows[0]], hasEarlier: true });
    expect(shapeThreadWindow(rows, undefined, 3)).toEqual({
      messages: [rows[2], rows[1], rows[0]],
      hasEarlier: false,
    });
  });
});
