// The insert cells of the premium access matrix that need a setup first (everyone premium for calls;
// a session for rounds; a round for choices), which the shared runner cannot express. The other cells
// of these tables run in access-matrix.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseError } from '../../server/db/database.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { MATRIX_ACTORS, type MatrixActor, type MatrixWorld } from './support/access-matrix.ts';
import { premiumMatrix, type PremiumMatrixEntry } from './support/access-matrix-premium.ts';
import { buildMatrixWorld } from './support/access-matrix-runner.ts';

class Rollback {
  constructor(readonly allowed: boolean) {}
}

async function tryInsertAfterSetup(
  db: TestDatabase,
  entry: PremiumMatrixEntry,
  actor: MatrixActor,
  world: MatrixWorld,
): Promise<boolean> {
  const setup = entry.insertSetup!;
  const actorId = actor === 'anon' ? undefined : world.ids[actor];
  try {
    await db.transaction(async (tx) => {
      const prepared = await setup.prepare(tx, world);
      const row = setup.row(world, actor, actorId, prepared);
      const columns = Object.keys(row);
      const claims = actorId
        ? { role: 'authenticated', sub: actorId, aud: 'authenticated' }
        : { role: 'anon' };
      await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
        claims.role,
        JSON.stringify(claims),
      ]);
      const r = await tx.query(
        `insert into public."${entry.table}" (${columns.map((c) => `"${c}"`).join(', ')})
         values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning 1`,
        columns.map((c) => row[c]),
      );
      throw new Rollback(r.rows.length === 1);
    });
  } catch (e) {
    if (e instanceof Rollback) return e.allowed;
    if (isDatabaseError(e) && (entry.deniedCodes ?? ['42501']).includes(e.code)) return false;
    throw e;
  }
  throw new Error('unreachable');
}

describe.each(getDatabaseKinds())('premium access matrix inserts after setup on %s', (kind) => {
  let db: TestDatabase;
  let world: MatrixWorld;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    world = await buildMatrixWorld(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const entries = premiumMatrix.filter((e) => e.insertSetup);

  it('covers the tables whose inserts need a setup', () => {
    expect(entries.map((e) => e.table).sort()).toEqual(['game_round_choices', 'game_rounds', 'video_calls']);
  });

  for (const entry of entries) {
    it(`${entry.table}: only ${entry.insertSetup!.allowed.join(' and ')} can insert`, async () => {
      const wrong: string[] = [];
      for (const actor of MATRIX_ACTORS) {
        const expected = entry.insertSetup!.allowed.includes(actor);
        const actual = await tryInsertAfterSetup(db, entry, actor, world);
        if (actual !== expected) wrong.push(`${actor}: expected ${expected ? 'allowed' : 'denied'}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
