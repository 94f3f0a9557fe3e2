// The Wingman in SQL (issue 17, 0123): the job likes for a high-autonomy agent only what its member could like
// (the deck's rules, the threshold, the caps) and writes the agent's first message, marked as AI-written, only
// where its member could write; a pause, a lapsed plan, a block or the recipient's opt-out stops it. Members read
// their log and undo an unmatched like; they cannot write the log, run the job or raise the caps past the hard caps.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, grantPremium, makeMatch } from './support/members.ts';

describe.each(getDatabaseKinds())('the Wingman on %s', (kind) => {
  let db: TestDatabase;
  let place = 0;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  // Each test's members live in their own town (decks limited to 10 km), and earlier tests' agents are
  // switched off, so one test's people never appear in another's deck or run.
  beforeEach(async () => {
    place += 1;
    await db.query('update public.ai_agents set is_active = false');
  });

  const town = () => ({ location_lat: -60 + place * 3, location_lng: 10, city: `Town ${place}` });
  const person = (name: string, gender: 'woman' | 'man', seeking: 'woman' | 'man') =>
    createMember(db, {
      profile: { name, gender, birthday: '1992-05-05', looking_for: [seeking], ...town() },
      preferences: { genders: [seeking], min_age: 18, max_age: 99, max_distance_band: '5-10 km' },
    });
  /** A Connector member (advanced agents) with an active high-autonomy agent. */
  const withAgent = async (threshold = 0) => {
    const id = await person('Ada', 'woman', 'man');
    await grantPremium(db, id, 'connector');
    const r = await asActor(db, member(id), (tx) =>
      tx.query<{ id: string; autonomy_level: string; autonomy_since: string | null }>(
        `insert into public.ai_agents (name, autonomy_level, auto_match_threshold, is_active, first_message)
         values ('Cupid', 'high', $1, true, 'Hi! I noticed we both love hiking.')
         returning id, autonomy_level, autonomy_since`,
        [threshold],
      ),
    );
    expect(r.rows[0]).toMatchObject({ autonomy_level: 'high' });
    expect(r.rows[0]!.autonomy_since).not.toBeNull();
    return { id, agentId: r.rows[0]!.id };
  };
  const run = () =>
    asActor(db, serviceRole, async (tx) => {
      const r = await tx.query<{ n: number }>('select app_private.run_wingman(100) as n');
      // The job hands the transaction back as it found it: its role and claims.
      const after = await tx.query<{ role: string; sub: string | null }>(
        `select current_user as role, auth.uid()::text as sub`,
      );
      expect(after.rows[0]).toEqual({ role: 'service_role', sub: null });
      return Number(r.rows[0]!.n);
    });
  const likesBy = async (id: string) =>
    (
      await db.query<{ target_id: string }>(
        `select target_id from public.user_interactions where user_id = $1 and interaction_type = 'like'
         order by target_id`,
        [id],
      )
    ).rows.map((r) => r.target_id);
  const activity = async (id: string) =>
    (
      await asActor(db, member(id), (tx) =>
        tx.query<{ id: string; kind: string; target_id: string; reason: string; status: string }>(
          'select id, kind, target_id, reason, status from public.agent_activity order by created_at, kind',
        ),
      )
    ).rows;

  it('likes the deck at or above the threshold, logs why, and writes its first message marked as AI on the match', async () => {
    const { id: ada } = await withAgent(0);
    const ben = await person('Ben', 'man', 'woman');
    const cal = await person('Cal', 'man', 'woman');
    const far = await createMember(db, {
      profile: {
        name: 'Far',
        gender: 'man',
        birthday: '1992-05-05',
        looking_for: ['woman'],
        location_lat: 80,
        location_lng: 10,
      },
    });
    expect(await run()).toBeGreaterThanOrEqual(2);
    expect(await likesBy(ada)).toEqual([ben, cal].sort());
    expect(await likesBy(ada)).not.toContain(far);
    const log = await activity(ada);
    expect(log.map((a) => a.kind)).toEqual(['like', 'like']);
    expect(log[0]!.reason).toMatch(/^\d+% compatible, at or above your threshold of 0%$/);
    // Nothing more to like, no match yet: a second pass does nothing for her.
    await run();
    expect(await activity(ada)).toHaveLength(2);

    // Ben likes her back: the match trigger makes the match, and the next pass writes the first message.
    await asActor(db, member(ben), (tx) =>
      tx.query(
        `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
        [ben, ada],
      ),
    );
    await run();
    const seen = await asActor(db, member(ben), (tx) =>
      tx.query<{ sender_id: string; content: string; metadata: { ai?: Record<string, unknown> } }>(
        'select sender_id, content, metadata from public.messages',
      ),
    );
    expect(seen.rows).toEqual([
      {
        sender_id: ada,
        content: 'Hi! I noticed we both love hiking.',
        metadata: {
          ai: { generated: true, by: 'agent', agent_name: 'Cupid', disclosure: 'written with AI help' },
        },
      },
    ]);
    expect((await activity(ada)).map((a) => a.kind)).toEqual(['like', 'like', 'message']);
    // Once written, never again on that match.
    await run();
    expect((await db.query('select 1 from public.messages where sender_id = $1', [ada])).rows).toHaveLength(
      1,
    );
  });

  it('serves every autonomous member in turn when a pass serves fewer than there are', async () => {
    // Three members' agents, each with Ben alone in her deck; a pass serves one member.
    const ada = (await withAgent(0)).id;
    const bea = (await withAgent(0)).id;
    const cat = (await withAgent(0)).id;
    const ben = await person('Ben', 'man', 'woman');
    const runOne = () => asActor(db, serviceRole, (tx) => tx.query('select app_private.run_wingman(1) as n'));
    const served = async () => {
      const liked = await db.query<{ user_id: string }>(
        `select user_id from public.user_interactions where target_id = $1 and interaction_type = 'like'`,
        [ben],
      );
      return liked.rows.map((r) => r.user_id).sort();
    };
    // Wherever the last pass stopped, three passes of one reach three different members (the first
    // one by member id, again and again, before 0136).
    await runOne();
    expect(await served()).toHaveLength(1);
    await runOne();
    expect(await served()).toHaveLength(2);
    await runOne();
    expect(await served()).toEqual([ada, bea, cat].sort());
  });

  it('stays under the threshold, the member’s cap and the hard cap', async () => {
    const { id: ada } = await withAgent(100);
    await person('Ben', 'man', 'woman');
    await run();
    expect(await likesBy(ada)).toEqual([]);

    await db.query('update public.ai_agents set auto_match_threshold = 0 where user_id = $1', [ada]);
    await person('Cal', 'man', 'woman');
    await person('Dan', 'man', 'woman');
    await asActor(db, member(ada), (tx) =>
      tx.query('insert into public.wingman_settings (daily_like_cap) values (1)'),
    );
    await run();
    expect(await likesBy(ada)).toHaveLength(1);
    await run();
    expect(await likesBy(ada)).toHaveLength(1);
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('update public.wingman_settings set daily_like_cap = 26')),
      '23514',
    );
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('update public.wingman_settings set daily_message_cap = 11')),
      '23514',
    );
  });

  it('does nothing while paused, for a paused account, on a lapsed plan or below high autonomy', async () => {
    const { id: ada } = await withAgent(0);
    await person('Ben', 'man', 'woman');
    await asActor(db, member(ada), (tx) =>
      tx.query('insert into public.wingman_settings (paused) values (true)'),
    );
    await run();
    expect(await likesBy(ada)).toEqual([]);
    await asActor(db, member(ada), (tx) => tx.query('update public.wingman_settings set paused = false'));

    await db.query('update public.profiles set is_paused = true where id = $1', [ada]);
    await run();
    expect(await likesBy(ada)).toEqual([]);
    await db.query('update public.profiles set is_paused = false where id = $1', [ada]);

    // The plan lapses; the agent row still says high (as a lapse by time leaves it): the job stops anyway.
    await db.query(
      `update public.subscriptions set current_period_end = now() - interval '1 day' where user_id = $1`,
      [ada],
    );
    await run();
    expect(await likesBy(ada)).toEqual([]);
    expect(
      (
        await db.query<{ a: string }>('select autonomy_level a from public.ai_agents where user_id = $1', [
          ada,
        ])
      ).rows[0]!.a,
    ).toBe('high');

    // Medium autonomy on a paid plan: suggestions and drafts only, never a like.
    await grantPremium(db, ada, 'connector');
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'medium'`));
    await run();
    expect(await likesBy(ada)).toEqual([]);
    // Back to high: it acts again.
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'high'`));
    await run();
    expect(await likesBy(ada)).toHaveLength(1);
  });

  it('never reaches a member across a block or a report, nor writes to one who declined agents’ messages', async () => {
    const { id: ada } = await withAgent(0);
    const ben = await person('Ben', 'man', 'woman');
    const cal = await person('Cal', 'man', 'woman');
    await asActor(db, member(ben), (tx) =>
      tx.query(`insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)`, [ben, ada]),
    );
    await asActor(db, member(cal), (tx) =>
      tx.query(`insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'spam')`, [
        cal,
        ada,
      ]),
    );
    await run();
    expect(await likesBy(ada)).toEqual([]);

    // A match made since high autonomy began, with a member who declined agents' first messages.
    const dan = await person('Dan', 'man', 'woman');
    await asActor(db, member(dan), (tx) =>
      tx.query('insert into public.wingman_settings (accept_agent_messages) values (false)'),
    );
    await makeMatch(db, ada, dan);
    await run();
    expect((await db.query('select 1 from public.messages where sender_id = $1', [ada])).rows).toEqual([]);
    expect(await activity(ada)).toEqual([]);
  });

  it('the member undoes a like that made no match; not one that did, nor a message', async () => {
    const { id: ada } = await withAgent(0);
    const ben = await person('Ben', 'man', 'woman');
    const cal = await person('Cal', 'man', 'woman');
    await run();
    const log = await activity(ada);
    const likeOf = (who: string) => log.find((a) => a.kind === 'like' && a.target_id === who)!;
    await asActor(db, member(cal), (tx) =>
      tx.query(
        `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
        [cal, ada],
      ),
    );
    await asActor(db, member(ada), (tx) => tx.query('select public.undo_agent_action($1)', [likeOf(ben).id]));
    expect(await likesBy(ada)).toEqual([cal]);
    expect((await activity(ada)).find((a) => a.id === likeOf(ben).id)!.status).toBe('undone');
    // The agent never likes Ben again: the member's undo stands.
    await run();
    expect(await likesBy(ada)).toEqual([cal]);
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('select public.undo_agent_action($1)', [likeOf(cal).id])),
      'P0001',
      'agent_action_not_undoable',
    );
    // Someone else's log entry is not found for her.
    await expectSqlError(
      asActor(db, member(ben), (tx) => tx.query('select public.undo_agent_action($1)', [likeOf(cal).id])),
      'P0002',
    );
  });

  it('at medium autonomy drafts the first message of a new match for the member, and sends nothing', async () => {
    const { id: ada } = await withAgent(0);
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'medium'`));
    const ben = await person('Ben', 'man', 'woman');
    const cal = await person('Cal', 'man', 'woman');
    await run();
    expect(await likesBy(ada)).toEqual([]);
    const { conversationId } = await makeMatch(db, ada, ben);
    await makeMatch(db, ada, cal);
    // Cal blocks her: no draft for that conversation.
    await asActor(db, member(cal), (tx) =>
      tx.query(`insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)`, [cal, ada]),
    );
    await run();
    await run();
    const drafts = await asActor(db, member(ada), (tx) =>
      tx.query<{
        id: string;
        conversation_id: string;
        recipient_id: string;
        content: string;
        status: string;
      }>('select id, conversation_id, recipient_id, content, status from public.agent_drafts'),
    );
    expect(drafts.rows).toEqual([
      {
        id: expect.any(String) as unknown,
        conversation_id: conversationId,
        recipient_id: ben,
        content: 'Hi! I noticed we both love hiking.',
        status: 'pending',
      },
    ]);
    expect((await db.query('select 1 from public.messages where sender_id = $1', [ada])).rows).toEqual([]);
    // Her log says so, once.
    expect((await activity(ada)).map((a) => [a.kind, a.target_id])).toEqual([['draft', ben]]);
    // Ben never sees her drafts; she moves only the status, once.
    expect(
      (await asActor(db, member(ben), (tx) => tx.query('select id from public.agent_drafts'))).rows,
    ).toEqual([]);
    const draftId = drafts.rows[0]!.id;
    await expectSqlError(
      asActor(db, member(ada), (tx) =>
        tx.query(`update public.agent_drafts set content = 'changed' where id = $1`, [draftId]),
      ),
      '42501',
    );
    await asActor(db, member(ada), (tx) =>
      tx.query(`update public.agent_drafts set status = 'discarded' where id = $1`, [draftId]),
    );
    const again = await asActor(db, member(ada), (tx) =>
      tx.query(`update public.agent_drafts set status = 'pending' where id = $1`, [draftId]),
    );
    expect(again.rowCount).toBe(0);
    // A lapsed plan stops drafting.
    await db.query(
      `update public.subscriptions set current_period_end = now() - interval '1 day' where user_id = $1`,
      [ada],
    );
    const dan = await person('Dan', 'man', 'woman');
    await makeMatch(db, ada, dan);
    await run();
    expect((await db.query('select 1 from public.agent_drafts where recipient_id = $1', [dan])).rows).toEqual(
      [],
    );
  });

  it('a reply draft is claimed only for a conversation waiting on a medium member, once per message', async () => {
    const { id: ada, agentId } = await withAgent(0);
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'medium'`));
    const ben = await person('Ben', 'man', 'woman');
    const { conversationId } = await makeMatch(db, ada, ben);
    const claim = () =>
      asActor(db, serviceRole, (tx) =>
        tx.query<{ reply_to: string; other_id: string; agent_id: string; usage_id: string }>(
          `select * from public.claim_wingman_reply($1, $2, 'coach', null)`,
          [conversationId, ada],
        ),
      );
    const store = (answered: string, text: string) =>
      asActor(db, serviceRole, (tx) =>
        tx.query<{ ok: boolean }>('select public.store_wingman_reply($1, $2, $3, $4, $5, $6) as ok', [
          ada,
          conversationId,
          answered,
          agentId,
          ben,
          text,
        ]),
      );
    const say = async (from: string, to: string, content: string) =>
      (
        await db.query<{ id: string }>(
          `insert into public.messages (conversation_id, sender_id, recipient_id, content, created_at)
           values ($1, $2, $3, $4, clock_timestamp()) returning id`,
          [conversationId, from, to, content],
        )
      ).rows[0]!.id;
    // Members may not claim or store drafts themselves.
    await expectSqlError(
      asActor(db, member(ada), (tx) =>
        tx.query(`select * from public.claim_wingman_reply($1, $2, 'coach', null)`, [conversationId, ada]),
      ),
      '42501',
    );
    // An empty conversation (the first message is run_wingman's) and one where she wrote last are not waiting.
    await expect(claim()).rejects.toThrow('wingman_reply_not_waiting');
    const first = await say(ben, ada, 'Hello Ada!');
    const claimed = await claim();
    expect(claimed.rows[0]).toMatchObject({ reply_to: first, other_id: ben, agent_id: agentId });
    expect((await store(first, 'Hi Ben!')).rows[0]!.ok).toBe(true);
    // One per message, and none while one waits.
    await expect(claim()).rejects.toThrow('wingman_reply_drafted');
    expect((await store(first, 'Another')).rows[0]!.ok).toBe(false);
    await db.query(`update public.agent_drafts set status = 'sent' where user_id = $1`, [ada]);
    await say(ada, ben, 'Hi Ben!');
    await expect(claim()).rejects.toThrow('wingman_reply_not_waiting');
    // A message she answered while the draft was being written is not drafted after the fact.
    const second = await say(ben, ada, 'How was your day?');
    await claim();
    await say(ada, ben, 'Great, thanks!');
    expect((await store(second, 'Late draft')).rows[0]!.ok).toBe(false);
    // Low autonomy, a pause or a block: no claim.
    await say(ben, ada, 'Climbing on Sunday?');
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'low'`));
    await expect(claim()).rejects.toThrow('wingman_reply_not_allowed');
    await asActor(db, member(ada), (tx) => tx.query(`update public.ai_agents set autonomy_level = 'medium'`));
    await asActor(db, member(ben), (tx) =>
      tx.query(`insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)`, [ben, ada]),
    );
    await expect(claim()).rejects.toThrow('wingman_reply_not_found');
    // The first-message drafts of run_wingman still come once per conversation beside reply drafts.
    const drafts = await db.query<{ reply_to: string | null }>(
      'select reply_to from public.agent_drafts where user_id = $1 order by created_at',
      [ada],
    );
    expect(drafts.rows).toEqual([{ reply_to: first }]);
  });

  it('feedback is the member’s own, once per draft or starter', async () => {
    const { id: ada } = await withAgent(0);
    const ben = await person('Ben', 'man', 'woman');
    const thumbs = (who: string, ref: string, rating: string) =>
      asActor(db, member(who), (tx) =>
        tx.query(
          `insert into public.agent_feedback (subject, subject_ref, rating) values ('starter', $1, $2)`,
          [ref, rating],
        ),
      );
    await thumbs(ada, 'hiking', 'down');
    await expectSqlError(thumbs(ada, 'hiking', 'up'), '23505');
    await expectSqlError(thumbs(ada, 'jazz', 'meh'), '23514');
    await thumbs(ben, 'hiking', 'up');
    const mine = await asActor(db, member(ada), (tx) =>
      tx.query('select subject_ref, rating from public.agent_feedback'),
    );
    expect(mine.rows).toEqual([{ subject_ref: 'hiking', rating: 'down' }]);
  });

  it('members cannot write the log, run the job or read another member’s settings', async () => {
    const { id: ada } = await withAgent(0);
    const ben = await person('Ben', 'man', 'woman');
    await expectSqlError(
      asActor(db, member(ada), (tx) =>
        tx.query(`insert into public.agent_activity (user_id, kind, reason) values ($1, 'like', 'x')`, [ada]),
      ),
      '42501',
    );
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('select app_private.run_wingman(1)')),
      '42501',
    );
    await asActor(db, member(ben), (tx) =>
      tx.query('insert into public.wingman_settings (paused) values (true)'),
    );
    const read = await asActor(db, member(ada), (tx) => tx.query('select * from public.wingman_settings'));
    expect(read.rows).toEqual([]);
    await expectSqlError(
      asActor(db, member(ada), (tx) =>
        tx.query('insert into public.wingman_settings (id) values ($1)', [ben]),
      ),
      '42501',
    );
  });
});
