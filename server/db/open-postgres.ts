// PostgreSQL over a pool; pool errors are logged, never fatal, so a database restart does not kill the server.
import pg from 'pg';
import type { Database, Queryable, QueryOptions, QueryResult } from './database.ts';
import { TYPE_OIDS } from './database.ts';

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
  const pool = new pg.Pool({ connectionString, max: options.max ?? 10, connectionTimeoutMillis: 5000 });
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
  const connectListener = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    client.on('notification', onNotification);
    client.on('error', (e) => {
      options.onError?.(e);
      if (listenClient !== client) return;
      // The connection is gone (database restart, network cut): LISTEN again on a new one. Notifications
      // sent meanwhile are lost; callers that need every change also poll.
      listenClient = undefined;
      client.release(e);
      void reconnect();
    });
    try {
      for (const channel of handlers.keys()) await client.query(`listen ${channel}`);
    } catch (e) {
      client.off('notification', onNotification);
      client.release(e as Error);
      throw e;
    }
    if (closed) {
      client.release();
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
    async transaction(fn) {
      const client = await pool.connect();
      // The pool only listens for errors on idle clients: a connection lost while checked out would
      // otherwise be an unhandled 'error' event that ends the process.
      let lost: Error | undefined;
      const onLost = (e: Error) => {
        lost = e;
        options.onError?.(e);
      };
      client.on('error', onLost);
      try {
        await client.query('begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      } catch (e) {
        await client.query('rollback').catch(() => {});
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
          client.off('notification', onNotification);
          client.release();
        }
      };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closed = true;
      listenClient?.release();
      listenClient = undefined;
      await pool.end();
    },
  };
}
