// Video calls in SQL: can_video_call decides from the session, calls only between matched, unblocked
// premium members, the ringing/active/ended state machine, notifications, and third parties shut out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, grantPremium, makeMatch } from './support/members.ts';

interface CallRow {
  id: string;
  caller_id: string;
  recipient_id: string;
  status: string;
  call_type: string;
  provider: string;
  answered_at: string | null;
  ended_at: string | null;
  ended_by: string | null;
  duration_seconds: number | null;
}

describe.each(getDatabaseKinds())('video calls on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** Two matched premium members, plus a premium stranger. */
  async function createCallPair(): Promise<{ a: string; m: string; s: string }> {
    const a = await createMember(db, { name: 'Alex' });
    const m = await createMember(db, { name: 'Morgan' });
    const s = await createMember(db, { name: 'Sam' });
    await makeMatch(db, a, m);
    for (const id of [a, m, s]) await grantPremium(db, id);
    return { a, m, s };
  }

  async function canCall(
    actorId: string | undefined,
    callerId: string,
    recipientId: string,
  ): Promise<boolean> {
    const r = await asActor(db, actorId ? member(actorId) : serviceRole, (tx) =>
      tx.query<{ ok: boolean }>('select public.can_video_call($1, $2) ok', [callerId, recipientId]),
    );
    return r.rows[0]!.ok;
  }

  async function startCall(callerId: string, recipientId: string, values: Record<string, unknown> = {}) {
    const r = await asActor(db, member(callerId), (tx) =>
      tx.query<CallRow>(
        `insert into public.video_calls (caller_id, recipient_id, call_type, provider, stream_call_id)
         values ($1, $2, $3, $4, $5) returning *`,
        [
          callerId,
          recipientId,
          values['call_type'] ?? 'video',
          values['provider'] ?? 'getstream',
          values['stream_call_id'] ?? null,
        ],
      ),
    );
    return r.rows[0]!;
  }

  async function setStatus(actorId: string, callId: string, status: string, extra = '') {
    const r = await asActor(db, member(actorId), (tx) =>
      tx.query<CallRow>(`update public.video_calls set status = $2 ${extra} where id = $1 returning *`, [
        callId,
        status,
      ]),
    );
    return r;
  }

  async function getCall(id: string): Promise<CallRow> {
    const r = await db.query<CallRow>('select * from public.video_calls where id = $1', [id]);
    return r.rows[0]!;
  }

  describe('can_video_call', () => {
    it('is true for two matched premium members, from either side', async () => {
      const { a, m } = await createCallPair();
      expect(await canCall(a, a, m)).toBe(true);
      expect(await canCall(m, m, a)).toBe(true);
    });

    it('never trusts the caller id passed in: only the session’s member counts', async () => {
      const { a, m, s } = await createCallPair();
      // The stranger names A as the caller to learn about A and M: refused.
      expect(await canCall(s, a, m)).toBe(false);
      // A free member names a premium member as caller: refused.
      const free = await createMember(db);
      await makeMatch(db, free, m);
      expect(await canCall(free, a, m)).toBe(false);
      expect(await canCall(free, free, m)).toBe(false);
    });

    it('is false when either side is not premium', async () => {
      const a = await createMember(db);
      const m = await createMember(db);
      await makeMatch(db, a, m);
      await grantPremium(db, a);
      expect(await canCall(a, a, m)).toBe(false);
      expect(await canCall(m, m, a)).toBe(false);
      await grantPremium(db, m);
      expect(await canCall(a, a, m)).toBe(true);
      await db.query(
        `update public.subscriptions set current_period_end = now() - interval '1 minute' where user_id = $1`,
        [m],
      );
      expect(await canCall(a, a, m)).toBe(false);
    });

    it('is false for unmatched members and after a block in either direction', async () => {
      const { a, m, s } = await createCallPair();
      expect(await canCall(a, a, s)).toBe(false);
      await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [m, a]);
      expect(await canCall(a, a, m)).toBe(false);
      expect(await canCall(m, m, a)).toBe(false);
    });

    it('is false for oneself and for anonymous callers; the service role may ask about any pair', async () => {
      const { a, m } = await createCallPair();
      expect(await canCall(a, a, a)).toBe(false);
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select public.can_video_call($1, $2)', [a, m])),
        '42501',
      );
      expect(await canCall(undefined, a, m)).toBe(true);
    });
  });

  describe('starting a call', () => {
    it('a premium member calls their premium match; the call rings and the recipient is notified', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m, { call_type: 'audio', stream_call_id: 'call-123' });
      expect(call).toMatchObject({
        caller_id: a,
        recipient_id: m,
        status: 'ringing',
        call_type: 'audio',
        provider: 'getstream',
        answered_at: null,
        ended_at: null,
      });
      const notes = await asActor(db, member(m), (tx) =>
        tx.query<{ type: string; title: string; body: string; data: Record<string, unknown> }>(
          `select type, title, body, data from public.notifications where type = 'video_call'`,
        ),
      );
      expect(notes.rows).toEqual([
        {
          type: 'video_call',
          title: 'Incoming audio call',
          body: 'Alex is calling you',
          data: { callId: call.id, callerId: a, callType: 'audio', streamCallId: 'call-123' },
        },
      ]);
    });

    it('the self-contained WebRTC provider is accepted too', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m, { provider: 'webrtc' });
      expect(call.provider).toBe('webrtc');
    });

    it('is refused with premium_required when either side is not premium, and nothing is written', async () => {
      const { a, m } = await createCallPair();
      const free = await createMember(db);
      await makeMatch(db, a, free);
      await expectSqlError(startCall(a, free), 'P0001', /premium_required/);
      await expectSqlError(startCall(free, a), 'P0001', /premium_required/);
      const rows = await db.query('select 1 from public.video_calls where caller_id = any($1::uuid[])', [
        [a, free],
      ]);
      expect(rows.rows).toHaveLength(0);
      const notes = await db.query(
        `select 1 from public.notifications where type = 'video_call' and user_id = $1`,
        [m],
      );
      expect(notes.rows).toHaveLength(0);
    });

    it('is refused with not_connected for unmatched and blocked pairs alike, so a block is not revealed', async () => {
      const { a, s } = await createCallPair();
      const blocker = await createMember(db);
      await grantPremium(db, blocker);
      await makeMatch(db, a, blocker);
      await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [
        blocker,
        a,
      ]);
      for (const recipient of [s, blocker]) {
        await expectSqlError(startCall(a, recipient), '42501', /^not_connected$/);
      }
      const rows = await db.query('select 1 from public.video_calls where caller_id = $1', [a]);
      expect(rows.rows).toHaveLength(0);
    });

    it('a member cannot start a call in someone else’s name', async () => {
      const { a, m, s } = await createCallPair();
      await expectSqlError(
        asActor(db, member(s), (tx) =>
          tx.query('insert into public.video_calls (caller_id, recipient_id) values ($1, $2)', [a, m]),
        ),
        '42501',
      );
    });

    it('a call starts ringing: other initial states and lifecycle fields are refused', async () => {
      const { a, m } = await createCallPair();
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(
            `insert into public.video_calls (caller_id, recipient_id, status) values ($1, $2, 'active')`,
            [a, m],
          ),
        ),
        '23514',
      );
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(
            `insert into public.video_calls (caller_id, recipient_id, duration_seconds) values ($1, $2, 3600)`,
            [a, m],
          ),
        ),
        '23514',
      );
    });

    it('bad enum values are refused with 23514', async () => {
      const { a, m } = await createCallPair();
      await expectSqlError(startCall(a, m, { call_type: 'hologram' }), '23514');
      await expectSqlError(startCall(a, m, { provider: 'zoom' }), '23514');
      await expectSqlError(startCall(a, m, { stream_call_id: 'x'.repeat(201) }), '23514');
      // Calling oneself: there is no such pair, so the match check refuses first.
      await expectSqlError(startCall(a, a), '42501', /not_connected/);
    });
  });

  describe('answering and ending', () => {
    it('the recipient answers, then either side ends; the server sets times, ended_by and duration', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      // The client's own timestamps are ignored: the server's clock decides.
      const answered = await setStatus(m, call.id, 'active', `, answered_at = '2000-01-01'`);
      expect(answered.rows[0]?.status).toBe('active');
      expect(new Date(answered.rows[0]!.answered_at!).getFullYear()).toBeGreaterThan(2000);
      await db.query(
        `update public.video_calls set answered_at = now() - interval '95 seconds' where id = $1`,
        [call.id],
      );
      const ended = await asActor(db, member(a), (tx) =>
        tx.query<CallRow>(
          `update public.video_calls set status = 'ended', ended_by = $2, duration_seconds = 1 where id = $1 returning *`,
          [call.id, m],
        ),
      );
      expect(ended.rows[0]).toMatchObject({ status: 'ended', ended_by: a });
      expect(ended.rows[0]!.duration_seconds).toBeGreaterThanOrEqual(95);
      expect(ended.rows[0]!.duration_seconds).toBeLessThan(120);
      expect(ended.rows[0]!.ended_at).not.toBeNull();
    });

    it('only the recipient answers or declines', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      await expectSqlError(setStatus(a, call.id, 'active'), '42501');
      await expectSqlError(setStatus(a, call.id, 'declined'), '42501');
      expect((await getCall(call.id)).status).toBe('ringing');
      const declined = await setStatus(m, call.id, 'declined');
      expect(declined.rows[0]).toMatchObject({ status: 'declined', ended_by: m, duration_seconds: 0 });
    });

    it('a finished call cannot be reopened', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      await setStatus(a, call.id, 'missed');
      for (const status of ['ringing', 'active', 'ended']) {
        await expectSqlError(setStatus(m, call.id, status), 'P0001', /call_already_finished/);
      }
      expect((await getCall(call.id)).status).toBe('missed');
    });

    it('the caller can cancel a ringing call; it ends with no duration', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      const ended = await setStatus(a, call.id, 'ended');
      expect(ended.rows[0]).toMatchObject({ status: 'ended', ended_by: a, duration_seconds: 0 });
    });

    it('participants, type and provider are fixed', async () => {
      const { a, m, s } = await createCallPair();
      const call = await startCall(a, m);
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query('update public.video_calls set recipient_id = $2 where id = $1', [call.id, s]),
        ),
        '42501',
      );
      await expectSqlError(
        asActor(db, member(m), (tx) =>
          tx.query(`update public.video_calls set call_type = 'audio' where id = $1`, [call.id]),
        ),
        '42501',
      );
    });

    it('an unknown status is refused', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      await expectSqlError(setStatus(m, call.id, 'exploded'), '23514');
    });
  });

  describe('expiry job', () => {
    it('expire_ringing_calls marks calls unanswered for too long as missed, and only those', async () => {
      const { a, m } = await createCallPair();
      const old = await startCall(a, m);
      const fresh = await startCall(m, a);
      // Backdating is only possible with the lifecycle trigger off (the server fixes created_at).
      await db.transaction(async (tx) => {
        await tx.exec('alter table public.video_calls disable trigger video_calls_before_update');
        await tx.query(
          `update public.video_calls set created_at = now() - interval '2 minutes' where id = $1`,
          [old.id],
        );
        await tx.exec('alter table public.video_calls enable trigger video_calls_before_update');
      });
      const r = await asActor(db, serviceRole, (tx) =>
        tx.query<{ n: number }>('select public.expire_ringing_calls() n'),
      );
      expect(r.rows[0]?.n).toBe(1);
      expect((await getCall(old.id)).status).toBe('missed');
      expect((await getCall(fresh.id)).status).toBe('ringing');
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query('select public.expire_ringing_calls()')),
        '42501',
      );
    });
  });

  describe('third parties', () => {
    it('a stranger neither sees, answers, ends nor deletes the call', async () => {
      const { a, m, s } = await createCallPair();
      const call = await startCall(a, m);
      const seen = await asActor(db, member(s), (tx) => tx.query('select * from public.video_calls'));
      expect(seen.rows).toHaveLength(0);
      for (const status of ['active', 'ended', 'declined']) {
        const r = await setStatus(s, call.id, status);
        expect(r.rowCount).toBe(0);
      }
      await expectSqlError(
        asActor(db, member(s), (tx) => tx.query('delete from public.video_calls where id = $1', [call.id])),
        '42501',
      );
      expect((await getCall(call.id)).status).toBe('ringing');
    });

    it('anonymous callers cannot read calls', async () => {
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.video_calls')),
        '42501',
      );
    });

    it('the participants keep their call history: even they cannot delete it', async () => {
      const { a, m } = await createCallPair();
      const call = await startCall(a, m);
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query('delete from public.video_calls where id = $1', [call.id])),
        '42501',
      );
      const seen = await asActor(db, member(m), (tx) => tx.query('select id from public.video_calls'));
      expect(seen.rows).toEqual([{ id: call.id }]);
    });
  });
});
