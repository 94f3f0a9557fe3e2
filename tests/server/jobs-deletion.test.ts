import crypto from 'node:crypto';
// The scheduled jobs: a due account deletion removes the member, their rows, stored files and sessions;
// cancelled or future deletions and other members are left alone; expired pauses end; the Wingman acts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJobsOnce } from '../../server/jobs/run-jobs.ts';
import { makePlainJpeg } from '../fixtures/images.ts';
import { createMember, type TestMember } from '../fixtures/members.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

async function scheduleDeletion(t: TestServer, m: TestMember, status = 'pending', due = true) {
  const { error } = await m.client.functions.invoke('delete-account', { body: { password: m.password } });
  expect(error).toBeNull();
  // As superuser: move the request into the past (or keep it ahead) and set the wanted status.
  await t.db.query(
    `update public.account_deletion_requests
        set requested_at = now() - interval '31 days',
            scheduled_for = case when $2 then now() - interval '1 minute' else now() + interval '1 day' end,
            status = $3
      where user_id = $1`,
    [m.id, due, status],
  );
}

async function uploadPhoto(m: TestMember, name: string) {
  const { error } = await m.client.storage
    .from('profile-photos')
    .upload(`${m.id}/${name}`, await makePlainJpeg());
  expect(error).toBeNull();
}

function listFiles(t: TestServer): string[] {
  const root = path.join(t.dataDir, 'storage');
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath, d.name));
}

async function countOf(t: TestServer, sql: string, id: string): Promise<number> {
  return Number((await t.db.query<{ n: string }>(sql, [id])).rows[0]?.n);
}

describe.each(getDatabaseKinds())('scheduled jobs on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { JOB_INTERVAL_SECONDS: '3600' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('deletes a due member with their rows, stored files and sessions, and nobody else', async () => {
    const doomed = await createMember(t, 'Dora');
    const kept = await createMember(t, 'Kim');
    const cancelled = await createMember(t, 'Cal');
    const later = await createMember(t, 'Lee');
    await uploadPhoto(doomed, 'a.jpg');
    await uploadPhoto(doomed, 'b.jpg');
    await uploadPhoto(kept, 'k.jpg');
    await uploadPhoto(cancelled, 'c.jpg');
    const doomedVersions = (
      await t.db.query<{ version: string }>('select version from storage.objects where owner = $1', [
        doomed.id,
      ])
    ).rows.map((r) => r.version);
    expect(doomedVersions).toHaveLength(2);
    await scheduleDeletion(t, doomed);
    await scheduleDeletion(t, cancelled, 'cancelled');
    await scheduleDeletion(t, later, 'pending', false);

    const ended: unknown[] = [];
    t.server.ctx.events.on('sessions-ended', (e) => ended.push(e));
    const result = await runJobsOnce(t.server.ctx);

    expect(result.errors).toEqual([]);
    expect(result.deletedUserIds).toEqual([doomed.id]);
    expect(ended).toEqual([{ userId: doomed.id, sessionIds: 'all' }]);
    expect(await countOf(t, 'select count(*)::int8 as n from auth.users where id = $1', doomed.id)).toBe(0);
    expect(await countOf(t, 'select count(*)::int8 as n from public.profiles where id = $1', doomed.id)).toBe(
      0,
    );
    expect(
      await countOf(
        t,
        'select count(*)::int8 as n from public.account_deletion_requests where user_id = $1',
        doomed.id,
      ),
    ).toBe(0);
    expect(
      await countOf(t, 'select count(*)::int8 as n from storage.objects where owner = $1', doomed.id),
    ).toBe(0);
    const files = listFiles(t);
    for (const v of doomedVersions) expect(files.some((f) => f.endsWith(v))).toBe(false);

    // The deleted member's token no longer opens anything, at once: the job's sessions-ended event
    // clears auth's cache of live sessions.
    const status = (
      await fetch(`${t.url}/storage/v1/object/authenticated/profile-photos/${kept.id}/k.jpg`, {
        headers: { authorization: `Bearer ${doomed.accessToken}`, apikey: t.anonKey },
      })
    ).status;
    expect(status).toBe(401);
    expect((await doomed.client.auth.getUser()).error).not.toBeNull();

    // Everyone else is untouched.
    for (const m of [kept, cancelled, later])
      expect(await countOf(t, 'select count(*)::int8 as n from auth.users where id = $1', m.id)).toBe(1);
    expect((await kept.client.storage.from('profile-photos').download(`${kept.id}/k.jpg`)).error).toBeNull();
    expect(
      (await cancelled.client.storage.from('profile-photos').download(`${cancelled.id}/c.jpg`)).error,
    ).toBeNull();

    // A second pass has nothing left to do.
    expect((await runJobsOnce(t.server.ctx)).deletedUserIds).toEqual([]);
  });

  it('ends an expired pause and keeps a running one', async () => {
    const paused = await createMember(t, 'Pat');
    const still = await createMember(t, 'Sam');
    await t.db.query(
      `update public.profiles set is_paused = true,
         pause_end_date = case when id = $1 then now() - interval '1 minute' else now() + interval '1 day' end
       where id in ($1, $2)`,
      [paused.id, still.id],
    );
    const result = await runJobsOnce(t.server.ctx);
    expect(result.errors).toEqual([]);
    expect(result.pausesExpired).toBeGreaterThanOrEqual(1);
    const rows = await t.db.query<{ id: string; is_paused: boolean }>(
      'select id, is_paused from public.profiles where id in ($1, $2)',
      [paused.id, still.id],
    );
    expect(Object.fromEntries(rows.rows.map((r) => [r.id, r.is_paused]))).toEqual({
      [paused.id]: false,
      [still.id]: true,
    });
  });
});

