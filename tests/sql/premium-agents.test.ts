// AI agents and Lovy history in SQL: owner-only access, plan limits per tier, autonomy gating,
// exactly one active agent, and the checks that refuse bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import { anonymous, asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, grantPremium } from './support/members.ts';

interface AgentRow {
  id: string;
  user_id: string;
  name: string;
  is_active: boolean;
  autonomy_level: string;
  communication_style: string;
  humor_style: string;
  auto_match_threshold: number;
  personality_traits: string[];
  interests: string[];
  preferred_topics: string[];
  avoid_topics: string[];
  description: string;
  first_message: string;
  system_prompt: string;
}

async function insertAgent(tx: Queryable, values: Record<string, unknown> = {}): Promise<AgentRow> {
  const columns = Object.keys(values);
  const sql =
    columns.length === 0
      ? 'insert into public.ai_agents default values returning *'
      : `insert into public.ai_agents (${columns.map((c) => `"${c}"`).join(', ')})
         values (${columns.map((_, i) => `$${i + 1}`).join(', ')}) returning *`;
  const r = await tx.query<AgentRow>(
    sql,
    columns.map((c) => values[c]),
  );
  const row = r.rows[0];
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Creates n agents for a member as that member, returning them in creation order. */
async function createAgents(db: TestDatabase, userId: string, n: number): Promise<AgentRow[]> {
  const out: AgentRow[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await asActor(db, member(userId), (tx) => insertAgent(tx, { name: `Agent ${i + 1}` })));
  }
  return out;
}

