// The cross-member access matrix as data: one entry per table in schema public, saying for each
// operation which actors succeed. runAccessMatrix (access-matrix-runner.ts) tries every cell, and
// tests/sql/access-matrix.test.ts fails when a table of schema public has no entry.
//
// The world every entry is checked in (built by buildMatrixWorld, as the superuser):
// - owner:    member A, whose rows the entry seeds;
// - match:    member M; A and M liked each other, so they share a match and a conversation;
// - liked_by: member L, who liked A (A has not answered);
// - stranger: member S, unrelated to A;
// - blocked:  member K, who had matched A and was then blocked by A;
// - anon:     no session (role anon);
// - service:  not a cell: the service role bypasses RLS and is used for seeding.
//
// A cell is "allowed" when the statement succeeds and touches the seeded row (select sees it,
// update/delete affect it, insert writes a row). It is "denied" when the statement sees or
// affects nothing or fails with one of deniedCodes (default 42501: RLS or privilege refusal).
// Every cell runs in its own transaction that is rolled back, so cells never influence each other.
import crypto from 'node:crypto';
import type { Queryable } from '../../../server/db/database.ts';
import { premiumMatrix } from './access-matrix-premium.ts';

export type MatrixActor = 'owner' | 'match' | 'liked_by' | 'stranger' | 'blocked' | 'anon';
export type MemberActor = Exclude<MatrixActor, 'anon'>;
export type MatrixOperation = 'select' | 'insert' | 'update' | 'delete';

export const MATRIX_ACTORS: readonly MatrixActor[] = [
  'owner',
  'match',
  'liked_by',
  'stranger',
  'blocked',
  'anon',
];

export interface MatrixWorld {
  /** Member ids by role in the scenario. */
  ids: Record<MemberActor, string>;
  /** The match and conversation of owner and match. */
  matchId: string;
  conversationId: string;
  /** The (hidden since the block) match and conversation of owner and blocked. */
  blockedMatchId: string;
  blockedConversationId: string;
}

/** A row to find again: `where <column> = <value>` must select exactly the seeded row. */
export interface RowRef {
  column: string;
  value: unknown;
}

export interface MatrixEntry {
  /** Table name in schema public. */
  table: string;
  /** Creates (as the superuser, via tx) one row belonging to or concerning the owner. */
  seed: (tx: Queryable, world: MatrixWorld) => Promise<RowRef>;
  /**
   * The row `actor` tries to insert, written as a client of that actor would (their own id where
   * the client puts one, the owner's id or resource where it concerns the owner). Column values
   * are passed as parameters; arrays and objects as JSON-compatible values.
   */
  insert: (world: MatrixWorld, actor: MatrixActor, actorId: string | undefined) => Record<string, unknown>;
  /** The column and value an actor tries to set on the seeded row. */
  update: { column: string; value: (world: MatrixWorld) => unknown };
  /** Actors for whom each operation succeeds; every other actor must be denied. */
  allowed: Record<MatrixOperation, readonly MatrixActor[]>;
  /** SQLSTATEs that count as a denial besides "nothing seen/affected" (default ['42501']). */
  deniedCodes?: readonly string[];
  /** Why the cells are what they are, for a reader of the matrix. */
  note?: string;
}

const members: readonly MatrixActor[] = ['owner', 'match', 'liked_by', 'stranger', 'blocked'];
const nobody: readonly MatrixActor[] = [];
const ownerOnly: readonly MatrixActor[] = ['owner'];

/** Seeds a row with the given columns and returns its id (a uuid primary key named id). */
async function insertReturningId(
  tx: Queryable,
  table: string,
  values: Record<string, unknown>,
): Promise<RowRef> {
  const columns = Object.keys(values);
  const r = await tx.query<{ id: string }>(
    `insert into public."${table}" (${columns.map((c) => `"${c}"`).join(', ')})
     values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning id`,
    columns.map((c) => values[c]),
  );
  return { column: 'id', value: r.rows[0]?.id };
}

