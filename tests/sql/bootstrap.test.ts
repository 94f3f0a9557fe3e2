import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { asActor, member, anonymous } from '../support/as-role.ts';

describe.each(getDatabaseKinds())('platform bootstrap on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('auth.uid() reads the subject of request.jwt.claims', async () => {
    const id = '11111111-1111-4111-8111-111111111111';
    const rows = await asActor(db, member(id), (tx) =>
      tx.query<{ uid: string; role: string }>('select auth.uid() uid, current_user role'),
    );
    expect(rows.rows[0]).toEqual({ uid: id, role: 'authenticated' });
  });

  it('an anonymous caller has no auth.uid()', async () => {
    const rows = await asActor(db, anonymous, (tx) =>
      tx.query<{ uid: string | null }>('select auth.uid() uid'),
    );
    expect(rows.rows[0]?.uid).toBeNull();
  });

  it('the API roles cannot read auth.users except the service role', async () => {
    await expect(
      asActor(db, member('11111111-1111-4111-8111-111111111111'), (tx) =>
        tx.query('select * from auth.users'),
      ),
    ).rejects.toMatchObject({
      code: '42501',
    });
  });
});
