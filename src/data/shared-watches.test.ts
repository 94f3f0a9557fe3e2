// Shared watched queries on a real @powersync/node replica (the engine's watch API is the web client's): one
// query per question and database, the answer to every listener, a late listener answered at once, the query
// closed with its last listener.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PowerSyncDatabase } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppSchema } from './schema.ts';
import { listenShared, type WatchAnswer, type WatchedQueryLike } from './shared-watches.ts';

interface Row {
  name: string;
}

const SQL = 'select name from profiles order by name';

/** Records the answers a listener hears; `until(names)` waits for the answer with those names. */
function recorder() {
  const answers: WatchAnswer<Row>[] = [];
  return {
    answers,
    listener: (a: WatchAnswer<Row>) => {
      answers.push(a);
    },
    until: (names: string[]) =>
      vi.waitFor(
        () => {
          const last = answers.at(-1)?.data.map((r) => r.name);
          expect(last).toEqual(names);
        },
        { timeout: 10_000 },
      ),
  };
}

describe('listenShared', () => {
  let dir: string;
  let db: PowerSyncDatabase;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-shared-watches-'));
    db = new PowerSyncDatabase({
      schema: AppSchema,
      database: { dbFilename: 'replica.db', dbLocation: dir },
    });
    await db.init();
    await db.execute("insert into profiles (id, name) values ('a', 'Ann')");
  }, 60_000);

  afterAll(async () => {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs one query for listeners of the same question and gives each every answer', async () => {
    const opened: WatchedQueryLike<Row>[] = [];
    const open = () => {
      const query = db
        .query<Row>({ sql: SQL, parameters: [] })
        .watch({ triggerOnTables: ['profiles'], reportFetching: false });
      opened.push(query);
      return query;
    };
    const first = recorder();
    const second = recorder();
    const leaveFirst = listenShared(db, 'names', open, first.listener);
    const leaveSecond = listenShared(db, 'names', open, second.listener);
    await first.until(['Ann']);
    await second.until(['Ann']);
    expect(opened).toHaveLength(1);
    expect(second.answers).toEqual(first.answers);
    expect(second.answers[0]).toBe(first.answers[0]);

    // A listener that comes after the answer hears it at once, from the same query.
    const late = recorder();
    const leaveLate = listenShared(db, 'names', open, late.listener);
    expect(late.answers).toEqual([first.answers.at(-1)]);
    expect(opened).toHaveLength(1);

    // A change reaches every listener.
    await db.execute("insert into profiles (id, name) values ('b', 'Bea')");
    await Promise.all([
      first.until(['Ann', 'Bea']),
      second.until(['Ann', 'Bea']),
      late.until(['Ann', 'Bea']),
    ]);
    expect(late.answers.at(-1)).toBe(first.answers.at(-1));

    // A listener that left hears nothing more; the others still do.
    leaveSecond();
    const heardBySecond = second.answers.length;
    await db.execute("insert into profiles (id, name) values ('c', 'Cid')");
    await Promise.all([first.until(['Ann', 'Bea', 'Cid']), late.until(['Ann', 'Bea', 'Cid'])]);
    expect(second.answers).toHaveLength(heardBySecond);
    leaveFirst();
    leaveLate();
    await db.execute("delete from profiles where id in ('b', 'c')");
  });

  it('keeps other questions and other databases apart, and closes a query with its last listener', async () => {
    const close = vi.fn();
    let unregistered = 0;
    const fake = (): WatchedQueryLike<Row> => ({
      registerListener: (l) => {
        l.onStateChange({ isLoading: true, data: [] });
        l.onStateChange({ isLoading: false, data: [{ name: 'from fake' }] });
        return () => unregistered++;
      },
      close,
    });
    const open = vi.fn(fake);
    const owner = {};
    const other = {};
    const a = recorder();
    const b = recorder();
    const c = recorder();
    const leaveA = listenShared(owner, 'one', open, a.listener);
    const leaveB = listenShared(owner, 'two', open, b.listener);
    const leaveC = listenShared(other, 'one', open, c.listener);
    expect(open).toHaveBeenCalledTimes(3);
    // The loading state is not passed on; the answer is.
    expect(a.answers).toEqual([{ data: [{ name: 'from fake' }], error: undefined }]);

    const again = recorder();
    const leaveAgain = listenShared(owner, 'one', open, again.listener);
    expect(open).toHaveBeenCalledTimes(3);
    leaveA();
    leaveA(); // leaving twice changes nothing
    expect(close).not.toHaveBeenCalled();
    leaveAgain();
    expect(close).toHaveBeenCalledTimes(1);
    expect(unregistered).toBe(1);
    leaveB();
    leaveC();
    expect(close).toHaveBeenCalledTimes(3);

    // After the last listener left, the question opens a new query.
    const leaveNew = listenShared(owner, 'one', open, recorder().listener);
    expect(open).toHaveBeenCalledTimes(4);
    leaveNew();
  });

  it('passes an error on to every listener', () => {
    const failing = (): WatchedQueryLike<Row> => ({
      registerListener: (l) => {
        l.onStateChange({ isLoading: true, data: [], error: new Error('no such table') });
        return () => undefined;
      },
      close: () => undefined,
    });
    const a = recorder();
    const b = recorder();
    const leaveA = listenShared({}, 'bad', failing, a.listener);
    expect(a.answers[0]?.error?.message).toBe('no such table');
    const owner = {};
    const leaveB1 = listenShared(owner, 'bad', failing, b.listener);
    const late = recorder();
    const leaveB2 = listenShared(owner, 'bad', failing, late.listener);
    expect(late.answers[0]?.error?.message).toBe('no such table');
    leaveA();
    leaveB1();
    leaveB2();
  });
});
