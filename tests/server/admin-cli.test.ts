// The operator's command (issue 15): `npm run admin -- grant <email> <plan> <days>` and `revoke <email>`,
// run as its own process against a running instance, as an operator would; each is audited, and the plan
// is read back from SQL's get_entitlement.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { runAdmin } from '../../server/admin/admin.ts';
import { createMember, type Member } from './realtime-support.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

describe.each(getDatabaseKinds())('npm run admin on %s', (kind) => {
  let t: TestServer;
  let ann: Member;
  beforeAll(async () => {
    t = await startTestServer(kind);
    ann = await createMember(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const admin = async (...args: string[]) => {
    const port = new URL(t.url).port;
    try {
      const out = await run(process.execPath, ['--import', 'tsx', 'server/admin/admin.ts', ...args], {
        cwd: root,
        env: { PATH: process.env['PATH'] ?? '', DATA_DIR: t.dataDir, PORT: port, NODE_ENV: 'test' },
      });
      return { code: 0, out: out.stdout.trim(), err: out.stderr.trim() };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { code: x.code, out: x.stdout.trim(), err: x.stderr.trim() };
    }
  };
  const plan = async () =>
    (
      await t.db.query<{ tier: string; is_premium: boolean }>(
        'select tier, is_premium from public.get_entitlement($1)',
        [ann.id],
      )
    ).rows[0];

  it('grants a plan for some days and revokes it, each audited', async () => {
    const granted = await admin('grant', ann.email.toUpperCase(), 'vip', '30');
    expect(granted.code, granted.err).toBe(0);
    expect(granted.out).toMatch(new RegExp(`^Granted vip to ${ann.email.toUpperCase()} until \\d{4}-`));
    expect(await plan()).toEqual({ tier: 'vip', is_premium: true });
    const until = await t.db.query<{ days: number }>(
      'select round(extract(epoch from current_period_end - now()) / 86400)::int as days from public.subscriptions where user_id = $1',
      [ann.id],
    );
    expect(until.rows[0]?.days).toBe(30);

    const revoked = await admin('revoke', ann.email);
    expect(revoked).toMatchObject({ code: 0, out: `Revoked the plan of ${ann.email}.` });
    expect((await plan())?.is_premium).toBe(false);
    const audit = await t.db.query<{ action: string; plan_id: string; days: number | null }>(
      'select action, plan_id, days from public.subscription_grants where user_id = $1 order by created_at',
      [ann.id],
    );
    expect(audit.rows).toEqual([
      { action: 'grant', plan_id: 'vip', days: 30 },
      { action: 'revoke', plan_id: 'vip', days: null },
    ]);
  });

  it('says what is wrong and changes nothing for a bad command, plan, days or address', async () => {
    const before = await t.db.query<{ n: number }>(
      'select count(*)::int as n from public.subscription_grants',
    );
    // The command's own function, in process (a process per case would only repeat tsx's start-up).
    const env = { DATA_DIR: t.dataDir, PORT: new URL(t.url).port, NODE_ENV: 'test' };
    for (const [args, message] of [
      [[], /^Usage:/],
      [['grant', ann.email, 'vip'], /^Usage:/],
      [['grant', ann.email, 'platinum', '30'], /^Unknown plan platinum: one of premium, connector, vip$/],
      [['grant', ann.email, 'vip', '0'], /^days must be a whole number/],
      [['grant', ann.email, 'vip', 'soon'], /^days must be a whole number/],
      [['grant', 'nobody@example.test', 'vip', '30'], /^no member with that e-mail$/],
      [['revoke', 'nobody@example.test'], /^no member with that e-mail$/],
      [['delete', ann.email], /^Usage:/],
    ] as const)
      await expect(runAdmin([...args], env), args.join(' ')).rejects.toThrow(message);
    await expect(
      runAdmin(['grant', ann.email, 'vip', '30'], { ...env, DATA_DIR: '/nonexistent' }),
    ).rejects.toThrow(/start the server once/);
    // A failure as the operator sees it: exit code 1 and the reason on stderr.
    const res = await admin('grant', 'nobody@example.test', 'vip', '30');
    expect(res).toMatchObject({ code: 1, err: 'no member with that e-mail' });
    const after = await t.db.query<{ n: number }>(
      'select count(*)::int as n from public.subscription_grants',
    );
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });

  it('members cannot call the operator functions', async () => {
    const res = await fetch(`${t.url}/rest/v1/rpc/admin_grant_plan`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${ann.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ member_email: ann.email, plan: 'vip', days: 30, actor: 'me' }),
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await plan())?.is_premium).toBe(false);
  });
});