describe.each(getDatabaseKinds())('AI agents and Lovy on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  describe('defaults and ownership', () => {
    it('a new agent gets the defaults of the spec, inactive, owned by the caller', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'connector');
      const agent = await asActor(db, member(a), (tx) => insertAgent(tx));
      expect(agent).toMatchObject({
        user_id: a,
        name: 'New Agent',
        is_active: false,
        communication_style: 'casual',
        humor_style: 'witty',
        autonomy_level: 'medium',
        auto_match_threshold: 80,
        personality_traits: ['supportive', 'helpful'],
        interests: ['relationships', 'communication'],
        preferred_topics: [],
        avoid_topics: [],
        description: 'Your personal AI dating assistant',
        first_message: "Hi, I'm here to help with your dating journey!",
        system_prompt: 'You are a helpful dating assistant',
      });
    });

    it('members read, update and delete only their own agents', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      const [agent] = await createAgents(db, a, 1);
      const seen = await asActor(db, member(b), (tx) =>
        tx.query('select * from public.ai_agents where id = $1', [agent!.id]),
      );
      expect(seen.rows).toHaveLength(0);
      const updated = await asActor(db, member(b), (tx) =>
        tx.query(`update public.ai_agents set name = 'Hijacked' where id = $1`, [agent!.id]),
      );
      expect(updated.rowCount).toBe(0);
      const deleted = await asActor(db, member(b), (tx) =>
        tx.query('delete from public.ai_agents where id = $1', [agent!.id]),
      );
      expect(deleted.rowCount).toBe(0);
      const still = await db.query<{ name: string }>('select name from public.ai_agents where id = $1', [
        agent!.id,
      ]);
      expect(still.rows[0]?.name).toBe('Agent 1');

      const own = await asActor(db, member(a), (tx) =>
        tx.query(`update public.ai_agents set name = 'Cupid' where id = $1 and user_id = $2`, [agent!.id, a]),
      );
      expect(own.rowCount).toBe(1);
    });

    it('an agent cannot be created in another member’s name or moved to another owner', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      await expectSqlError(
        asActor(db, member(b), (tx) => insertAgent(tx, { user_id: a })),
        '42501',
      );
      const [agent] = await createAgents(db, a, 1);
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query('update public.ai_agents set user_id = $1 where id = $2', [b, agent!.id]),
        ),
        '42501',
      );
    });

    it('anonymous callers can neither read nor create agents', async () => {
      const a = await createMember(db);
      await createAgents(db, a, 1);
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.ai_agents')),
        '42501',
      );
      await expectSqlError(
        asActor(db, anonymous, (tx) => insertAgent(tx, { user_id: a })),
        '42501',
      );
    });
  });

  describe('plan limits', () => {
    const cases: { plan: string | null; limit: number }[] = [
      { plan: null, limit: 1 },
      { plan: 'premium', limit: 1 },
      { plan: 'connector', limit: 2 },
      { plan: 'connector-yearly', limit: 2 },
      { plan: 'vip', limit: 5 },
      { plan: 'elite', limit: 1 },
    ];
    for (const { plan, limit } of cases) {
      it(`a member on ${plan ?? 'no plan'} can create ${limit} agent(s) and no more`, async () => {
        const a = await createMember(db);
        if (plan) await grantPremium(db, a, plan);
        await createAgents(db, a, limit);
        await expectSqlError(
          asActor(db, member(a), (tx) => insertAgent(tx)),
          'P0001',
          /agent_limit_reached/,
        );
        const count = await db.query<{ n: number }>(
          'select count(*)::int n from public.ai_agents where user_id = $1',
          [a],
        );
        expect(count.rows[0]?.n).toBe(limit);
      });
    }

    it('the refusal carries the limit for the client’s message', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'connector');
      await createAgents(db, a, 2);
      const error = await asActor(db, member(a), (tx) => insertAgent(tx)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'P0001', hint: '2' });
    });

    it('a free plan record (billing cycle free) and an expired paid plan count as free', async () => {
      const free = await createMember(db);
      await db.query(
        `insert into public.subscriptions (user_id, plan_id, billing_cycle, status) values ($1, 'vip', 'free', 'active')`,
        [free],
      );
      const expired = await createMember(db);
      await db.query(
        `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
         values ($1, 'vip', 'monthly', 'active', now() - interval '1 day', 'cus_x')`,
        [expired],
      );
      for (const id of [free, expired]) {
        const agent = await asActor(db, member(id), (tx) => insertAgent(tx, { autonomy_level: 'high' }));
        expect(agent.autonomy_level).toBe('low');
        await expectSqlError(
          asActor(db, member(id), (tx) => insertAgent(tx)),
          'P0001',
        );
      }
    });

    it('deleting an agent frees its slot', async () => {
      const a = await createMember(db);
      const [agent] = await createAgents(db, a, 1);
      await asActor(db, member(a), (tx) =>
        tx.query('delete from public.ai_agents where id = $1', [agent!.id]),
      );
      await createAgents(db, a, 1);
    });

    it('get_my_agent_plan tells the caller their limit and count', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'vip');
      await createAgents(db, a, 2);
      const plan = await asActor(db, member(a), (tx) => tx.query('select * from public.get_my_agent_plan()'));
      expect(plan.rows[0]).toEqual({
        is_subscribed: true,
        agent_limit: 5,
        advanced_agents: true,
        agent_count: 2,
      });
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.get_my_agent_plan()')),
        '42501',
      );
    });

    it('the internal plan function is not callable by members', async () => {
      const a = await createMember(db);
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query('select * from public.get_agent_plan_for($1)', [a])),
        '42501',
      );
    });
  });

  describe('autonomy', () => {
    it('a free member’s new agent gets autonomy low, whatever was asked', async () => {
      const a = await createMember(db);
      const agent = await asActor(db, member(a), (tx) => insertAgent(tx, { autonomy_level: 'medium' }));
      expect(agent.autonomy_level).toBe('low');
    });

    it('high autonomy is forced to low on a plan without advanced agents, on insert and update', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'premium');
      const agent = await asActor(db, member(a), (tx) => insertAgent(tx, { autonomy_level: 'high' }));
      expect(agent.autonomy_level).toBe('low');
      const medium = await asActor(db, member(a), (tx) =>
        tx.query<AgentRow>(
          `update public.ai_agents set autonomy_level = 'medium' where id = $1 returning *`,
          [agent.id],
        ),
      );
      expect(medium.rows[0]?.autonomy_level).toBe('medium');
      const high = await asActor(db, member(a), (tx) =>
        tx.query<AgentRow>(`update public.ai_agents set autonomy_level = 'high' where id = $1 returning *`, [
          agent.id,
        ]),
      );
      expect(high.rows[0]?.autonomy_level).toBe('low');
    });

    it('connector and vip members keep high autonomy', async () => {
      for (const plan of ['connector', 'vip']) {
        const a = await createMember(db);
        await grantPremium(db, a, plan);
        const agent = await asActor(db, member(a), (tx) => insertAgent(tx, { autonomy_level: 'high' }));
        expect(agent.autonomy_level).toBe('high');
      }
    });
  });

  describe('active agent', () => {
    it('set_active_agent makes exactly one of the caller’s agents active', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'vip');
      const agents = await createAgents(db, a, 3);
      for (const target of [agents[0]!, agents[2]!, agents[1]!]) {
        const r = await asActor(db, member(a), (tx) =>
          tx.query<AgentRow>('select * from public.set_active_agent($1)', [target.id]),
        );
        expect(r.rows[0]).toMatchObject({ id: target.id, is_active: true });
        const active = await db.query<{ id: string }>(
          'select id from public.ai_agents where user_id = $1 and is_active',
          [a],
        );
        expect(active.rows.map((x) => x.id)).toEqual([target.id]);
      }
    });

    it('set_active_agent refuses another member’s agent and changes nothing', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      const [agent] = await createAgents(db, a, 1);
      await expectSqlError(
        asActor(db, member(b), (tx) => tx.query('select * from public.set_active_agent($1)', [agent!.id])),
        'P0002',
        /agent_not_found/,
      );
      const row = await db.query<{ is_active: boolean }>(
        'select is_active from public.ai_agents where id = $1',
        [agent!.id],
      );
      expect(row.rows[0]?.is_active).toBe(false);
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.set_active_agent($1)', [agent!.id])),
        '42501',
      );
    });

    it('activating an agent by a plain row update deactivates the others', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'connector');
      const [first, second] = await createAgents(db, a, 2);
      await asActor(db, member(a), (tx) => tx.query('select public.set_active_agent($1)', [first!.id]));
      await asActor(db, member(a), (tx) =>
        tx.query('update public.ai_agents set is_active = true where id = $1', [second!.id]),
      );
      const active = await db.query<{ id: string }>(
        'select id from public.ai_agents where user_id = $1 and is_active',
        [a],
      );
      expect(active.rows.map((x) => x.id)).toEqual([second!.id]);
    });

    it('the database allows at most one active agent per member even when written directly', async () => {
      const a = await createMember(db);
      await grantPremium(db, a, 'connector');
      const [first, second] = await createAgents(db, a, 2);
      // The trigger keeps the invariant; with it disabled, the partial unique index still refuses.
      await expectSqlError(
        db.transaction(async (tx) => {
          await tx.exec('alter table public.ai_agents disable trigger ai_agents_keep_one_active');
          await tx.query('update public.ai_agents set is_active = true where id = any($1::uuid[])', [
            [first!.id, second!.id],
          ]);
        }),
        '23505',
      );
    });
  });

  describe('bad input', () => {
    const bad: [string, Record<string, unknown>, string][] = [
      ['autonomy outside low/medium/high', { autonomy_level: 'total' }, '23514'],
      ['a blank name', { name: '   ' }, '23514'],
      ['a name of tabs and newlines', { name: '\t\n' }, '23514'],
      ['a 61-character name', { name: 'x'.repeat(61) }, '23514'],
      ['a threshold above 100', { auto_match_threshold: 101 }, '23514'],
      ['a negative threshold', { auto_match_threshold: -1 }, '23514'],
      ['a 4001-character system prompt', { system_prompt: 'x'.repeat(4001) }, '23514'],
      [
        '21 personality traits',
        { personality_traits: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        '23514',
      ],
      ['an empty interest', { interests: [''] }, '23514'],
      ['a 61-character avoided topic', { avoid_topics: ['x'.repeat(61)] }, '23514'],
      ['a threshold that is not a number', { auto_match_threshold: 'eighty' }, '22P02'],
    ];
    for (const [what, values, code] of bad) {
      it(`refuses ${what} with ${code}`, async () => {
        const a = await createMember(db);
        await expectSqlError(
          asActor(db, member(a), (tx) => insertAgent(tx, values)),
          code,
        );
        const count = await db.query<{ n: number }>(
          'select count(*)::int n from public.ai_agents where user_id = $1',
          [a],
        );
        expect(count.rows[0]?.n).toBe(0);
      });
    }
  });

  describe.runIf(kind === 'postgres')('concurrency', () => {
    it('concurrent agent inserts cannot exceed the plan limit', async () => {
      const a = await createMember(db);
      const results = await Promise.allSettled(
        Array.from({ length: 4 }, () =>
          asActor(db, member(a), (tx) => tx.query('insert into public.ai_agents default values')),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const count = await db.query<{ n: number }>(
        'select count(*)::int n from public.ai_agents where user_id = $1',
        [a],
      );
      expect(count.rows[0]?.n).toBe(1);
    });
  });

  describe('Lovy history', () => {
    it('a member writes and reads only their own user messages', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      const [agent] = await createAgents(db, a, 1);
      await asActor(db, member(a), (tx) =>
        tx.query(
          `insert into public.lovy_messages (agent_id, role, content) values ($1, 'user', 'How do I start?')`,
          [agent!.id],
        ),
      );
      const own = await asActor(db, member(a), (tx) =>
        tx.query('select user_id, role from public.lovy_messages'),
      );
      expect(own.rows).toEqual([{ user_id: a, role: 'user' }]);
      const other = await asActor(db, member(b), (tx) => tx.query('select * from public.lovy_messages'));
      expect(other.rows).toHaveLength(0);
    });

    it('members cannot write assistant replies or into someone else’s history; the service role can', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(`insert into public.lovy_messages (role, content) values ('assistant', 'I am Lovy')`),
        ),
        '42501',
      );
      await expectSqlError(
        asActor(db, member(b), (tx) =>
          tx.query(`insert into public.lovy_messages (user_id, role, content) values ($1, 'user', 'hi')`, [
            a,
          ]),
        ),
        '42501',
      );
      await asActor(db, serviceRole, (tx) =>
        tx.query(
          `insert into public.lovy_messages (user_id, role, content) values ($1, 'assistant', 'Hello!')`,
          [a],
        ),
      );
      const rows = await asActor(db, member(a), (tx) =>
        tx.query('select role, content from public.lovy_messages'),
      );
      expect(rows.rows).toEqual([{ role: 'assistant', content: 'Hello!' }]);
    });

    it('a message cannot name another member’s agent, even from the service role', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      const [agentOfB] = await createAgents(db, b, 1);
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(`insert into public.lovy_messages (agent_id, role, content) values ($1, 'user', 'hi')`, [
            agentOfB!.id,
          ]),
        ),
        '23503',
      );
      await expectSqlError(
        asActor(db, serviceRole, (tx) =>
          tx.query(
            `insert into public.lovy_messages (user_id, agent_id, role, content) values ($1, $2, 'assistant', 'x')`,
            [a, agentOfB!.id],
          ),
        ),
        '23503',
      );
    });

    it('history cannot be edited, but the owner can clear it', async () => {
      const a = await createMember(db);
      await asActor(db, member(a), (tx) =>
        tx.query(`insert into public.lovy_messages (role, content) values ('user', 'first')`),
      );
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query(`update public.lovy_messages set content = 'changed'`)),
        '42501',
      );
      const cleared = await asActor(db, member(a), (tx) => tx.query('delete from public.lovy_messages'));
      expect(cleared.rowCount).toBe(1);
    });

    it('refuses blank or oversized messages and unknown roles', async () => {
      const a = await createMember(db);
      for (const [role, content, code] of [
        ['user', '   ', '23514'],
        ['user', ' \n\t\r ', '23514'],
        ['user', 'x'.repeat(8001), '23514'],
        ['system', 'hi', '23514'],
      ] as const) {
        await expectSqlError(
          asActor(db, serviceRole, (tx) =>
            tx.query('insert into public.lovy_messages (user_id, role, content) values ($1, $2, $3)', [
              a,
              role,
              content,
            ]),
          ),
          code,
        );
      }
    });

    it('deleting an agent keeps the history with the agent cleared', async () => {
      const a = await createMember(db);
      const [agent] = await createAgents(db, a, 1);
      await asActor(db, member(a), (tx) =>
        tx.query(`insert into public.lovy_messages (agent_id, role, content) values ($1, 'user', 'hello')`, [
          agent!.id,
        ]),
      );
      await asActor(db, member(a), (tx) =>
        tx.query('delete from public.ai_agents where id = $1', [agent!.id]),
      );
      const rows = await db.query('select agent_id from public.lovy_messages where user_id = $1', [a]);
      expect(rows.rows).toEqual([{ agent_id: null }]);
    });
  });
});
