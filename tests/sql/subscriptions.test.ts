import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';

interface Entitlement {
  is_subscribed: boolean;
  tier: string;
  status: string;
  expiry_date: Date | null;
  billing_cycle: string | null;
  is_free_user: boolean;
  is_premium: boolean;
}

describe.each(getDatabaseKinds())('subscriptions and entitlements on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  async function entitlementFor(row: Record<string, unknown> | null): Promise<Entitlement> {
    const id = await createMember(db);
    if (row) {
      const columns = Object.keys(row);
      await db.query(
        `insert into public.subscriptions (user_id, ${columns.join(', ')}) values ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})`,
        [id, ...columns.map((c) => row[c])],
      );
    }
    const r = await asActor(db, member(id), (tx) =>
      tx.query<Entitlement>('select * from public.my_entitlement()'),
    );
    const premium = await asActor(db, member(id), (tx) =>
      tx.query<{ p: boolean }>('select public.is_premium($1) p', [id]),
    );
    const e = r.rows[0];
    if (!e) throw new Error('no entitlement row');
    expect(premium.rows[0]?.p).toBe(e.is_premium);
    return e;
  }

  const future = () => new Date(Date.now() + 86_400_000 * 10).toISOString();
  const past = () => new Date(Date.now() - 86_400_000).toISOString();

  it('no record: not subscribed, free tier', async () => {
    expect(await entitlementFor(null)).toMatchObject({
      is_subscribed: false,
      tier: 'free',
      status: 'none',
      is_free_user: true,
      is_premium: false,
    });
  });

  it('active or incomplete paid plans count as subscribed and premium', async () => {
    for (const status of ['active', 'incomplete']) {
      expect(
        await entitlementFor({
          plan_id: 'premium',
          billing_cycle: 'monthly',
          status,
          current_period_end: future(),
          stripe_customer_id: 'cus_1',
        }),
      ).toMatchObject({
        is_subscribed: true,
        tier: 'premium',
        status,
        is_premium: true,
        is_free_user: false,
      });
    }
  });

  it('other statuses do not count', async () => {
    for (const status of ['canceled', 'past_due', 'unpaid', 'trialing']) {
      expect(
        await entitlementFor({
          plan_id: 'premium',
          billing_cycle: 'monthly',
          status,
          stripe_customer_id: 'cus_1',
        }),
      ).toMatchObject({ is_subscribed: false, is_premium: false });
    }
  });

  it('a paid plan past its period end is expired', async () => {
    expect(
      await entitlementFor({
        plan_id: 'vip',
        billing_cycle: 'monthly',
        status: 'active',
        current_period_end: past(),
        stripe_customer_id: 'cus_1',
      }),
    ).toMatchObject({ is_subscribed: false, status: 'expired', tier: 'vip', is_premium: false });
  });

  it('elite is the enterprise tier', async () => {
    expect(
      await entitlementFor({
        plan_id: 'elite',
        billing_cycle: 'yearly',
        status: 'active',
        stripe_customer_id: 'cus_1',
      }),
    ).toMatchObject({ tier: 'enterprise', is_premium: true });
  });

  it('free plans are forced active but never premium', async () => {
    expect(
      await entitlementFor({
        plan_id: 'anything',
        billing_cycle: 'free',
        status: 'canceled',
        current_period_end: past(),
      }),
    ).toMatchObject({
      is_subscribed: true,
      status: 'active',
      tier: 'free',
      is_free_user: true,
      is_premium: false,
    });
    expect(
      await entitlementFor({ plan_id: 'basic', billing_cycle: 'monthly', status: 'active' }),
    ).toMatchObject({
      tier: 'free',
      is_free_user: true,
      is_premium: false,
    });
  });

  it('a member can read but never write their subscription, tier or premium flag by any path', async () => {
    const id = await createMember(db);
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status) values ($1, 'basic', 'free', 'active')`,
      [id],
    );
    const attempts = [
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status) values ('${id}', 'elite', 'monthly', 'active')`,
      `update public.subscriptions set plan_id = 'elite', billing_cycle = 'monthly', stripe_customer_id = 'cus_x' where user_id = '${id}'`,
      `delete from public.subscriptions where user_id = '${id}'`,
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status) values ('${id}', 'elite', 'monthly', 'active')
       on conflict (user_id) do update set plan_id = 'elite'`,
    ];
    for (const sql of attempts) {
      await expectSqlError(
        asActor(db, member(id), (tx) => tx.query(sql)),
        '42501',
      );
    }
    const own = await asActor(db, member(id), (tx) =>
      tx.query<{ plan_id: string }>('select plan_id from public.subscriptions'),
    );
    expect(own.rows).toEqual([{ plan_id: 'basic' }]);
    const premium = await asActor(db, member(id), (tx) =>
      tx.query<{ p: boolean }>('select public.is_premium($1) p', [id]),
    );
    expect(premium.rows[0]?.p).toBe(false);
  });

  it('a member asking about someone else learns nothing; the service role sees the truth', async () => {
    const paying = await createMember(db);
    const other = await createMember(db);
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, stripe_customer_id) values ($1, 'vip', 'monthly', 'active', 'cus_secret')`,
      [paying],
    );
    const asOther = await asActor(db, member(other), (tx) =>
      tx.query<Entitlement & { stripe_customer_id: string | null }>(
        'select * from public.get_entitlement($1)',
        [paying],
      ),
    );
    expect(asOther.rows[0]).toMatchObject({ is_premium: false, stripe_customer_id: null });
    const asService = await asActor(db, serviceRole, (tx) =>
      tx.query<{ p: boolean }>('select public.is_premium($1) p', [paying]),
    );
    expect(asService.rows[0]?.p).toBe(true);
    await expectSqlError(
      asActor(db, anonymous, (tx) => tx.query('select public.is_premium($1)', [paying])),
      '42501',
    );
  });

  it('the service role writes subscriptions; bad values are refused with 23514', async () => {
    const id = await createMember(db);
    await asActor(db, serviceRole, (tx) =>
      tx.query(
        `insert into public.subscriptions (user_id, plan_id, billing_cycle, status) values ($1, 'premium', 'monthly', 'active')`,
        [id],
      ),
    );
    for (const [column, value] of [
      ['status', 'gold'],
      ['billing_cycle', 'weekly'],
      ['plan_id', 'Bad Plan!'],
    ] as const) {
      await expectSqlError(
        asActor(db, serviceRole, (tx) =>
          tx.query(`update public.subscriptions set ${column} = $2 where user_id = $1`, [id, value]),
        ),
        '23514',
      );
    }
  });
});
