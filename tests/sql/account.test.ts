import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, makeMatch } from './support/members.ts';

describe.each(getDatabaseKinds())(
  'account deletion, notifications, security events and newsletter on %s',
  (kind) => {
    let db: TestDatabase;
    beforeAll(async () => {
      db = await createTestDatabase(kind);
    });
    afterAll(async () => {
      await db?.destroy();
    });

    const requestDeletion = (userId: string, scheduledFor: string) =>
      asActor(db, serviceRole, (tx) =>
        tx.query<{ id: string }>(
          `insert into public.account_deletion_requests (user_id, scheduled_for, requested_at)
         values ($1, $2, least(now(), $2::timestamptz - interval '30 days')) returning id`,
          [userId, scheduledFor],
        ),
      ).then((r) => r.rows[0]?.id);

    it('the deletion status shows the pending request, and cancelling clears it', async () => {
      const id = await createMember(db);
      const status = () =>
        asActor(db, member(id), (tx) =>
          tx.query<{ request_id: string; status: string; scheduled_for: Date; requested_at: Date }>(
            'select * from public.get_account_deletion_status()',
          ),
        ).then((r) => r.rows);
      expect(await status()).toEqual([]);
      const when = new Date(Date.now() + 7 * 86_400_000);
      const requestId = await requestDeletion(id, when.toISOString());
      const pending = await status();
      expect(pending).toHaveLength(1);
      expect(pending[0]).toMatchObject({ request_id: requestId, status: 'pending' });
      expect(pending[0]?.scheduled_for.getTime()).toBe(when.getTime());
      // A second pending request for the same member is refused.
      await expectSqlError(requestDeletion(id, when.toISOString()), '23505');
      // Members cannot cancel by editing the row directly, only through the function.
      await expectSqlError(
        asActor(db, member(id), (tx) =>
          tx.query(`update public.account_deletion_requests set status = 'cancelled'`),
        ),
        '42501',
      );
      const cancelled = await asActor(db, member(id), (tx) =>
        tx.query<{ ok: boolean }>('select public.cancel_account_deletion() ok'),
      );
      expect(cancelled.rows[0]?.ok).toBe(true);
      expect(await status()).toEqual([]);
      const again = await asActor(db, member(id), (tx) =>
        tx.query<{ ok: boolean }>('select public.cancel_account_deletion() ok'),
      );
      expect(again.rows[0]?.ok).toBe(false);
    });

    it('due deletions are listed and carried out by service jobs only; members leaving are out of discovery', async () => {
      const leaving = await createMember(db, { name: 'Leaving' });
      const later = await createMember(db, { name: 'Later' });
      const friend = await createMember(db, { name: 'Friend' });
      await makeMatch(db, leaving, friend);
      await requestDeletion(leaving, new Date(Date.now() - 1000).toISOString());
      await requestDeletion(later, new Date(Date.now() + 86_400_000).toISOString());
      const deck = await asActor(db, member(friend), (tx) =>
        tx.query<{ id: string }>('select id from public.get_discovery_candidates(100)'),
      );
      expect(deck.rows.map((r) => r.id)).not.toContain(later);
      for (const fn of [
        'select * from public.get_due_account_deletions()',
        'select * from public.run_due_account_deletions()',
      ]) {
        await expectSqlError(
          asActor(db, member(leaving), (tx) => tx.query(fn)),
          '42501',
        );
      }
      const due = await asActor(db, serviceRole, (tx) =>
        tx.query<{ user_id: string }>('select user_id from public.get_due_account_deletions()'),
      );
      expect(due.rows.map((r) => r.user_id)).toContain(leaving);
      expect(due.rows.map((r) => r.user_id)).not.toContain(later);
      const ran = await asActor(db, serviceRole, (tx) =>
        tx.query<{ user_id: string }>('select user_id from public.run_due_account_deletions()'),
      );
      expect(ran.rows.map((r) => r.user_id)).toEqual([leaving]);
      const left = await db.query<{ n: number }>(
        `select (select count(*) from auth.users where id = $1)::int + (select count(*) from public.profiles where id = $1)::int
        + (select count(*) from public.public_profiles where id = $1)::int + (select count(*) from public.matches where $1 in (user_id_1, user_id_2))::int n`,
        [leaving],
      );
      expect(left.rows[0]?.n).toBe(0);
      const rerun = await asActor(db, serviceRole, (tx) =>
        tx.query('select * from public.run_due_account_deletions()'),
      );
      expect(rerun.rows).toEqual([]);
    });

    it('members read, mark read and delete their own notifications, but cannot write or retitle them', async () => {
      const a = await createMember(db);
      const b = await createMember(db);
      await makeMatch(db, a, b);
      const mine = await asActor(db, member(a), (tx) =>
        tx.query<{ id: string; type: string }>('select id, type from public.notifications order by type'),
      );
      expect(mine.rows.map((r) => r.type)).toEqual(['like', 'match']);
      const first = mine.rows[0]?.id;
      await asActor(db, member(a), (tx) =>
        tx.query('update public.notifications set read_at = now() where id = $1', [first]),
      );
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(`update public.notifications set title = 'x' where id = $1`, [first]),
        ),
        '42501',
      );
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(`insert into public.notifications (user_id, type, title) values ($1, 'spam', 'x')`, [a]),
        ),
        '42501',
      );
      const del = await asActor(db, member(a), (tx) =>
        tx.query('delete from public.notifications where id = $1 returning id', [first]),
      );
      expect(del.rows).toHaveLength(1);
      const others = await asActor(db, member(b), (tx) =>
        tx.query('select * from public.notifications where user_id = $1', [a]),
      );
      expect(others.rows).toEqual([]);
    });

    it('security events are logged by anyone, validated, bounded per member, and unreadable by members', async () => {
      const a = await createMember(db);
      const ok = await asActor(db, anonymous, (tx) =>
        tx.query<{ ok: boolean }>(`select public.log_security_event('page_visit', '{"path":"/"}') ok`),
      );
      expect(ok.rows[0]?.ok).toBe(true);
      await asActor(db, member(a), (tx) =>
        tx.query(`select public.log_security_event('context_menu_attempt', '{}')`),
      );
      const stored = await db.query<{ user_id: string | null; event: string }>(
        `select user_id, event from public.security_events order by created_at`,
      );
      expect(stored.rows).toEqual([
        { user_id: null, event: 'page_visit' },
        { user_id: a, event: 'context_menu_attempt' },
      ]);
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query(`select public.log_security_event('Bad Name; drop', '{}')`)),
        '22023',
      );
      await expectSqlError(
        asActor(db, member(a), (tx) =>
          tx.query(`select public.log_security_event('x', $1)`, [JSON.stringify({ big: 'y'.repeat(3000) })]),
        ),
        '22023',
      );
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query(`select public.log_security_event('x', '[1,2]')`)),
        '22023',
      );
      await expectSqlError(
        asActor(db, member(a), (tx) => tx.query('select * from public.security_events')),
        '42501',
      );
      const limit =
        (await db.query<{ per_member: number }>('select per_member from public.get_security_event_limits()'))
          .rows[0]?.per_member ?? 0;
      const results = await asActor(db, member(a), async (tx) => {
        const out: boolean[] = [];
        for (let i = 0; i < limit + 5; i++) {
          out.push(
            (await tx.query<{ ok: boolean }>(`select public.log_security_event('page_visible') ok`)).rows[0]
              ?.ok ?? false,
          );
        }
        return out;
      });
      expect(results.filter(Boolean)).toHaveLength(limit - 1);
      expect(results.at(-1)).toBe(false);
    });

    it('anonymous security events share one bound, so a flood from unsigned callers is capped', async () => {
      const total =
        (
          await db.query<{ anonymous_total: number }>(
            'select anonymous_total from public.get_security_event_limits()',
          )
        ).rows[0]?.anonymous_total ?? 0;
      const before =
        (
          await db.query<{ n: number }>(
            `select count(*)::int n from public.security_events where user_id is null`,
          )
        ).rows[0]?.n ?? 0;
      const accepted = await asActor(db, anonymous, async (tx) => {
        let ok = 0;
        for (let i = 0; i < total + 3; i++) {
          if (
            (await tx.query<{ ok: boolean }>(`select public.log_security_event('page_visit') ok`)).rows[0]?.ok
          )
            ok += 1;
        }
        return ok;
      });
      expect(accepted).toBe(total - before);
    });

    it('the newsletter records a valid address once, answers the same for a repeat, and refuses a bad one', async () => {
      for (const email of ['Reader@Example.test', 'reader@example.test']) {
        const r = await asActor(db, anonymous, (tx) =>
          tx.query<{ ok: boolean }>('select public.subscribe_newsletter($1) ok', [email]),
        );
        expect(r.rows[0]?.ok).toBe(true);
      }
      const n = await db.query<{ n: number }>(
        `select count(*)::int n from public.newsletter_subscribers where lower(email) = 'reader@example.test'`,
      );
      expect(n.rows[0]?.n).toBe(1);
      for (const bad of [
        'not-an-email',
        '',
        'a@b',
        `${'x'.repeat(250)}@example.test`,
        'a b@example.test',
        '<x>@y.test',
      ]) {
        await expectSqlError(
          asActor(db, anonymous, (tx) => tx.query('select public.subscribe_newsletter($1)', [bad])),
          '22023',
          'Please enter a valid email address.',
        );
      }
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.newsletter_subscribers')),
        '42501',
      );
    });
  },
);
