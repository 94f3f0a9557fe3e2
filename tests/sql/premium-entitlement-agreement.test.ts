// The browser's mirrors (src/domain/subscription.ts, agent-limits.ts) agree with SQL's
// get_entitlement and the ai_agents plan on generated subscriptions, also from the row as the replica has it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAgentPlan } from '../../src/domain/agent-limits.ts';
import {
  deriveEntitlement,
  deriveReplicaEntitlement,
  type ReplicaSubscriptionRow,
  type SubscriptionRecord,
} from '../../src/domain/subscription.ts';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember } from './support/members.ts';

const HOUR = 3600_000;

const subscriptionArb = fc.record({
  plan_id: fc.constantFrom(
    'basic',
    'premium',
    'connector',
    'connector-plus',
    'vip',
    'vip-annual',
    'elite',
    'free',
  ),
  billing_cycle: fc.constantFrom('free', 'monthly', 'quarterly', 'yearly'),
  status: fc.constantFrom(
    'active',
    'incomplete',
    'incomplete_expired',
    'trialing',
    'past_due',
    'canceled',
    'expired',
  ),
  // Whole hours away from now, so the two clocks never straddle the boundary.
  periodEndHours: fc.option(
    fc.integer({ min: -2000, max: 2000 }).filter((h) => h !== 0),
    { nil: null },
  ),
  stripe_customer_id: fc.option(fc.constant('cus_gen'), { nil: null }),
  stripe_subscription_id: fc.option(fc.constant('sub_gen'), { nil: null }),
});

describe.each(getDatabaseKinds())('entitlement and agent plan in SQL and TypeScript agree on %s', (kind) => {
  let db: TestDatabase;
  let userId: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    userId = await createMember(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('for generated subscriptions, and for none', async () => {
    const none = await asActor(db, member(userId), (tx) =>
      tx.query<{ agent_limit: number; advanced_agents: boolean }>('select * from public.get_my_agent_plan()'),
    );
    expect(getAgentPlan(deriveEntitlement(null))).toEqual({
      agentLimit: none.rows[0]!.agent_limit,
      advancedAgents: none.rows[0]!.advanced_agents,
    });

    await fc.assert(
      fc.asyncProperty(subscriptionArb, async (gen) => {
        const periodEnd =
          gen.periodEndHours === null ? null : new Date(Date.now() + gen.periodEndHours * HOUR).toISOString();
        const record: SubscriptionRecord = {
          plan_id: gen.plan_id,
          billing_cycle: gen.billing_cycle,
          status: gen.status,
          current_period_end: periodEnd,
          stripe_customer_id: gen.stripe_customer_id,
          stripe_subscription_id: gen.stripe_subscription_id,
        };
        await db.query(
          `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end,
             stripe_customer_id, stripe_subscription_id)
           values ($1, $2, $3, $4, $5, $6, $7)
           on conflict (user_id) do update set plan_id = excluded.plan_id, billing_cycle = excluded.billing_cycle,
             status = excluded.status, current_period_end = excluded.current_period_end,
             stripe_customer_id = excluded.stripe_customer_id, stripe_subscription_id = excluded.stripe_subscription_id`,
          [
            userId,
            record.plan_id,
            record.billing_cycle,
            record.status,
            periodEnd,
            record.stripe_customer_id,
            record.stripe_subscription_id,
          ],
        );
        const sql = await asActor(db, member(userId), async (tx) => {
          const e = await tx.query<{
            is_subscribed: boolean;
            tier: string;
            status: string;
            is_free_user: boolean;
            is_premium: boolean;
          }>('select is_subscribed, tier, status, is_free_user, is_premium from public.my_entitlement()');
          const p = await tx.query<{ agent_limit: number; advanced_agents: boolean }>(
            'select agent_limit, advanced_agents from public.get_my_agent_plan()',
          );
          return { entitlement: e.rows[0]!, plan: p.rows[0]! };
        });
        const ts = deriveEntitlement(record);
        expect({
          is_subscribed: ts.isSubscribed,
          tier: ts.tier,
          status: ts.status,
          is_free_user: ts.isFreeUser,
          is_premium: ts.isPremium,
        }).toEqual(sql.entitlement);
        // The row as the member's replica gets it (the synced columns only, no Stripe ids) derives the same.
        const synced = await db.query<ReplicaSubscriptionRow>(
          `select plan_id, billing_cycle, status, current_period_end, has_payment_customer
             from public.subscriptions where user_id = $1`,
          [userId],
        );
        const row = synced.rows[0]!;
        const fromReplica = deriveReplicaEntitlement({
          ...row,
          current_period_end: row.current_period_end && new Date(row.current_period_end).toISOString(),
        });
        expect({
          is_subscribed: fromReplica.isSubscribed,
          tier: fromReplica.tier,
          status: fromReplica.status,
          is_free_user: fromReplica.isFreeUser,
          is_premium: fromReplica.isPremium,
        }).toEqual(sql.entitlement);
        expect(getAgentPlan(ts)).toEqual({
          agentLimit: sql.plan.agent_limit,
          advancedAgents: sql.plan.advanced_agents,
        });
      }),
      { numRuns: 60 },
    );
  });
});
