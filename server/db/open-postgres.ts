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
  const listeners = new Set<pg.PoolClient>();
  let closed = false;
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
      const handler = (msg: pg.Notification) => {
        if (msg.channel === channel) onNotify(msg.payload ?? '');
      };
      let current: pg.PoolClient | undefined;
      let stopped = false;
      const attach = async () => {
        const client = await pool.connect();
        client.on('notification', handler);
        client.on('error', (e) => {
          options.onError?.(e);
          if (current !== client) return;
          // The connection is gone (database restart, network cut): drop it and LISTEN on a new one.
          // Notifications sent meanwhile are lost; callers that need every change also poll.
          current = undefined;
          listeners.delete(client);
          client.release(e);
          void reattach();
        });
        try {
          await client.query(`listen ${channel}`);
        } catch (e) {
          client.release(e as Error);
          throw e;
        }
        current = client;
        listeners.add(client);
      };
      const reattach = async () => {
        for (let delay = 200; !stopped && !closed; delay = Math.min(delay * 2, 5000)) {
          await new Promise((r) => setTimeout(r, delay));
          if (stopped || closed) return;
          try {
            await attach();
            if (stopped || closed) await detach();
            return;
          } catch (e) {
            options.onError?.(e as Error);
          }
        }
      };
      const detach = async () => {
        const client = current;
        current = undefined;
        if (!client) return;
        client.off('notification', handler);
        listeners.delete(client);
        await client.query(`unlisten ${channel}`).catch(() => {});
        client.release();
      };
      await attach();
      return async () => {
        stopped = true;
        await detach();
      };
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      closed = true;
      for (const c of listeners) c.release();
      listeners.clear();
      await pool.end();
    },
  };
}
