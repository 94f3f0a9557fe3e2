// PostgreSQL over a pool; pool errors are logged, never fatal, so a database restart does not kill the server.
import pg from 'pg';
import type { Database, Queryable, QueryOptions, QueryResult } from './database.ts';
import { checkTransactionOptions, ONE_STATEMENT_CLOSED, TYPE_OIDS } from './database.ts';

const identity = (v: string) => v;
const typeParser = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TYPE_OIDS.int8 || oid === TYPE_OIDS.date) return identity;
    return pg.types.getTypeParser(oid, format);
  },
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(
      text: string,
      params: unknown[] = [],
      options: QueryOptions = {},
    ): Promise<QueryResult<T>> {
      const r = await client.query({
        text,
        values: params,
        types: typeParser,
        ...(options.name ? { name: options.name } : {}),
      });
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(sql: string) {
      await client.query({ text: sql, types: typeParser });
    },
  };
}

export async function openPostgres(
  connectionString: string,
  options: { max?: number; onError?: (e: Error) => void } = {},
): Promise<Database> {
  // pipeline: a client sends a statement without waiting for the answers to the ones before it (each
  // still answered, or failed, on its own); a transaction's opening statements use it (decision 0089).
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5000,
    pipeline: true,
  });
  pool.on('error', (e) => options.onError?.(e));
  const base = wrap(pool);
  // One connection LISTENs on every channel of this process (the cluster bus, the sync replicator, realtime's
  // block notices): a connection per channel would hold that many pooled connections for good and starve
  // requests on a small pool.
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.PoolClient | undefined;
  let connecting: Promise<pg.PoolClient> | undefined;
  let closed = false;
  const onNotification = (msg: pg.Notification) => {
    for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
  };
  // The listening connection's own error handler, taken off when it goes back to the pool: the pool may hand
  // the same connection to the listener again, and handlers left on it would pile up.
  const errorHandlers = new WeakMap<pg.PoolClient, (e: Error) => void>();
  const releaseListener = (client: pg.PoolClient, error?: Error) => {
    client.off('notification', onNotification);
    const onError = errorHandlers.get(client);
    if (onError) client.off('error', onError);
    errorHandlers.delete(client);
    client.release(error);
  };
  const connectListener = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    client.on('notification', onNotification);
    const onError = (e: Error) => {
      options.onError?.(e);
      if (listenClient !== client) return;
      // The connection is gone (database restart, network cut): LISTEN again on a new one. Notifications
      // sent meanwhile are lost; callers that need every change also poll.
      listenClient = undefined;
      releaseListener(client, e);
      void reconnect();
    };
    errorHandlers.set(client, onError);
    client.on('error', onError);
    try {
      for (const channel of handlers.keys()) await client.query(`listen ${channel}`);
    } catch (e) {
      releaseListener(client, e as Error);
      throw e;
    }
    if (closed) {
      releaseListener(client);
      throw new Error('the database is closed');
    }
    listenClient = client;
    return client;
  };
  const ensureListener = (): Promise<pg.PoolClient> => {
    if (listenClient) return Promise.resolve(listenClient);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };
  const reconnect = async () => {
    for (let delay = 200; !closed && handlers.size > 0; delay = Math.min(delay * 2, 5000)) {
      await new Promise((r) => setTimeout(r, delay));
      if (closed || handlers.size === 0 || listenClient) return;
      try {
        await ensureListener();
        return;
      } catch (e) {
        options.onError?.(e as Error);
      }
    }
  };
  return {
    kind: 'postgres',
    ...base,
    async transaction(fn, txOptions = {}) {
      checkTransactionOptions(txOptions);
      const client = await pool.connect();
      // The pool only listens for errors on idle clients: a connection lost while checked out would
      // otherwise be an unhandled 'error' event that ends the process.
      let lost: Error | undefined;
      const onLost = (e: Error) => {
        lost = e;
        options.onError?.(e);
      };
      client.on('error', onLost);
      // BEGIN and the setup statements are sent without waiting for their answers: the pool pipelines
      // (below), so they share one round trip with the transaction's first statement (decision 0089).
      const opening = [
        client.query(txOptions.readOnly ? 'begin read only' : 'begin'),
        ...(txOptions.setup ?? []).map((s) =>
          client.query({
            text: s.text,
            values: s.params,
            types: typeParser,
            ...(s.name ? { name: s.name } : {}),
          }),
        ),
      ];
      // Rejects with the first opening statement that failed; never left unhandled.
      const opened = Promise.all(opening).then(() => undefined);
      opened.catch(() => {});
      const inner = wrap(client);
      // With oneStatement, COMMIT is sent behind fn's statement without waiting (decision 0090). After a
      // failed statement the database answers that COMMIT with ROLLBACK, so it never fails on its own.
      let committing: Promise<unknown> | undefined;
      const tx: Queryable = {
        async query<T>(text: string, params?: unknown[], queryOptions?: QueryOptions) {
          if (committing) throw new Error(ONE_STATEMENT_CLOSED);
          const answer = inner.query<T>(text, params, queryOptions);
          if (txOptions.oneStatement) {
            committing = client.query('commit');
            committing.catch(() => {});
          }
          try {
            return await answer;
          } catch (e) {
            // After a failed opening statement every statement fails as "transaction is aborted":
            // the opening's own error says why.
            await opened;
            throw e;
          }
        },
        async exec(sql) {
          if (txOptions.oneStatement)
            throw new Error('A transaction opened for one statement runs it with query');
          await opened;
          await inner.exec(sql);
        },
      };
      try {
        const result = await fn(tx);
        await opened;
        await (committing ?? client.query('commit'));
        return result;
      } catch (e) {
        if (committing) await committing.catch(() => {});
        else await client.query('rollback').catch(() => {});
        throw e;
      } finally {
        client.off('error', onLost);
        client.release(lost);
      }
    },
    async listen(channel, onNotify) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
      let set = handlers.get(channel);
      const isNewChannel = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      const mine = set;
      mine.add(onNotify);
      const forget = () => {
        mine.delete(onNotify);
        if (mine.size === 0 && handlers.get(channel) === mine) handlers.delete(channel);
      };
      if (isNewChannel) {
        try {
          const client = await ensureListener();
          // A connection made just now already listens on it; LISTEN twice is harmless.
          await client.query(`listen ${channel}`);
        } catch (e) {
          forget();
          throw e;
        }
      }
      return async () => {
        forget();
        if (handlers.has(channel)) return;
        const client = listenClient;
        await client?.query(`unlisten ${channel}`).catch(() => {});
        if (handlers.size === 0 && listenClient === client && client) {
          listenClient = undefined;
          releaseListener(client);
        }
      };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closed = true;
      if (listenClient) releaseListener(listenClient);
      listenClient = undefined;
      await pool.end();
    },
  };
}
