// One parameterised statement on PGlite in one exchange with the WebAssembly PostgreSQL (decision 0077).
// PGlite's own `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six exchanges, each with
// its own parser and main-loop pass, so that it can learn the parameters' types before serialising the
// values. This sends them as one message buffer, and keeps each statement's parameter types (asked once, by
// Parse and Describe) so values are serialised exactly as PGlite's own `query` would serialise them.
// A statement given a name is prepared once under it (Parse is skipped after); a transaction's BEGIN and its
// COMMIT or ROLLBACK are one exchange each.
import { protocol, TransactionAbortedError, type PGlite } from '@electric-sql/pglite';
import { checkTransactionOptions, ONE_STATEMENT_CLOSED } from './database.ts';
import type { Queryable, QueryResult, TransactionOptions } from './database.ts';

const { serialize } = protocol;

/** Statements whose parameter types are kept; the server's texts are few, built ones are dropped oldest first. */
const MAX_KEPT = 1000;

/** Commands whose completion tag counts affected rows (PGlite's `affectedRows` counts these alone). */
const COUNTED = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** The parts of PGlite's parsed backend messages read here. */
interface Message {
  name: string;
  fields?: ({ name: string; dataTypeID: number } | string | null)[];
  dataTypeIDs?: number[];
  text?: string;
}

export interface PgliteQueryRunner {
  /**
   * Runs one statement. `inTransaction`: the caller holds PGlite's transaction lock (inside
   * `db.transaction` or `transaction` below); otherwise the statement takes it, and the data folder is
   * synced afterwards. `name`: prepare the statement once under this name (its text must not change).
   */
  query<T>(text: string, params: unknown[], inTransaction: boolean, name?: string): Promise<QueryResult<T>>;
  /** Runs fn in one transaction: commits when it resolves, rolls back when it throws (as PGlite's own). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Forgets every statement's parameter types and prepared names (after DDL that could change them). */
  forget(): void;
}

