// Records auth events in public.security_events when the app's migrations define that table; until then
// (or if its shape is unexpected) events only go to the log. Recording never fails the request.
import type { AppContext } from '../context.ts';

interface Target {
  nameColumn: string;
  detailsColumn: string | undefined;
  userColumn: string | undefined;
}

/** An event to write in the same statement as other work (see auth.open_session in schema.sql). */
export interface InlineSecurityEvent {
  name: string;
  details: Record<string, unknown>;
}

export interface SecurityEventRecorder {
  /** Logs the event and writes it in its own statement. */
  (name: string, details: Record<string, unknown>, userId?: string): Promise<void>;
  /**
   * Logs the event and, when the table has the shape auth.open_session writes (event, details,
   * user_id), hands it back for that call to write; otherwise writes it now and answers undefined.
   */
  prepareInline(
    name: string,
    details: Record<string, unknown>,
    userId: string,
  ): Promise<InlineSecurityEvent | undefined>;
  /** Logs the error an inline write came back with. */
  reportInlineError(error: string): void;
}

const NAME_COLUMNS = ['event_type', 'event_name', 'name', 'event', 'type'];
const DETAILS_COLUMNS = ['details', 'payload', 'metadata', 'data'];
const USER_COLUMNS = ['user_id'];
const RECHECK_MS = 60_000;

export function createSecurityEventRecorder(ctx: Pick<AppContext, 'db' | 'log'>): SecurityEventRecorder {
  let target: Target | undefined;
  let checkedAt = -Infinity;

  async function findTarget(): Promise<Target | undefined> {
    if (target || Date.now() - checkedAt < RECHECK_MS) return target;
    checkedAt = Date.now();
    const r = await ctx.db.query<{ column_name: string }>(
      `select column_name from information_schema.columns
       where table_schema = 'public' and table_name = 'security_events'`,
    );
    const cols = new Set(r.rows.map((x) => x.column_name));
    const nameColumn = NAME_COLUMNS.find((c) => cols.has(c));
    if (!nameColumn) return undefined;
    target = {
      nameColumn,
      detailsColumn: DETAILS_COLUMNS.find((c) => cols.has(c)),
      userColumn: USER_COLUMNS.find((c) => cols.has(c)),
    };
    return target;
  }

  function log(name: string, details: Record<string, unknown>, userId: string | undefined) {
    ctx.log.info({ securityEvent: name, userId, ...details }, 'security event');
  }

  async function write(name: string, details: Record<string, unknown>, userId: string | undefined) {
    try {
      const t = await findTarget();
      if (!t) return;
      // Column names come from the fixed lists above, never from a request.
      const cols = [t.nameColumn];
      const values: unknown[] = [name];
      if (t.detailsColumn) {
        cols.push(t.detailsColumn);
        values.push(JSON.stringify(details));
      }
      if (t.userColumn && userId) {
        cols.push(t.userColumn);
        values.push(userId);
      }
      await ctx.db.query(
        `insert into public.security_events (${cols.map((c) => `"${c}"`).join(', ')})
         values (${values.map((_, i) => `$${i + 1}`).join(', ')})`,
        values,
      );
    } catch (e) {
      ctx.log.warn({ err: (e as Error).message }, 'could not record security event');
    }
  }

  const record = async (name: string, details: Record<string, unknown>, userId?: string) => {
    log(name, details, userId);
    await write(name, details, userId);
  };
  return Object.assign(record, {
    async prepareInline(name: string, details: Record<string, unknown>, userId: string) {
      log(name, details, userId);
      let t: Target | undefined;
      try {
        t = await findTarget();
      } catch {
        t = undefined;
      }
      if (t?.nameColumn === 'event' && t.detailsColumn === 'details' && t.userColumn === 'user_id')
        return { name, details };
      await write(name, details, userId);
      return undefined;
    },
    reportInlineError(error: string) {
      ctx.log.warn({ err: error }, 'could not record security event');
    },
  });
}
