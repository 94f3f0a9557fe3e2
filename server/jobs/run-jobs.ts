// One pass of the scheduled jobs, run as service_role like pg_cron would run them when hosted:
// pause expiry, calls left ringing, the Wingman's actions, then due account deletions (stored files first, then
// the auth user and its rows).
import type { AppContext } from '../context.ts';
import { SERVICE_CLAIMS, withCaller } from '../caller/caller.ts';
import { deleteUserStoredFiles } from '../storage/delete-user-files.ts';

/** Most deletions handled per pass, so one pass stays short; the rest wait for the next one. */
export const MAX_DELETIONS_PER_RUN = 50;

/** Members whose Wingman acts per pass; the rest wait for the next pass. */
export const MAX_WINGMAN_MEMBERS_PER_RUN = 100;

export interface JobsResult {
  pausesExpired: number;
  callsMissed: number;
  /** Likes and first messages the members' high-autonomy agents sent. */
  wingmanActions: number;
  deletedUserIds: string[];
  errors: string[];
}

async function queryAsServiceRole<T>(ctx: AppContext, sql: string, params: unknown[] = []): Promise<T[]> {
  return withCaller(ctx.db, SERVICE_CLAIMS, async (tx) => (await tx.query<T>(sql, params)).rows);
}

/** Runs every job once; errors are collected and logged, never thrown. */
export async function runJobsOnce(ctx: AppContext): Promise<JobsResult> {
  const result: JobsResult = {
    pausesExpired: 0,
    callsMissed: 0,
    wingmanActions: 0,
    deletedUserIds: [],
    errors: [],
  };
  const fail = (job: string, e: unknown) => {
    const message = `${job}: ${(e as Error).message}`;
    result.errors.push(message);
    ctx.log.error({ err: e, job }, 'scheduled job failed');
  };

  try {
    const rows = await queryAsServiceRole<{ n: number }>(ctx, 'select public.expire_account_pauses() as n');
    result.pausesExpired = Number(rows[0]?.n ?? 0);
  } catch (e) {
    fail('expire_account_pauses', e);
  }

  try {
    const rows = await queryAsServiceRole<{ n: number }>(ctx, 'select public.expire_ringing_calls() as n');
    result.callsMissed = Number(rows[0]?.n ?? 0);
  } catch (e) {
    fail('expire_ringing_calls', e);
  }

  try {
    // Each action runs as its member inside the SQL function (0123), so the member's rules judge it.
    const rows = await queryAsServiceRole<{ n: number }>(ctx, 'select app_private.run_wingman($1) as n', [
      MAX_WINGMAN_MEMBERS_PER_RUN,
    ]);
    result.wingmanActions = Number(rows[0]?.n ?? 0);
  } catch (e) {
    fail('run_wingman', e);
  }

  let due: string[] = [];
  try {
    const rows = await queryAsServiceRole<{ user_id: string }>(
      ctx,
      'select user_id from public.get_due_account_deletions() limit $1',
      [MAX_DELETIONS_PER_RUN],
    );
    due = rows.map((r) => r.user_id);
  } catch (e) {
    fail('get_due_account_deletions', e);
  }
  for (const userId of due) {
    try {
      // Files before the user: if they cannot be removed the account stays due and the next pass retries.
      await deleteUserStoredFiles(ctx.db, ctx.config.dataDir, userId);
      const deleted = await ctx.db.query<{ id: string }>(
        `delete from auth.users u using public.account_deletion_requests d
          where u.id = $1 and d.user_id = u.id and d.status = 'pending' and d.scheduled_for <= now()
          returning u.id`,
        [userId],
      );
      if (deleted.rows.length === 0) continue; // cancelled in the meantime
      result.deletedUserIds.push(userId);
      ctx.events.emit('sessions-ended', { userId, sessionIds: 'all' });
      ctx.log.info({ userId }, 'account deleted after its grace period');
    } catch (e) {
      fail(`account deletion of ${userId}`, e);
    }
  }
  return result;
}
