// The operator's command line (issue 15): `npm run admin -- grant <email> <plan> <days>` and
// `npm run admin -- revoke <email>`. It asks the running instance as the service role, so it works with the
// embedded database (which only the server process may open) and, with SUPABASE_URL and
// SUPABASE_SERVICE_ROLE_KEY set, against hosted Supabase. Every grant and revoke is audited in SQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../config.ts';
import { findPlan, parsePlans } from '../../supabase/functions/_shared/plans.ts';

export const USAGE = `Usage:
  npm run admin -- grant <email> <plan> <days>   give a member a paid plan for that many days
  npm run admin -- revoke <email>                end a member's plan now`;

interface Target {
  url: string;
  serviceKey: string;
}

/** Hosted Supabase when its settings are given, else this machine's running server and its stored key. */
export function findTarget(env: Record<string, string | undefined>): Target {
  if (env['SUPABASE_URL'] && env['SUPABASE_SERVICE_ROLE_KEY'])
    return { url: env['SUPABASE_URL'].replace(/\/$/, ''), serviceKey: env['SUPABASE_SERVICE_ROLE_KEY'] };
  const config = parseConfig(env);
  const file = path.join(config.dataDir, 'api-keys.json');
  if (!fs.existsSync(file))
    throw new Error(
      `No API keys in ${config.dataDir}: start the server once (npm start), or set SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY.`,
    );
  const { serviceRoleKey } = JSON.parse(fs.readFileSync(file, 'utf8')) as { serviceRoleKey: string };
  return { url: `http://127.0.0.1:${config.PORT}`, serviceKey: serviceRoleKey };
}

async function rpc(target: Target, name: string, args: Record<string, unknown>): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(`${target.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: target.serviceKey,
        authorization: `Bearer ${target.serviceKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(args),
    });
  } catch {
    throw new Error(`The instance at ${target.url} does not answer: is it running (npm start)?`);
  }
  const body = (await res.json().catch(() => null)) as { message?: string } | null;
  if (!res.ok) throw new Error(body?.message ?? `The instance answered ${res.status}`);
  return body;
}

/** Runs one command; returns the line to print. */
export async function runAdmin(args: string[], env: Record<string, string | undefined>): Promise<string> {
  const [command, email, plan, days] = args;
  const actor = `${os.userInfo().username}@${os.hostname()} (npm run admin)`;
  if (command === 'grant' && email && plan && days && args.length === 4) {
    if (!findPlan(parsePlans(env['PLANS_JSON']), plan))
      throw new Error(
        `Unknown plan ${plan}: one of ${parsePlans(env['PLANS_JSON'])
          .map((p) => p.id)
          .join(', ')}`,
      );
    const n = Number(days);
    if (!Number.isInteger(n) || n < 1 || n > 3660)
      throw new Error('days must be a whole number from 1 to 3660');
    const result = (await rpc(findTarget(env), 'admin_grant_plan', {
      member_email: email,
      plan,
      days: n,
      actor,
    })) as { until: string };
    return `Granted ${plan} to ${email} until ${result.until}.`;
  }
  if (command === 'revoke' && email && args.length === 2) {
    const result = (await rpc(findTarget(env), 'admin_revoke_plan', { member_email: email, actor })) as {
      revoked: boolean;
    };
    return result.revoked ? `Revoked the plan of ${email}.` : `${email} had no plan; recorded anyway.`;
  }
  throw new Error(USAGE);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The same .env as npm start, so DATA_DIR and PORT name the same instance.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  runAdmin(process.argv.slice(2), process.env).then(
    (line) => console.log(line),
    (e: unknown) => {
      console.error((e as Error).message);
      process.exitCode = 1;
    },
  );
}
