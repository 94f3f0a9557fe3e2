// Acting as the service role in journeys, like a backend job: the anon key as apikey and a service_role
// JWT signed with the server's key, read from the data folder the global setup made (E2E_DATA_DIR).
import fs from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext } from '@playwright/test';
import { createKeys } from '../../../server/auth/keys.ts';
import { makeEmail, PASSWORD } from './accounts.ts';

export interface ServiceAuth {
  anonKey: string;
  token: string;
}

/** A service_role token for this run's server (valid 10 minutes) and the anon key it serves. */
export async function getServiceAuth(request: APIRequestContext, baseURL: string): Promise<ServiceAuth> {
  const dataDir = process.env['E2E_DATA_DIR'];
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set by the global setup');
  const jwk = JSON.parse(fs.readFileSync(path.join(dataDir, 'jwt-key.json'), 'utf8')) as Parameters<
    typeof createKeys
  >[0];
  const keys = await createKeys(jwk, `${baseURL}/auth/v1`);
  const { anonKey } = (await (await request.get('/app-config.json')).json()) as { anonKey: string };
  return { anonKey, token: await keys.sign({ role: 'service_role' } as never, 600) };
}

/** Headers for a REST call as the service role (JSON body, representation returned). */
export function serviceHeaders(auth: ServiceAuth): Record<string, string> {
  return {
    apikey: auth.anonKey,
    authorization: `Bearer ${auth.token}`,
    'content-type': 'application/json',
    prefer: 'return=representation',
  };
}

/** The member id of an account, looked up by e-mail (which only the service role may read). */
export async function getMemberId(
  request: APIRequestContext,
  auth: ServiceAuth,
  email: string,
): Promise<string> {
  const res = await request.get(`/rest/v1/profiles?select=id&email=eq.${encodeURIComponent(email)}`, {
    headers: serviceHeaders(auth),
  });
  const rows = (await res.json()) as { id: string }[];
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}

/** GET as the service role; fails the journey on any error answer. */
export async function serviceGet<T>(request: APIRequestContext, auth: ServiceAuth, url: string): Promise<T> {
  const res = await request.get(url, { headers: serviceHeaders(auth) });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

/** How many matches the server holds for `memberId` (read as the service role). */
export async function countMatchesOf(
  request: APIRequestContext,
  auth: ServiceAuth,
  memberId: string,
): Promise<number> {
  const url = `/rest/v1/matches?select=id&or=(user_id_1.eq.${memberId},user_id_2.eq.${memberId})`;
  return (await serviceGet<unknown[]>(request, auth, url)).length;
}

/** POST or PATCH as the service role (as a backend job would write); fails the journey on any error answer. */
export async function serviceWrite(
  request: APIRequestContext,
  auth: ServiceAuth,
  method: 'post' | 'patch',
  url: string,
  data: unknown,
): Promise<void> {
  const res = await request[method](url, { headers: serviceHeaders(auth), data });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * A paid plan for 30 days with a payment-provider customer, written as the payment webhook records it
 * (`plan`: premium, connector, vip...).
 */
export async function grantPlan(
  request: APIRequestContext,
  auth: ServiceAuth,
  userId: string,
  plan: string,
): Promise<void> {
  await serviceWrite(request, auth, 'post', '/rest/v1/subscriptions', {
    user_id: userId,
    plan_id: plan,
    billing_cycle: 'monthly',
    status: 'active',
    current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    stripe_customer_id: `cus_${plan}_test`,
  });
}

/** Fills a member's profile as the service would (a journey's second member, set up without the UI). */
export async function setProfile(
  request: APIRequestContext,
  auth: ServiceAuth,
  id: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const res = await request.patch(`/rest/v1/profiles?id=eq.${id}`, {
    headers: serviceHeaders(auth),
    data: fields,
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** An account nobody signs in to (no password), made through the auth admin API; returns its member id. */
export async function createAccount(
  request: APIRequestContext,
  auth: ServiceAuth,
  tag: string,
): Promise<string> {
  return (await postAdminUser(request, auth, { email: makeEmail(tag) })).id;
}

/** A confirmed account that signs in with the journeys' PASSWORD, made through the auth admin API. */
export async function createPasswordAccount(
  request: APIRequestContext,
  auth: ServiceAuth,
  tag: string,
): Promise<{ id: string; email: string }> {
  const email = makeEmail(tag);
  return { id: (await postAdminUser(request, auth, { email, password: PASSWORD })).id, email };
}

async function postAdminUser(
  request: APIRequestContext,
  auth: ServiceAuth,
  user: { email: string; password?: string },
): Promise<{ id: string }> {
  const res = await request.post('/auth/v1/admin/users', {
    headers: serviceHeaders(auth),
    data: { ...user, email_confirm: true },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: string };
}

/** Likes from `from` to each of `targets`, written as the service role (the SQL like limit still applies). */
export async function seedLikes(
  request: APIRequestContext,
  auth: ServiceAuth,
  from: string,
  targets: string[],
) {
  const res = await request.post('/rest/v1/user_interactions', {
    headers: { ...serviceHeaders(auth), prefer: 'return=minimal' },
    data: targets.map((t) => ({ user_id: from, target_id: t, interaction_type: 'like' })),
  });
  expect(res.ok(), await res.text()).toBe(true);
}

export async function countServerLikes(request: APIRequestContext, auth: ServiceAuth, from: string) {
  const r = await request.get(
    `/rest/v1/user_interactions?select=id&user_id=eq.${from}&interaction_type=eq.like`,
    { headers: serviceHeaders(auth) },
  );
  return ((await r.json()) as unknown[]).length;
}