export function createPgliteQueryRunner(db: PGlite): PgliteQueryRunner {
  const paramTypes = new Map<string, number[]>();
  /** Statements prepared under a name: the text prepared and its parameter types. */
  const prepared = new Map<string, { text: string; types: number[] }>();

  /** One exchange with the database: the messages, in order, as one buffer. */
  async function exchange(messages: Uint8Array[]): Promise<Message[]> {
    return (await db.execProtocolStream(concat(messages), { syncToFs: false })) as unknown as Message[];
  }

  /** Parses (and, with a name, prepares) a statement and answers its parameters' types. */
  async function describeParams(text: string, name?: string): Promise<number[]> {
    const answer = await exchange([
      // Close first: after forget() the name may still be prepared in the database (closing none is no error).
      ...(name ? [serialize.close({ type: 'S', name })] : []),
      serialize.parse({ text, ...(name ? { name } : {}) }),
      serialize.describe({ type: 'S', ...(name ? { name } : {}) }),
      serialize.sync(),
    ]);
    return answer.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
  }

  async function prepare(name: string, text: string): Promise<number[]> {
    const known = prepared.get(name);
    if (known?.text === text) return known.types;
    const types = await describeParams(text, name);
    prepared.set(name, { text, types });
    return types;
  }

  async function getParamTypes(text: string): Promise<number[]> {
    const known = paramTypes.get(text);
    if (known) return known;
    const types = await describeParams(text);
    if (paramTypes.size >= MAX_KEPT) paramTypes.delete(paramTypes.keys().next().value!);
    paramTypes.set(text, types);
    return types;
  }

  async function run<T>(text: string, params: unknown[], name: string | undefined): Promise<QueryResult<T>> {
    const types = name ? await prepare(name, text) : params.length > 0 ? await getParamTypes(text) : [];
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange([
      ...(name ? [] : [serialize.parse({ text })]),
      serialize.bind({ values, ...(name ? { statement: name } : {}) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    let fields: { name: string; parse: ((v: string, oid: number) => unknown) | undefined; oid: number }[] =
      [];
    const rows: Record<string, unknown>[] = [];
    let affected = 0;
    for (const m of messages) {
      if (m.name === 'rowDescription') {
        fields = (m.fields as { name: string; dataTypeID: number }[]).map((f) => ({
          name: f.name,
          oid: f.dataTypeID,
          parse: db.parsers[f.dataTypeID],
        }));
      } else if (m.name === 'dataRow') {
        const row: Record<string, unknown> = {};
        const cells = m.fields as (string | null)[];
        for (let i = 0; i < fields.length; i++) {
          const f = fields[i]!;
          const cell = cells[i] ?? null;
          row[f.name] = cell === null ? null : f.parse ? f.parse(cell, f.oid) : cell;
        }
        rows.push(row);
      } else if (m.name === 'commandComplete') {
        const words = (m.text ?? '').split(' ');
        const count = Number.parseInt(words[words.length - 1] ?? '', 10);
        if (COUNTED.has(words[0] ?? '') && !Number.isNaN(count)) affected += count;
      }
    }
    return { rows: rows as T[], rowCount: affected };
  }

  async function query<T>(
    text: string,
    params: unknown[],
    inTransaction: boolean,
    name?: string,
  ): Promise<QueryResult<T>> {
    const attempt = async () => {
      try {
        return await run<T>(text, params, name);
      } catch (e) {
        // As PGlite's own query does: the error says which statement it came from.
        if (e instanceof Error && 'code' in e) Object.assign(e, { query: text, params });
        throw e;
      }
    };
    if (inTransaction) return db._runExclusiveQuery(attempt);
    await db._checkReady();
    return db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const result = await attempt();
        await db.syncToFs();
        return result;
      }),
    );
  }

  /** One simple-protocol exchange (no parameters; several statements allowed); answers the last tag. */
  async function simple(sql: string): Promise<string> {
    return db._runExclusiveQuery(async () => {
      try {
        const messages = await exchange([serialize.query(sql)]);
        let tag = '';
        for (const m of messages) if (m.name === 'commandComplete') tag = (m.text ?? '').split(' ')[0] ?? '';
        return tag;
      } catch (e) {
        if (e instanceof Error && 'code' in e) Object.assign(e, { query: sql });
        throw e;
      }
    });
  }

  return {
    query,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      checkTransactionOptions(options);
      await db._checkReady();
      return db._runExclusiveTransaction(async () => {
        let closed = false;
        const refuseClosed = () => {
          if (closed) throw new Error('Transaction is closed');
        };
        // As on PostgreSQL (where COMMIT travels with it), a transaction opened for one statement runs one.
        let statements = 0;
        const tx: Queryable = {
          async query<R>(text: string, params: unknown[] = [], queryOptions: { name?: string } = {}) {
            refuseClosed();
            if (options.oneStatement && statements++ > 0) throw new Error(ONE_STATEMENT_CLOSED);
            return query<R>(text, params, true, queryOptions.name);
          },
          async exec(sql: string) {
            refuseClosed();
            if (options.oneStatement)
              throw new Error('A transaction opened for one statement runs it with query');
            paramTypes.clear();
            prepared.clear();
            await simple(sql);
          },
        };
        await simple(options.readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
        try {
          for (const s of options.setup ?? []) await query(s.text, s.params, true, s.name);
          const result = await fn(tx);
          closed = true;
          // A statement that failed inside leaves the transaction aborted: COMMIT then rolls back.
          if ((await simple('COMMIT')) === 'ROLLBACK') {
            throw Object.assign(new TransactionAbortedError(), { query: 'COMMIT' });
          }
          return result;
        } catch (e) {
          if (!closed) {
            closed = true;
            await simple('ROLLBACK');
          }
          throw e;
        } finally {
          await db.syncToFs();
        }
      });
    },
    forget() {
      paramTypes.clear();
      prepared.clear();
    },
  };
}
