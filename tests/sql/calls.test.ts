// Calls beyond the state machine (issue 18, 0124): every step leaves its message in the pair's thread, with the
// spec's type and metadata, written by the member who took the step; an unmatch, a block, a report or a plan
// that lapsed ends a ringing or active call and refuses an answer; the scheduler misses a call after 30 s and
// ends calls nobody keeps alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, grantPremium, makeMatch } from './support/members.ts';

interface StepRow {
  type: string;
  sender_id: string;
  recipient_id: string;
  content: string;
  metadata: Record<string, unknown>;
}

describe.each(getDatabaseKinds())('call rules on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  async function createPair() {
    const a = await createMember(db, { name: 'Alex' });
    const m = await createMember(db, { name: 'Morgan' });
    const { conversationId, matchId } = await makeMatch(db, a, m);
    await grantPremium(db, a);
    await grantPremium(db, m);
    await db.query(`update public.profiles set photos = '{a/1.jpg}' where id = $1`, [a]);
    return { a, m, conversationId, matchId };
  }

  async function startCall(a: string, m: string, type = 'video'): Promise<string> {
    const r = await asActor(db, member(a), (tx) =>
      tx.query<{ id: string }>(
        `insert into public.video_calls (caller_id, recipient_id, call_type, provider)
         values ($1, $2, $3, 'webrtc') returning id`,
        [a, m, type],
      ),
    );
    return r.rows[0]!.id;
  }

  const setStatus = (actor: string, id: string, status: string) =>
    asActor(db, member(actor), (tx) =>
      tx.query('update public.video_calls set status = $2 where id = $1', [id, status]),
    );

  async function steps(conversationId: string): Promise<StepRow[]> {
    const r = await db.query<StepRow>(
      `select type, sender_id, recipient_id, content, metadata from public.messages
        where conversation_id = $1 order by created_at, type`,
      [conversationId],
    );
    return r.rows;
  }

  const statusOf = async (id: string) =>
    (await db.query<{ status: string }>('select status from public.video_calls where id = $1', [id])).rows[0]
      ?.status;

  describe('call messages', () => {
    it('ring, answer and end are written by who took each step, with the spec metadata', async () => {
      const { a, m, conversationId } = await createPair();
      const id = await startCall(a, m);
      await setStatus(m, id, 'active');
      await db.query(
        `update public.video_calls set answered_at = now() - interval '245 seconds' where id = $1`,
        [id],
      );
      await setStatus(m, id, 'ended');
      const rows = await steps(conversationId);
      expect(rows.map((r) => [r.type, r.sender_id])).toEqual([
        ['video_call_ring', a],
        ['video_call_answer', m],
        ['video_call_end', m],
      ]);
      expect(rows[0]!.metadata).toEqual({
        callId: id,
        callType: 'video',
        callerId: a,
        callerName: 'Alex',
        callerPhoto: 'a/1.jpg',
      });
      expect(rows[2]!.metadata).toMatchObject({ callId: id, durationSeconds: 245, endedBy: m });
      expect(rows[2]!.content).toBe('Video call, 4 min');
      // Nothing private of the caller's goes into the step (the profile's e-mail, birthday, place).
      expect(Object.keys(rows[0]!.metadata).sort()).toEqual([
        'callId',
        'callType',
        'callerId',
        'callerName',
        'callerPhoto',
      ]);
    });

    it('a decline and a timeout leave their own steps; a call message never notifies like a text', async () => {
      const { a, m, conversationId } = await createPair();
      const declined = await startCall(a, m, 'audio');
      await setStatus(m, declined, 'declined');
      const missed = await startCall(a, m, 'audio');
      await setStatus(m, missed, 'missed');
      const rows = await steps(conversationId);
      expect(rows.map((r) => [r.type, r.sender_id, r.content])).toEqual([
        ['video_call_ring', a, 'Audio call'],
        ['video_call_decline', m, 'Declined audio call'],
        ['video_call_ring', a, 'Audio call'],
        ['video_call_timeout', m, 'Missed audio call'],
      ]);
      const notes = await db.query(
        `select 1 from public.notifications where user_id = $1 and type = 'message'`,
        [m],
      );
      expect(notes.rows).toHaveLength(0);
    });

    it('a sender over the message burst limit still calls; the step is only skipped', async () => {
      const { a, m, conversationId } = await createPair();
      const limit = (await db.query<{ n: number }>('select public.get_message_burst_limit() n')).rows[0]!.n;
      for (let i = 0; i < limit; i++)
        await asActor(db, member(a), (tx) =>
          tx.query(
            `insert into public.messages (id, conversation_id, sender_id, recipient_id, content)
             values (gen_random_uuid(), $1, $2, $3, 'hi')`,
            [conversationId, a, m],
          ),
        );
      const id = await startCall(a, m);
      expect(await statusOf(id)).toBe('ringing');
      expect((await steps(conversationId)).filter((r) => r.type === 'video_call_ring')).toHaveLength(0);
    });
  });

  describe('what ends a call', () => {
    it('an unmatch ends a ringing call and an active one', async () => {
      const { a, m, matchId } = await createPair();
      const id = await startCall(a, m);
      await setStatus(m, id, 'active');
      await asActor(db, member(m), (tx) => tx.query('delete from public.matches where id = $1', [matchId]));
      const r = await db.query<{ status: string; ended_by: string }>(
        'select status, ended_by from public.video_calls where id = $1',
        [id],
      );
      expect(r.rows[0]).toEqual({ status: 'ended', ended_by: m });
    });

    it('a block or a report ends the call, and no new one can start', async () => {
      for (const how of ['block', 'report'] as const) {
        const { a, m } = await createPair();
        const id = await startCall(a, m);
        await asActor(db, member(m), (tx) =>
          how === 'block'
            ? tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [m, a])
            : tx.query(
                `insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'spam')`,
                [m, a],
              ),
        );
        expect(await statusOf(id)).toBe('ended');
        await expectSqlError(startCall(a, m), '42501', /not_connected/);
      }
    });

    it('a plan that lapses ends the call at once; a ringing call cannot be answered without premium', async () => {
      const { a, m } = await createPair();
      const id = await startCall(a, m);
      await setStatus(m, id, 'active');
      await asActor(db, serviceRole, (tx) =>
        tx.query(
          `select public.apply_subscription_state($1, 'premium', 'monthly', 'canceled',
             now() - interval '1 minute', null, null, now())`,
          [a],
        ),
      );
      expect(await statusOf(id)).toBe('ended');

      const b = await createPair();
      const ringing = await startCall(b.a, b.m);
      await db.query(
        `update public.subscriptions set current_period_end = now() - interval '1 second' where user_id = $1`,
        [b.a],
      );
      await expectSqlError(setStatus(b.m, ringing, 'active'), 'P0001', /premium_required/);
      expect(await statusOf(ringing)).toBe('ringing');
      // The scheduler ends what a plan's time-based lapse no longer allows.
      await asActor(db, serviceRole, (tx) => tx.query('select public.expire_ringing_calls()'));
      expect(await statusOf(ringing)).toBe('ended');
    });
  });

  describe('the scheduler', () => {
    it('misses a call after 30 s of ringing and ends an active call nobody keeps alive', async () => {
      const { a, m, conversationId } = await createPair();
      const ringing = await startCall(a, m);
      const active = await startCall(m, a);
      await setStatus(a, active, 'active');
      const fresh = await startCall(a, m);
      await db.transaction(async (tx) => {
        await tx.exec('alter table public.video_calls disable trigger video_calls_before_update');
        await tx.query(
          `update public.video_calls set created_at = now() - interval '31 seconds' where id = $1`,
          [ringing],
        );
        await tx.query(
          `update public.video_calls set updated_at = now() - interval '5 minutes' where id = $1`,
          [active],
        );
        await tx.exec('alter table public.video_calls enable trigger video_calls_before_update');
      });
      await asActor(db, serviceRole, (tx) => tx.query('select public.expire_ringing_calls()'));
      expect(await statusOf(ringing)).toBe('missed');
      expect(await statusOf(active)).toBe('ended');
      expect(await statusOf(fresh)).toBe('ringing');
      const timeout = (await steps(conversationId)).find((r) => r.type === 'video_call_timeout');
      // A step by the scheduler is the caller's.
      expect(timeout?.sender_id).toBe(a);
    });

    it('a participant keeping the call alive (its connection quality) is not ended', async () => {
      const { a, m } = await createPair();
      const id = await startCall(a, m);
      await setStatus(m, id, 'active');
      const r = await asActor(db, member(a), (tx) =>
        tx.query<{ connection_quality: string; status: string }>(
          `update public.video_calls set connection_quality = 'good' where id = $1 returning connection_quality, status`,
          [id],
        ),
      );
      expect(r.rows[0]).toEqual({ connection_quality: 'good', status: 'active' });
      await asActor(db, serviceRole, (tx) => tx.query('select public.expire_ringing_calls()'));
      expect(await statusOf(id)).toBe('active');
    });
  });
});