/** Entries for the core tables (profiles, likes, matches, messages, account records...). */
export const coreMatrix: MatrixEntry[] = [
  {
    table: 'profiles',
    note: 'Private row: only its owner reads or edits it; rows come from sign-up and leave with the user.',
    seed: async (_tx, w) => ({ column: 'id', value: w.ids.owner }),
    insert: (_w, _a, actorId) => ({ id: actorId ?? crypto.randomUUID() }),
    update: { column: 'bio', value: () => 'changed' },
    allowed: { select: ownerOnly, insert: nobody, update: ownerOnly, delete: nobody },
  },
  {
    table: 'public_profiles',
    note: 'Every member sees it except across a block or report; only triggers write it.',
    seed: async (_tx, w) => ({ column: 'id', value: w.ids.owner }),
    insert: (_w, _a, actorId) => ({ id: actorId ?? crypto.randomUUID(), name: 'Forged' }),
    update: { column: 'bio', value: () => 'changed' },
    allowed: {
      select: ['owner', 'match', 'liked_by', 'stranger'],
      insert: nobody,
      update: nobody,
      delete: nobody,
    },
  },
  {
    table: 'match_preferences',
    seed: async (tx, w) => {
      await tx.query('insert into public.match_preferences (user_id) values ($1)', [w.ids.owner]);
      return { column: 'user_id', value: w.ids.owner };
    },
    insert: (w) => ({ user_id: w.ids.owner, min_age: 25 }),
    update: { column: 'min_age', value: () => 30 },
    allowed: { select: ownerOnly, insert: ownerOnly, update: ownerOnly, delete: ownerOnly },
  },
  {
    table: 'compatibility_questions',
    note: 'Seed content: every member reads it; nobody edits it through the API.',
    seed: async () => ({ column: 'id', value: 1 }),
    insert: () => ({ id: 9999, category: 'x', text: 'x', options: ['a', 'b'] }),
    update: { column: 'text', value: () => 'changed' },
    allowed: { select: members, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'profile_answers',
    seed: (tx, w) =>
      insertReturningId(tx, 'profile_answers', {
        user_id: w.ids.owner,
        question_id: 1,
        answer: 0,
        acceptable_answers: [0, 1],
        importance: 2,
      }),
    insert: (w) => ({
      user_id: w.ids.owner,
      question_id: 2,
      answer: 0,
      acceptable_answers: [0],
      importance: 1,
    }),
    update: { column: 'importance', value: () => 3 },
    allowed: { select: ownerOnly, insert: ownerOnly, update: ownerOnly, delete: ownerOnly },
  },
  {
    table: 'subscriptions',
    note: 'Entitlements: the member reads, only the service role writes.',
    seed: (tx, w) =>
      insertReturningId(tx, 'subscriptions', {
        user_id: w.ids.owner,
        plan_id: 'premium',
        billing_cycle: 'monthly',
        status: 'active',
      }),
    insert: (w) => ({ user_id: w.ids.owner, plan_id: 'elite', billing_cycle: 'monthly', status: 'active' }),
    update: { column: 'plan_id', value: () => 'elite' },
    allowed: { select: ownerOnly, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'user_interactions',
    note: "Owner's like of the stranger: the liker and the liked read it; a like is written only in one's own name.",
    seed: (tx, w) =>
      insertReturningId(tx, 'user_interactions', {
        user_id: w.ids.owner,
        target_id: w.ids.stranger,
        interaction_type: 'like',
      }),
    insert: (w) => ({ user_id: w.ids.owner, target_id: w.ids.stranger, interaction_type: 'like' }),
    update: { column: 'interaction_type', value: () => 'skip' },
    allowed: { select: ['owner', 'stranger'], insert: ownerOnly, update: nobody, delete: nobody },
  },
  {
    table: 'blocked_users',
    note: 'Only the blocker sees or lifts a block; the blocked member is never told.',
    seed: (tx, w) =>
      insertReturningId(tx, 'blocked_users', {
        blocker_id: w.ids.owner,
        blocked_id: w.ids.stranger,
        reason: 'x',
      }),
    insert: (w) => ({ blocker_id: w.ids.owner, blocked_id: w.ids.stranger, reason: 'x' }),
    update: { column: 'reason', value: () => 'changed' },
    allowed: { select: ownerOnly, insert: ownerOnly, update: nobody, delete: ownerOnly },
  },
  {
    table: 'reports',
    note: "Filed in one's own name, read by the reporter, handled by the operator (service role).",
    seed: (tx, w) =>
      insertReturningId(tx, 'reports', {
        reporter_id: w.ids.owner,
        reported_id: w.ids.stranger,
        category: 'spam',
        details: 'x',
      }),
    insert: (w) => ({
      reporter_id: w.ids.owner,
      reported_id: w.ids.stranger,
      category: 'spam',
      details: 'x',
    }),
    update: { column: 'details', value: () => 'changed' },
    allowed: { select: ownerOnly, insert: ownerOnly, update: nobody, delete: nobody },
  },
  {
    table: 'matches',
    note: 'Made only by the mutual-like trigger; either member may unmatch.',
    seed: async (_tx, w) => ({ column: 'id', value: w.matchId }),
    insert: (w) => ({
      user_id_1: [w.ids.owner, w.ids.stranger].sort()[0],
      user_id_2: [w.ids.owner, w.ids.stranger].sort()[1],
    }),
    update: { column: 'created_at', value: () => new Date(0).toISOString() },
    allowed: { select: ['owner', 'match'], insert: nobody, update: nobody, delete: ['owner', 'match'] },
  },
  {
    table: 'conversations',
    seed: async (_tx, w) => ({ column: 'id', value: w.conversationId }),
    insert: (w) => ({
      participant1_id: [w.ids.owner, w.ids.stranger].sort()[0],
      participant2_id: [w.ids.owner, w.ids.stranger].sort()[1],
    }),
    update: { column: 'last_message_at', value: () => new Date(0).toISOString() },
    allowed: { select: ['owner', 'match'], insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'messages',
    note: 'Seed: match wrote to owner. Insert: the actor writes into the owner-match conversation as themselves.',
    seed: (tx, w) =>
      insertReturningId(tx, 'messages', {
        id: crypto.randomUUID(),
        conversation_id: w.conversationId,
        sender_id: w.ids.match,
        recipient_id: w.ids.owner,
        content: 'hello',
      }),
    insert: (w, actor, actorId) => ({
      id: crypto.randomUUID(),
      conversation_id: w.conversationId,
      sender_id: actorId ?? w.ids.match,
      recipient_id: actor === 'owner' ? w.ids.match : w.ids.owner,
      content: 'hi',
    }),
    update: { column: 'status', value: () => 'read' },
    allowed: { select: ['owner', 'match'], insert: ['owner', 'match'], update: ownerOnly, delete: nobody },
  },
  {
    table: 'account_deletion_requests',
    note: 'Written by the delete-account function (service role); cancelled through cancel_account_deletion().',
    seed: (tx, w) => insertReturningId(tx, 'account_deletion_requests', { user_id: w.ids.owner }),
    insert: (w) => ({ user_id: w.ids.owner }),
    update: { column: 'status', value: () => 'cancelled' },
    allowed: { select: ownerOnly, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'notifications',
    note: 'Written by triggers; the owner reads, marks read (read_at only) and deletes.',
    seed: (tx, w) =>
      insertReturningId(tx, 'notifications', { user_id: w.ids.owner, type: 'test', title: 'x' }),
    insert: (w) => ({ user_id: w.ids.owner, type: 'test', title: 'forged' }),
    update: { column: 'read_at', value: () => new Date().toISOString() },
    allowed: { select: ownerOnly, insert: nobody, update: ownerOnly, delete: ownerOnly },
  },
  {
    table: 'security_events',
    note: 'Written through log_security_event(); read by the service role only.',
    seed: (tx, w) => insertReturningId(tx, 'security_events', { user_id: w.ids.owner, event: 'page_visit' }),
    insert: (w) => ({ user_id: w.ids.owner, event: 'forged' }),
    update: { column: 'event', value: () => 'changed' },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'newsletter_subscribers',
    note: 'Written through subscribe_newsletter(); read by the service role only.',
    seed: (tx) =>
      insertReturningId(tx, 'newsletter_subscribers', { email: `n-${crypto.randomUUID()}@example.test` }),
    insert: () => ({ email: 'forged@example.test' }),
    update: { column: 'email', value: () => 'changed@example.test' },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'listed_city_cells',
    note: "The offline city list's grid cells, read by the profile trigger (0114) only; the list itself ships with the app.",
    seed: async (tx) => {
      await tx.query('insert into public.listed_city_cells (lat10, lng10) values (899, 1799)');
      return { column: 'lat10', value: 899 };
    },
    insert: () => ({ lat10: 898, lng10: 1798 }),
    update: { column: 'lng10', value: () => 1797 },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'payment_events',
    note: 'Verified payment events, written by the webhook as the service role (0119); no member reads or writes them.',
    seed: async (tx, w) => {
      await tx.query(
        "insert into public.payment_events (id, provider, type, occurred_at, user_id) values ('evt_matrix', 'stripe', 'invoice.paid', now(), $1)",
        [w.ids.owner],
      );
      return { column: 'id', value: 'evt_matrix' };
    },
    insert: (w) => ({
      id: 'evt_forged',
      provider: 'stripe',
      type: 'invoice.paid',
      occurred_at: '2026-01-01T00:00:00Z',
      user_id: w.ids.owner,
    }),
    update: { column: 'type', value: () => 'changed' },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'subscription_grants',
    note: "The operator's grants and revokes (npm run admin, 0119): an audit no member reads or writes.",
    seed: (tx, w) =>
      insertReturningId(tx, 'subscription_grants', {
        user_id: w.ids.owner,
        email: 'owner@example.test',
        action: 'grant',
        plan_id: 'vip',
        days: 30,
        granted_by: 'matrix',
      }),
    insert: (w) => ({
      user_id: w.ids.owner,
      email: 'x@example.test',
      action: 'grant',
      plan_id: 'vip',
      days: 30,
      granted_by: 'forged',
    }),
    update: { column: 'days', value: () => 365 },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'member_answer_changes',
    note: 'When a member rewrote an answer: written by the answers trigger (0118) to cap rewrites; no one reads it.',
    seed: async (tx, w) => {
      await tx.query('insert into public.member_answer_changes (user_id, question_id) values ($1, 1)', [
        w.ids.owner,
      ]);
      return { column: 'user_id', value: w.ids.owner };
    },
    insert: (w) => ({ user_id: w.ids.owner, question_id: 1 }),
    update: { column: 'question_id', value: () => 2 },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
  {
    table: 'member_location_changes',
    note: 'When a member moved: written by the profile trigger (0114) to cap moves a day; no one reads it.',
    seed: async (tx, w) => {
      await tx.query('insert into public.member_location_changes (user_id) values ($1)', [w.ids.owner]);
      return { column: 'user_id', value: w.ids.owner };
    },
    insert: (w) => ({ user_id: w.ids.owner }),
    update: { column: 'changed_at', value: () => '2000-01-01T00:00:00Z' },
    allowed: { select: nobody, insert: nobody, update: nobody, delete: nobody },
  },
];

/** Every entry: core and premium. */
export function getAllMatrixEntries(): MatrixEntry[] {
  return [...coreMatrix, ...premiumMatrix];
}