describe.each(getDatabaseKinds())('scheduler on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { JOB_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs the jobs on its interval while the server is up', async () => {
    const m = await createMember(t, 'Tim');
    await scheduleDeletion(t, m);
    const deadline = Date.now() + 10_000;
    let left = 1;
    while (Date.now() < deadline && left > 0) {
      await new Promise((r) => setTimeout(r, 250));
      left = await countOf(t, 'select count(*)::int8 as n from auth.users where id = $1', m.id);
    }
    expect(left).toBe(0);
  });
});

// Jobs run by hand on their own server: the members of the first block use up the sign-in rate, and the
// scheduler's 1 s interval in the second would race these passes for the work they check.
describe.each(getDatabaseKinds())('jobs run by hand on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { JOB_INTERVAL_SECONDS: '3600' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('runs the Wingman: a high-autonomy agent likes for its member, who reads it in their log with supabase-js', async () => {
    const ada = await createMember(t, 'Ada');
    const ben = await createMember(t, 'Ben');
    const place = {
      location_lat: 12.5,
      location_lng: 99.9,
      interests: ['sailing'],
      relationship_goals: 'marriage',
    };
    for (const [m, gender, seeking] of [
      [ada, 'woman', 'man'],
      [ben, 'man', 'woman'],
    ] as const)
      await t.db.query(
        `update public.profiles set gender = $2, looking_for = $3, birthday = '1991-01-01', location_lat = $4,
           location_lng = $5, interests = $6, relationship_goals = $7 where id = $1`,
        [
          m.id,
          gender,
          [seeking],
          place.location_lat,
          place.location_lng,
          place.interests,
          place.relationship_goals,
        ],
      );
    await t.db.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
       values ($1, 'vip', 'monthly', 'active', now() + interval '30 days', 'cus_jobs')`,
      [ada.id],
    );
    const { error } = await ada.client
      .from('ai_agents')
      .insert({ name: 'Cupid', autonomy_level: 'high', auto_match_threshold: 70, is_active: true });
    expect(error).toBeNull();

    const result = await runJobsOnce(t.server.ctx);
    expect(result.errors).toEqual([]);
    expect(result.wingmanActions).toBeGreaterThanOrEqual(1);
    const log = await ada.client
      .from('agent_activity')
      .select('kind, target_id, target_name, reason, status');
    expect(log.error).toBeNull();
    expect(log.data).toEqual([
      {
        kind: 'like',
        target_id: ben.id,
        target_name: 'Ben',
        reason: expect.stringMatching(/^\d+% compatible, at or above your threshold of 70%$/) as unknown,
        status: 'done',
      },
    ]);
    // Ben sees the like as any like; he cannot read her log.
    const likes = await ben.client.from('user_interactions').select('user_id').eq('target_id', ben.id);
    expect(likes.data).toEqual([{ user_id: ada.id }]);
    expect((await ben.client.from('agent_activity').select('id')).data).toEqual([]);
  });

  it('marks a call left ringing for over 30 seconds as missed and leaves a fresh one ringing', async () => {
    const caller = await createMember(t, 'Cal');
    const callee = await createMember(t, 'Rae');
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    // A pair that may call (matched, both premium): the job also ends calls of pairs that may not.
    for (const [from, to] of [
      [caller.id, callee.id],
      [callee.id, caller.id],
    ])
      await t.db.query(
        `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
        [from, to],
      );
    for (const m of [caller, callee])
      await t.db.query(
        `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end)
         values ($1, 'premium', 'monthly', 'active', now() + interval '30 days')`,
        [m.id],
      );
    await t.db.transaction(async (tx) => {
      // Backdating a call is not something the rows' rules allow: insert them as the platform.
      await tx.exec(`set local session_replication_role = replica`);
      await tx.query(
        // Triggers are off here, so the pair_key they would set (0060) is given too.
        `insert into public.video_calls (id, caller_id, recipient_id, status, call_type, created_at, pair_key)
         values ($1, $3, $4, 'ringing', 'video', now() - interval '31 seconds', public.member_pair_key($3, $4)),
                ($2, $3, $4, 'ringing', 'audio', now(), public.member_pair_key($3, $4))`,
        [ids[0], ids[1], caller.id, callee.id],
      );
    });
    const result = await runJobsOnce(t.server.ctx);
    expect(result.errors).toEqual([]);
    expect(result.callsMissed).toBe(1);
    const rows = await t.db.query<{ id: string; status: string }>(
      'select id, status from public.video_calls where id = any($1::uuid[])',
      [ids],
    );
    expect(Object.fromEntries(rows.rows.map((r) => [r.id, r.status]))).toEqual({
      [ids[0] as string]: 'missed',
      [ids[1] as string]: 'ringing',
    });
  });
});
