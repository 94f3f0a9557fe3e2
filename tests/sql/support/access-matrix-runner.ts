// Runs the access matrix: builds the world of access-matrix.ts and tries every (table, actor,
// operation) cell in its own rolled-back transaction.
import type { Database, Queryable } from '../../../server/db/database.ts';
import { isDatabaseError } from '../../../server/db/database.ts';
import {
  MATRIX_ACTORS,
  type MatrixActor,
  type MatrixEntry,
  type MatrixOperation,
  type MatrixWorld,
  type MemberActor,
} from './access-matrix.ts';
import { createMember, makeMatch, addInteraction } from './members.ts';

/** Owner, match, liked_by, stranger and blocked, as described at the top of access-matrix.ts. */
export async function buildMatrixWorld(db: Database): Promise<MatrixWorld> {
  const ids: Record<MemberActor, string> = {
    owner: await createMember(db, { name: 'Owner Ada' }),
    match: await createMember(db, { name: 'Match Max' }),
    liked_by: await createMember(db, { name: 'Liker Lou' }),
    stranger: await createMember(db, { name: 'Stranger Sam' }),
    blocked: await createMember(db, { name: 'Blocked Bo' }),
  };
  const { matchId, conversationId } = await makeMatch(db, ids.owner, ids.match);
  await addInteraction(db, ids.liked_by, ids.owner);
  const blocked = await makeMatch(db, ids.owner, ids.blocked);
  await db.query('insert into public.blocked_users (blocker_id, blocked_id, reason) values ($1, $2, $3)', [
    ids.owner,
    ids.blocked,
    'matrix',
  ]);
  return {
    ids,
    matchId,
    conversationId,
    blockedMatchId: blocked.matchId,
    blockedConversationId: blocked.conversationId,
  };
}

class Rollback {
  constructor(readonly allowed: boolean) {}
}

/** Switches the transaction to the actor, the way PostgREST does for a request. */
async function becomeActor(tx: Queryable, actor: MatrixActor, world: MatrixWorld): Promise<void> {
  const claims =
    actor === 'anon'
      ? { role: 'anon' }
      : { role: 'authenticated', sub: world.ids[actor], aud: 'authenticated' };
  await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
    claims.role,
    JSON.stringify(claims),
  ]);
}

async function tryOperation(
  tx: Queryable,
  entry: MatrixEntry,
  op: MatrixOperation,
  actor: MatrixActor,
  world: MatrixWorld,
): Promise<boolean> {
  const t = `public."${entry.table}"`;
  if (op === 'insert') {
    const row = entry.insert(world, actor, actor === 'anon' ? undefined : world.ids[actor]);
    const columns = Object.keys(row);
    await becomeActor(tx, actor, world);
    await tx.query(
      `insert into ${t} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      columns.map((c) => row[c]),
    );
    return true;
  }
  const ref = await entry.seed(tx, world);
  await becomeActor(tx, actor, world);
  const where = `"${ref.column}" = $1`;
  if (op === 'select') {
    const r = await tx.query(`select 1 from ${t} where ${where}`, [ref.value]);
    return r.rows.length > 0;
  }
  if (op === 'update') {
    const r = await tx.query(`update ${t} set "${entry.update.column}" = $2 where ${where} returning 1`, [
      ref.value,
      entry.update.value(world),
    ]);
    return r.rows.length > 0;
  }
  const r = await tx.query(`delete from ${t} where ${where} returning 1`, [ref.value]);
  return r.rows.length > 0;
}

/** Whether the actor succeeds at the operation; denial codes listed by the entry count as "no". */
export async function runCell(
  db: Database,
  entry: MatrixEntry,
  op: MatrixOperation,
  actor: MatrixActor,
  world: MatrixWorld,
): Promise<boolean> {
  const deniedCodes = entry.deniedCodes ?? ['42501'];
  try {
    await db.transaction(async (tx) => {
      throw new Rollback(await tryOperation(tx, entry, op, actor, world));
    });
  } catch (e) {
    if (e instanceof Rollback) return e.allowed;
    if (isDatabaseError(e) && deniedCodes.includes(e.code)) return false;
    throw new Error(
      `${entry.table} ${op} as ${actor}: unexpected error ${isDatabaseError(e) ? e.code : ''} ${(e as Error).message}`,
      { cause: e },
    );
  }
  throw new Error('unreachable');
}

export interface CellResult {
  table: string;
  op: MatrixOperation;
  actor: MatrixActor;
  expected: boolean;
  actual: boolean;
}

/** Runs every cell of the entries and returns the results (compare expected with actual). */
export async function runAccessMatrix(
  db: Database,
  entries: MatrixEntry[],
  world: MatrixWorld,
): Promise<CellResult[]> {
  const results: CellResult[] = [];
  for (const entry of entries) {
    for (const op of ['select', 'insert', 'update', 'delete'] as const) {
      for (const actor of MATRIX_ACTORS) {
        const actual = await runCell(db, entry, op, actor, world);
        results.push({ table: entry.table, op, actor, expected: entry.allowed[op].includes(actor), actual });
      }
    }
  }
  return results;
}
