// The PowerSync connector: credentials from the supabase-js session, and the upload queue through supabase-js REST.
import type {
  CommonPowerSyncDatabase,
  CrudEntry,
  PowerSyncBackendConnector,
  PowerSyncCredentials,
} from '@powersync/common';
import type { SupabaseClient } from '@supabase/supabase-js';
import { STRUCTURED_COLUMNS, type SyncedTableName } from './schema.ts';
import {
  AUTH_RETRY_CODES,
  classifyUploadError,
  describeRefusal,
  getRetryDelayMs,
  type UploadError,
  type UploadOutcome,
} from './upload-policy.ts';

/** Tables whose replica id is another column on the server (the rules select it "as id"). */
const SERVER_ID_COLUMN: Record<string, string> = { match_preferences: 'user_id' };

/** PowerSync waits this long after a failed upload before calling uploadData again. */
export const POWERSYNC_RETRY_DELAY_MS = 1000;

export interface UploadRefusal {
  table: string;
  op: string;
  id: string;
  error: UploadError;
  title: string;
  description: string;
}

export interface ConnectorOptions {
  getSupabase: () => Promise<SupabaseClient>;
  /** Where the sync service lives (app-config's powersyncUrl, else the backend's URL). */
  getEndpoint: () => Promise<string>;
  /** Called for each write the server refused; the replica provider shows it as a toast. */
  onRefused: (refusal: UploadRefusal) => void;
  /** Waits before a retry; resolves early when the browser comes back online. Injected by tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** A transient failure: thrown so PowerSync keeps the transaction and calls uploadData again. */
export class RetryableUploadError extends Error {
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
    this.name = 'RetryableUploadError';
  }
}

function toUploadError(
  error: { code?: string; message?: string; details?: string | null; hint?: string | null },
  status: number,
): UploadError {
  return { code: error.code, message: error.message, details: error.details, hint: error.hint, status };
}

/**
 * The replica keeps arrays and json as JSON text; the server wants the values. Text that is not JSON
 * is sent as it is, so the server refuses it with a clear validation error instead of guessing.
 */
export function decodeStructuredColumns(
  table: string,
  data: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const columns = STRUCTURED_COLUMNS[table as SyncedTableName];
  if (!data || !columns) return data;
  const out = { ...data };
  for (const c of columns) {
    const v = out[c];
    if (typeof v !== 'string') continue;
    try {
      out[c] = JSON.parse(v) as unknown;
    } catch {
      /* leave it for the server to refuse */
    }
  }
  return out;
}

/** Sends one CRUD entry; returns the server's answer as an outcome (never throws for HTTP errors). */
export async function uploadCrudEntry(
  supabase: SupabaseClient,
  entry: Pick<CrudEntry, 'op' | 'table' | 'id' | 'opData'>,
): Promise<{ outcome: UploadOutcome | 'ok'; error?: UploadError }> {
  const idColumn = SERVER_ID_COLUMN[entry.table] ?? 'id';
  const table = supabase.from(entry.table);
  const opData = decodeStructuredColumns(entry.table, entry.opData);
  let result: {
    error: { code?: string; message?: string; details?: string | null; hint?: string | null } | null;
    status: number;
  };
  try {
    switch (entry.op) {
      case 'PUT':
        // Insert, and a row already there counts as applied: members may insert rows they may not update
        // (messages, likes), and "on conflict do update" would need the update right on every column.
        result = await table.upsert(
          { ...opData, [idColumn]: entry.id },
          { onConflict: idColumn, ignoreDuplicates: true },
        );
        break;
      case 'PATCH':
        // Only the changed columns, so two devices (or two players) writing different columns never clobber each other.
        result = await table.update({ ...opData }).eq(idColumn, entry.id);
        break;
      case 'DELETE':
        result = await table.delete().eq(idColumn, entry.id);
        break;
      default:
        return {
          outcome: 'refused',
          error: { message: `unknown operation ${String(entry.op)}`, status: 400 },
        };
    }
  } catch (e) {
    // supabase-js returns errors, but a thrown fetch (offline) must still mean "retry".
    return { outcome: 'retry', error: { message: e instanceof Error ? e.message : String(e), status: 0 } };
  }
  if (!result.error) return { outcome: 'ok' };
  const error = toUploadError(result.error, result.status);
  return { outcome: classifyUploadError(error), error };
}

const defaultSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      globalThis.removeEventListener?.('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    globalThis.addEventListener?.('online', done);
  });

export class SupabaseConnector implements PowerSyncBackendConnector {
  /** Consecutive failed upload attempts; drives the 1 s .. 30 s backoff. */
  private failures = 0;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: ConnectorOptions) {
    this.sleep = options.sleep ?? defaultSleep;
  }

  async fetchCredentials(): Promise<PowerSyncCredentials | null> {
    const supabase = await this.options.getSupabase();
    // getSession refreshes an expired token when it can; offline it returns an error or the stale session,
    // and never signs the member out, so the replica stays readable and sync resumes later.
    const { data, error } = await supabase.auth.getSession();
    if (error) throw new RetryableUploadError(`could not get a session: ${error.message}`, error);
    const session = data.session;
    if (!session) return null;
    const expiresAtMs = (session.expires_at ?? 0) * 1000;
    if (expiresAtMs && expiresAtMs <= Date.now() + 5_000) {
      // The refresh failed (offline or server down): a retryable error makes PowerSync try again later.
      throw new RetryableUploadError('the access token has expired and could not be renewed yet');
    }
    return {
      endpoint: await this.options.getEndpoint(),
      token: session.access_token,
      ...(session.expires_at ? { expiresAt: new Date(session.expires_at * 1000) } : {}),
    };
  }

  async uploadData(database: CommonPowerSyncDatabase): Promise<void> {
    if (this.failures > 0) {
      // PowerSync itself waits POWERSYNC_RETRY_DELAY_MS after each failure; this adds the rest of the backoff.
      const extra = getRetryDelayMs(this.failures - 1) - POWERSYNC_RETRY_DELAY_MS;
      if (extra > 0) await this.sleep(extra);
    }
    const transaction = await database.getNextCrudTransaction();
    if (!transaction) return;
    const supabase = await this.options.getSupabase();
    for (const entry of transaction.crud) {
      const { outcome, error } = await uploadCrudEntry(supabase, entry);
      if (outcome === 'ok' || outcome === 'applied') continue;
      if (outcome === 'retry') {
        this.failures += 1;
        if (AUTH_RETRY_CODES.has(error?.code ?? ''))
          await supabase.auth.refreshSession().catch(() => undefined);
        throw new RetryableUploadError(
          `upload of ${entry.table}/${entry.id} will be retried: ${error?.message ?? 'unknown error'}`,
          error,
        );
      }
      const words = describeRefusal(entry.table, error ?? {});
      console.warn('[replica] write refused and dropped', entry.table, entry.op, entry.id, error);
      this.options.onRefused({
        table: entry.table,
        op: entry.op,
        id: entry.id,
        error: error ?? {},
        ...words,
      });
    }
    this.failures = 0;
    await transaction.complete();
  }
}
