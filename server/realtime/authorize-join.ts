// Decides whether the holder of some JWT claims may join a topic (member channels checked in SQL as the member)
// and whether a member may be shown on online-users (their own privacy setting, read as them).
import type { JwtClaims } from '../auth/keys.ts';
import type { Database } from '../db/database.ts';
import { findMemberId, withCaller } from '../caller/caller.ts';
import { MEMBER_RESOURCES, type TopicAccess } from './topics.ts';

export type JoinDecision = { ok: true } | { ok: false; reason: string };

export async function authorizeJoin(
  db: Database,
  access: TopicAccess,
  claims: JwtClaims,
  onError: (e: unknown) => void = () => {},
): Promise<JoinDecision> {
  if (access.kind === 'public') return { ok: true };
  if (claims.role === 'service_role') return { ok: true };
  const memberId = findMemberId(claims);
  if (!memberId) return { ok: false, reason: 'Sign in to join this channel' };
  if (access.kind === 'online-users') return { ok: true };
  const isMember = await checkMembership(db, access, claims, onError);
  return isMember ? { ok: true } : { ok: false, reason: 'You are not a member of this channel' };
}

/**
 * The members hidden from `memberId` and from whom `memberId` is hidden: either one blocked or reported the
 * other. Read as the server (the member may not see who blocked them), used only to filter what they see.
 */
export async function findHiddenMemberIds(db: Database, memberId: string): Promise<Set<string>> {
  const r = await db.query<{ id: string }>(
    `select blocked_id as id from public.blocked_users where blocker_id = $1
     union select blocker_id from public.blocked_users where blocked_id = $1
     union select reported_id from public.reports where reporter_id = $1
     union select reporter_id from public.reports where reported_id = $1`,
    [memberId],
  );
  return new Set(r.rows.map((row) => row.id));
}

export const ONLINE_STATUS_HIDDEN =
  'Your online status is hidden (Show my online status is off in Account Settings)';

/**
 * Whether the member's own profile says show_online_status, read as the member (role authenticated,
 * their claims), so row-level security decides as it does for the app. No row means hidden; a failed
 * read is 'unknown' (the caller fails closed for anyone not already shown).
 */
export async function findOnlineVisibility(
  db: Database,
  claims: JwtClaims,
  onError: (e: unknown) => void = () => {},
): Promise<'shown' | 'hidden' | 'unknown'> {
  try {
    return await withCaller(
      db,
      { ...claims, role: 'authenticated' },
      async (tx) => {
        const result = await tx.query<{ show_online_status: boolean }>(
          'select show_online_status from public.profiles where id = auth.uid()',
        );
        return result.rows[0]?.show_online_status === true ? 'shown' : 'hidden';
      },
      { read: 'one statement' },
    );
  } catch (e) {
    onError(e);
    return 'unknown';
  }
}

/**
 * True when the row exists, row-level security lets the member see it, and the member is one of
 * its two people. A missing table (its migration not there yet) or any error means no.
 */
async function checkMembership(
  db: Database,
  access: Extract<TopicAccess, { kind: 'member' }>,
  claims: JwtClaims,
  onError: (e: unknown) => void,
): Promise<boolean> {
  const { table, members } = MEMBER_RESOURCES[access.resource];
  // Table and column names come from the constant above, never from the request.
  const sql = `select 1 from ${table} where id = $1 and auth.uid() in (${members[0]}, ${members[1]}) limit 1`;
  try {
    return await withCaller(
      db,
      { ...claims, role: 'authenticated' },
      async (tx) => {
        const result = await tx.query(sql, [access.id]);
        return result.rows.length > 0;
      },
      { read: 'one statement' },
    );
  } catch (e) {
    onError(e);
    return false;
  }
}
