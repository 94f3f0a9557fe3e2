// The database adapter. A transaction's options (decision 0089): setup statements run first, as the caller's
// role and claims do for every REST request; readOnly refuses writes; a failing setup statement fails the
// transaction with its own error and writes nothing. On PostgreSQL BEGIN and the setup statements are sent
// with the transaction's first statement, without waiting for their answers (the pool pipelines them); the
// one LISTEN connection can be taken and given back any number of times. A read-only transaction opened for
// one statement sends its COMMIT behind that statement (decision 0090): one round trip in all.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, SetupStatement } from '../../server/db/database.ts';
import type { JwtClaims } from '../../server/auth/keys.ts';
import { withCaller } from '../../server/caller/caller.ts';
import { openPostgres } from '../../server/db/open-postgres.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const asMember: SetupStatement = {
  text: `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`,
  params: ['authenticated', JSON.stringify({ sub: 'member-1', role: 'authenticated' })],
  name: 'test_setup_as_member',
};

describe.each(getDatabaseKinds())('transaction options on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.exec(`create table public.tx_notes (id int primary key, body text not null);
      grant select, insert on public.tx_notes to authenticated;`);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('runs the setup statements before the first statement of the transaction, and only inside it', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await db.transaction(
        (tx) =>
          tx.query<{ who: string; claims: string }>(
            `select current_user::text as who, current_setting('request.jwt.claims', true) as claims`,
          ),
        { setup: [asMember] },
      );
      expect(r.rows[0]).toEqual({ who: 'authenticated', claims: asMember.params[1] });
    }
    const after = await db.query<{ who: string }>(`select current_user::text as who`);
    expect(after.rows[0]?.who).not.toBe('authenticated');
  });

  it('readOnly refuses a write with a read-only transaction error and keeps nothing', async () => {
    await expect(
      db.transaction((tx) => tx.query(`insert into public.tx_notes values (1, 'read only')`), {
        readOnly: true,
        setup: [asMember],
      }),
    ).rejects.toMatchObject({ code: '25006' });
    const written = await db.transaction(
      async (tx) => {
        await tx.query(`insert into public.tx_notes values (2, 'written')`);
        return tx.query<{ body: string }>(`select body from public.tx_notes order by id`);
      },
      { setup: [asMember] },
    );
    expect(written.rows).toEqual([{ body: 'written' }]);
  });

  it('a failing setup statement fails the transaction with its own error and writes nothing', async () => {
    const failing: SetupStatement = {
      text: `select set_config('role', $1, true)`,
      params: ['no_such_role'],
    };
    await expect(
      db.transaction((tx) => tx.query(`insert into public.tx_notes values (3, 'never')`), {
        setup: [failing],
      }),
    ).rejects.toThrow(/no_such_role/);
    // A transaction whose callback runs no statement still reports it.
    await expect(db.transaction(async () => 'nothing ran', { setup: [failing] })).rejects.toThrow(
      /no_such_role/,
    );
    const rows = await db.query(`select 1 from public.tx_notes where id = 3`);
    expect(rows.rows).toEqual([]);
    // The connection is usable again afterwards.
    const next = await db.transaction((tx) => tx.query<{ one: number }>(`select 1 as one`), {
      setup: [asMember],
    });
    expect(next.rows).toEqual([{ one: 1 }]);
  });

  it('oneStatement (decision 0090): answers its statement, refuses a second one and any use without readOnly', async () => {
    const r = await db.transaction((tx) => tx.query<{ who: string }>(`select current_user::text as who`), {
      readOnly: true,
      oneStatement: true,
      setup: [asMember],
    });
    expect(r.rows).toEqual([{ who: 'authenticated' }]);
    await expect(
      db.transaction(
        async (tx) => {
          await tx.query(`select 1`);
          return tx.query(`select 2`);
        },
        { readOnly: true, oneStatement: true, setup: [asMember] },
      ),
    ).rejects.toThrow(/one statement/);
    await expect(
      db.transaction((tx) => tx.query(`insert into public.tx_notes values (4, 'not one')`), {
        oneStatement: true,
        setup: [asMember],
      }),
    ).rejects.toThrow(/needs readOnly/);
    expect((await db.query(`select 1 from public.tx_notes where id = 4`)).rows).toEqual([]);
    // After its statement nothing runs as the caller: the session is the server's again.
    const after = await db.query<{ who: string }>(`select current_user::text as who`);
    expect(after.rows[0]?.who).not.toBe('authenticated');
  });

  it("withCaller's one-statement read runs as the caller, read-only, and refuses a second statement", async () => {
    const claims: JwtClaims = { role: 'authenticated', sub: 'member-2' };
    const who = await withCaller(
      db,
      claims,
      (tx) =>
        tx.query<{ who: string; claims: string }>(
          `select current_user::text as who, current_setting('request.jwt.claims', true) as claims`,
        ),
      { read: 'one statement' },
    );
    expect(who.rows).toEqual([{ who: 'authenticated', claims: JSON.stringify(claims) }]);
    await expect(
      withCaller(db, claims, (tx) => tx.query(`insert into public.tx_notes values (20, 'no')`), {
        read: 'one statement',
      }),
    ).rejects.toMatchObject({ code: '25006' });
    await expect(
      withCaller(
        db,
        claims,
        async (tx) => {
          await tx.query(`select 1`);
          return tx.query(`select 2`);
        },
        { read: 'one statement' },
      ),
    ).rejects.toThrow(/one statement/);
  });

  it('oneStatement: a failing statement, a failing setup and a failure after the statement each leave the connection clean', async () => {
    await expect(
      db.transaction((tx) => tx.query(`select 1 / 0`), {
        readOnly: true,
        oneStatement: true,
        setup: [asMember],
      }),
    ).rejects.toMatchObject({ code: '22012' });
    await expect(
      db.transaction((tx) => tx.query(`select 1`), {
        readOnly: true,
        oneStatement: true,
        setup: [{ text: `select set_config('role', $1, true)`, params: ['no_such_role'] }],
      }),
    ).rejects.toThrow(/no_such_role/);
    await expect(
      db.transaction(
        async (tx) => {
          await tx.query(`select 1`);
          throw new Error('406 after the statement');
        },
        { readOnly: true, oneStatement: true, setup: [asMember] },
      ),
    ).rejects.toThrow('406 after the statement');
    // No transaction, role or aborted state is left on the connection for the next caller.
    for (let i = 0; i < 3; i++) {
      const next = await db.transaction(
        async (tx) => {
          await tx.query(`insert into public.tx_notes values (${10 + i}, 'next')`);
          return tx.query<{ who: string }>(`select current_user::text as who`);
        },
        { setup: [asMember] },
      );
      expect(next.rows).toEqual([{ who: 'authenticated' }]);
    }
    expect((await db.query(`select count(*)::int as n from public.tx_notes where id >= 10`)).rows).toEqual([
      { n: 3 },
    ]);
  });
});

/**
 * Runs fn on a one-connection pool of a fresh database and answers the statements in the order they were
 * handed to the client ("send") and answered ("answer"/"failed"), with whether the client pipelines.
 */
async function recordStatements(fn: (db: Database) => Promise<void>): Promise<string[]> {
  const test = await createTestDatabase('postgres');
  const db = await openPostgres(test.url ?? '', { max: 1 });
  const events: string[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text: string };
    const text = (typeof config === 'string' ? config : config.text).split(/\s/)[0] ?? '';
    events.push(`send ${text} (pipeline: ${String(this.pipeline)})`);
    const result = (original as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    void result.then(
      () => events.push(`answer ${text}`),
      () => events.push(`failed ${text}`),
    );
    return result;
  } as typeof original;
  try {
    await fn(db);
  } finally {
    pg.Client.prototype.query = original;
    await db.close();
    await test.destroy();
  }
  return events;
}

describe.runIf(getDatabaseKinds().includes('postgres'))('transaction opening on PostgreSQL', () => {
  const asAnon = { text: `select set_config('role', 'anon', true)`, params: [] };

  it('sends BEGIN, the setup statements and the first statement before any of them is answered', async () => {
    const events = await recordStatements(async (db) => {
      await db.transaction((tx) => tx.query(`select 'first'`), { readOnly: true, setup: [asAnon] });
    });
    expect(events).toEqual([
      'send begin (pipeline: true)',
      'send select (pipeline: true)',
      'send select (pipeline: true)',
      'answer begin',
      'answer select',
      'answer select',
      'send commit (pipeline: true)',
      'answer commit',
    ]);
  });

  it('with oneStatement sends COMMIT behind the statement: the whole transaction is one round trip', async () => {
    const events = await recordStatements(async (db) => {
      const r = await db.transaction((tx) => tx.query<{ v: string }>(`select 'first' as v`), {
        readOnly: true,
        oneStatement: true,
        setup: [asAnon],
      });
      expect(r.rows).toEqual([{ v: 'first' }]);
    });
    expect(events).toEqual([
      'send begin (pipeline: true)',
      'send select (pipeline: true)',
      'send select (pipeline: true)',
      'send commit (pipeline: true)',
      'answer begin',
      'answer select',
      'answer select',
      'answer commit',
    ]);
  });
});

describe.runIf(getDatabaseKinds().includes('postgres'))('the LISTEN connection on PostgreSQL', () => {
  it('leaves no handler behind on the pooled connection when listening stops, however often', async () => {
    const test = await createTestDatabase('postgres');
    // One connection: the listener gets the same one back each time.
    const db = await openPostgres(test.url ?? '', { max: 1 });
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 15; i++) {
        const stop = await db.listen('adapter_test', () => {});
        await stop();
      }
      const heard: string[] = [];
      const stop = await db.listen('adapter_test', (payload) => heard.push(payload));
      await test.query(`select pg_notify('adapter_test', 'still heard')`);
      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      await stop();
      expect(heard).toEqual(['still heard']);
      // Node warns (asynchronously) when an emitter holds more than 10 handlers of one event.
      await new Promise((r) => setTimeout(r, 50));
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await db.close();
      await test.destroy();
    }
  });
});
