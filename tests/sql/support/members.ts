// Test helpers for the SQL tier: members made the way sign-up makes them (a row in auth.users; the
// trigger makes the profile), direct superuser edits for setting up scenes, and error matchers.
import crypto from 'node:crypto';
import { expect } from 'vitest';
import type { Queryable } from '../../../server/db/database.ts';

export interface NewMember {
  name?: string;
  email?: string;
  /** Profile columns set right after creation, as the superuser (test setup only). */
  profile?: Record<string, unknown>;
  /** A match_preferences row for the member. */
  preferences?: Record<string, unknown>;
}

let counter = 0;

/** Creates a member (auth user + profile) and returns their id. */
export async function createMember(db: Queryable, options: NewMember = {}): Promise<string> {
  const id = crypto.randomUUID();
  counter += 1;
  const email = options.email ?? `member-${counter}-${id.slice(0, 8)}@example.test`;
  await db.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)`, [
    id,
    email,
    JSON.stringify({ name: options.name ?? `Member ${counter}` }),
  ]);
  if (options.profile) await updateRow(db, 'profiles', 'id', id, options.profile);
  if (options.preferences) {
    await db.query('insert into public.match_preferences (user_id) values ($1)', [id]);
    await updateRow(db, 'match_preferences', 'user_id', id, options.preferences);
  }
  return id;
}

/** Sets columns of one row as the superuser. Column names come from test code, values are parameters. */
export async function updateRow(
  db: Queryable,
  table: string,
  keyColumn: string,
  key: unknown,
  values: Record<string, unknown>,
): Promise<void> {
  const columns = Object.keys(values);
  if (columns.length === 0) return;
  const sets = columns.map((c, i) => `"${c}" = $${i + 2}`).join(', ');
  await db.query(`update public."${table}" set ${sets} where "${keyColumn}" = $1`, [
    key,
    ...columns.map((c) => values[c]),
  ]);
}

/** Inserts a like or skip as the superuser (bypassing RLS, not triggers). */
export async function addInteraction(
  db: Queryable,
  userId: string,
  targetId: string,
  type: 'like' | 'skip' = 'like',
): Promise<void> {
  await db.query(
    'insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, $3)',
    [userId, targetId, type],
  );
}

/** Makes two members match the only way matches are made: both like each other. Returns match and conversation ids. */
export async function makeMatch(
  db: Queryable,
  a: string,
  b: string,
): Promise<{ matchId: string; conversationId: string }> {
  await addInteraction(db, a, b);
  await addInteraction(db, b, a);
  const r = await db.query<{ match_id: string; conversation_id: string }>(
    `select m.id match_id, c.id conversation_id from public.matches m
     join public.conversations c on c.match_id = m.id
     where m.user_id_1 = least($1::uuid, $2::uuid) and m.user_id_2 = greatest($1::uuid, $2::uuid)`,
    [a, b],
  );
  const row = r.rows[0];
  if (!row) throw new Error('mutual like made no match');
  return { matchId: row.match_id, conversationId: row.conversation_id };
}

/** Gives a member a paid, current subscription (as the service would after a verified payment). */
export async function grantPremium(db: Queryable, userId: string, planId = 'premium'): Promise<void> {
  await db.query(
    `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
     values ($1, $2, 'monthly', 'active', now() + interval '30 days', 'cus_test')
     on conflict (user_id) do update set plan_id = excluded.plan_id, status = 'active',
       current_period_end = excluded.current_period_end, stripe_customer_id = excluded.stripe_customer_id`,
    [userId, planId],
  );
}

/** Expects a promise to reject with a database error of the given SQLSTATE (and message, if given). */
export async function expectSqlError(
  promise: Promise<unknown>,
  code: string,
  message?: string | RegExp,
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected SQLSTATE ${code}`).toBeDefined();
  expect(error).toMatchObject({ code });
  if (message !== undefined) expect((error as Error).message).toMatch(message);
}

/** A fresh client-made message id. */
export function newId(): string {
  return crypto.randomUUID();
}
