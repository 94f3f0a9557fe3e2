// One parameterised statement on PGlite in one exchange with the WebAssembly PostgreSQL (decision 0077).
// PGlite's own `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six exchanges, each with
// its own parser and main-loop pass, so that it can learn the parameters' types before serialising the
// values. This sends them as one message buffer, and keeps each statement's parameter types (asked once, by
// Parse and Describe) so values are serialised exactly as PGlite's own `query` would serialise them.
import { protocol, type PGlite } from '@electric-sql/pglite';
import type { QueryResult } from './database.ts';

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
   * `db.transaction`); otherwise the statement takes it, and the data folder is synced afterwards.
   */
  query<T>(text: string, params: unknown[], inTransaction: boolean): Promise<QueryResult<T>>;
  /** Forgets every statement's parameter types (after DDL that could change them). */
  forget(): void;
}

export function createPgliteQueryRunner(db: PGlite): PgliteQueryRunner {
  const paramTypes = new Map<string, number[]>();

  async function getParamTypes(text: string): Promise<number[]> {
    const known = paramTypes.get(text);
    if (known) return known;
    const messages = (await db.execProtocolStream(
      concat([serialize.parse({ text }), serialize.describe({ type: 'S' }), serialize.sync()]),
      { syncToFs: false },
    )) as unknown as Message[];
    const types = messages.find((m) => m.name === 'parameterDescription')?.dataTypeIDs ?? [];
    if (paramTypes.size >= MAX_KEPT) paramTypes.delete(paramTypes.keys().next().value!);
    paramTypes.set(text, types);
    return types;
  }

  async function run<T>(text: string, params: unknown[]): Promise<QueryResult<T>> {
    const types = params.length > 0 ? await getParamTypes(text) : [];
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = db.serializers[types[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = (await db.execProtocolStream(
      concat([
        serialize.parse({ text }),
        serialize.bind({ values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )) as unknown as Message[];
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

  return {
    async query<T>(text: string, params: unknown[], inTransaction: boolean): Promise<QueryResult<T>> {
      const attempt = async () => {
        try {
          return await run<T>(text, params);
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
    },
    forget() {
      paramTypes.clear();
    },
  };
}
