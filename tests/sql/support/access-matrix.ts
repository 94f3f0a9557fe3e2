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

/** Entries for the core tables (profiles, likes, matches, messages, account records...). */
export const coreMatrix: MatrixEntry[] = [];

/** Every entry: core and premium. */
export function getAllMatrixEntries(): MatrixEntry[] {
  return [...coreMatrix, ...premiumMatrix];
}
