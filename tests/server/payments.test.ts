// Payments through the real `stripe` package (issue 15): Checkout and portal sessions against a local
// Stripe-compatible peer, and the webhook with events signed by the package's own test-header helper:
// valid, bad signature, stale, replay, out of order, downgrade, payment failed and paid, cancel. The plan
// is read back from SQL's get_entitlement, the one derivation.
import crypto from 'node:crypto';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { startStripePeer, type StripePeer } from '../support/stripe-peer.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createSignedInMember } from './auth-support.ts';

type Member = Awaited<ReturnType<typeof createSignedInMember>>;
const createMember = (t: TestServer) => createSignedInMember(t, 'pay');

const SECRET_KEY = 'sk_test_heartsync_local_peer';
const WEBHOOK_SECRET = 'whsec_heartsync_test_secret';
const stripe = new Stripe(SECRET_KEY);

describe.each(getDatabaseKinds())('payments on %s', (kind) => {
  let peer: StripePeer;
  let t: TestServer;
  let ann: Member;
  beforeAll(async () => {
    peer = await startStripePeer(SECRET_KEY);
    t = await startTestServer(kind, {
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: peer.url,
    });
    ann = await createMember(t);
  });
  afterAll(async () => {
    await t?.close();
    await peer?.close();
  });

  const call = async (name: string, body: unknown, token?: string) => {
    const res = await fetch(`${t.url}/functions/v1/${name}`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${token ?? t.anonKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  let clock = Math.floor(Date.now() / 1000) - 3600;
  /** A Stripe event of the given type and object, created `at` (seconds; later events get later times). */
  const makeEvent = (type: string, object: Record<string, unknown>, at = (clock += 10)) => ({
    id: `evt_${crypto.randomBytes(8).toString('hex')}`,
    object: 'event',
    api_version: '2025-01-01',
    created: at,
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
  });
  const deliver = async (
    event: unknown,
    options: { secret?: string; timestamp?: number; raw?: string } = {},
  ) => {
    const payload = options.raw ?? JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    const res = await fetch(`${t.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'stripe-signature': header, 'content-type': 'application/json' },
      body: payload,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const plan = async (id: string) =>
    (
      await t.db.query<{ tier: string; status: string; is_premium: boolean }>(
        'select tier, status, is_premium from public.get_entitlement($1)',
        [id],
      )
    ).rows[0];
  const counts = async () =>
    (
      await t.db.query<{ events: number; subs: number }>(
        `select (select count(*)::int from public.payment_events) as events,
                (select count(*)::int from public.subscriptions) as subs`,
      )
    ).rows[0];

  it('starts a Checkout Session for the signed-in member, the plan and member travelling with it', async () => {
    const res = await call('create-checkout', { plan_id: 'connector', billing_cycle: 'yearly' }, ann.token);
    expect(res.status).toBe(200);
    expect(res.body['url']).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sent = peer.requests.at(-1)!;
    expect(sent.path).toBe('/v1/checkout/sessions');
    expect(sent.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(sent.form).toMatchObject({
      mode: 'subscription',
      client_reference_id: ann.id,
      'metadata[plan_id]': 'connector',
      'metadata[billing_cycle]': 'yearly',
      'subscription_data[metadata][user_id]': ann.id,
      'line_items[0][price_data][unit_amount]': '19999',
      'line_items[0][price_data][recurring][interval]': 'year',
    });
    expect(sent.form['success_url']).toBe(`${t.url}/payment-success?session_id={CHECKOUT_SESSION_ID}`);
  });

  it('refuses checkout without a member (the spec text) and for an unknown plan, asking Stripe nothing', async () => {
    const before = peer.requests.length;
    const anon = await call('create-checkout', { plan_id: 'connector', billing_cycle: 'monthly' });
    expect(anon).toEqual({
      status: 401,
      body: { error: 'You must be logged in to update your subscription.' },
    });
    const bad = await call('create-checkout', { plan_id: 'platinum', billing_cycle: 'monthly' }, ann.token);
    expect(bad.status).toBe(400);
    const cycle = await call('create-checkout', { plan_id: 'vip', billing_cycle: 'weekly' }, ann.token);
    expect(cycle.status).toBe(400);
    expect(peer.requests.length).toBe(before);
  });

  it('refuses unsigned, badly signed, stale and altered webhooks, changing nothing', async () => {
    const event = makeEvent('checkout.session.completed', {
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: ann.id,
      customer: 'cus_ann',
      subscription: 'sub_ann',
      metadata: { plan_id: 'vip', billing_cycle: 'monthly' },
    });
    const before = await counts();
    const unsigned = await fetch(`${t.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
    expect((await deliver(event, { secret: 'whsec_someone_else' })).status).toBe(400);
    expect((await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 301 })).status).toBe(400);
    const altered = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload: altered, secret: WEBHOOK_SECRET });
    const tampered = await fetch(`${t.url}/functions/v1/stripe-webhook`, {
      method: 'POST',
      headers: { 'stripe-signature': header },
      body: altered.replace('"vip"', '"connector"'),
    });
    expect(tampered.status).toBe(400);
    expect(await counts()).toEqual(before);
    expect((await plan(ann.id))?.is_premium).toBe(false);
  });

  it('applies a paid checkout once, follows the subscription in order, and ignores a replay or a late old state', async () => {
    const bob = await createMember(t);
    const paid = makeEvent('checkout.session.completed', {
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: bob.id,
      customer: 'cus_bob',
      subscription: 'sub_bob',
      metadata: { user_id: bob.id, plan_id: 'connector', billing_cycle: 'monthly' },
    });
    expect(await deliver(paid)).toEqual({ status: 200, body: { received: true } });
    expect(await plan(bob.id)).toEqual({ tier: 'connector', status: 'active', is_premium: true });

    // The same event again: recorded once, nothing changes.
    expect((await deliver(paid)).body).toEqual({ received: true, duplicate: true });
    const events = await t.db.query<{ n: number }>(
      'select count(*)::int as n from public.payment_events where id = $1',
      [paid.id],
    );
    expect(events.rows[0]?.n).toBe(1);

    // An update made earlier (past_due) arriving after a later one (active) does not win.
    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 86400;
    const subscription = (status: string, planId: string) => ({
      object: 'subscription',
      id: 'sub_bob',
      customer: 'cus_bob',
      status,
      metadata: { user_id: bob.id, plan_id: planId, billing_cycle: 'monthly' },
      items: { data: [{ current_period_end: periodEnd, price: { recurring: { interval: 'month' } } }] },
    });
    const older = makeEvent('customer.subscription.updated', subscription('past_due', 'connector'));
    const newer = makeEvent('customer.subscription.updated', subscription('active', 'connector'));
    expect((await deliver(newer)).status).toBe(200);
    expect((await deliver(older)).status).toBe(200);
    expect(await plan(bob.id)).toEqual({ tier: 'connector', status: 'active', is_premium: true });
    const stored = await t.db.query<{ end: string }>(
      'select extract(epoch from current_period_end)::bigint::text as end from public.subscriptions where user_id = $1',
      [bob.id],
    );
    expect(stored.rows[0]?.end).toBe(String(periodEnd));

    // A downgrade to the one-agent tier: a high-autonomy agent falls to low at once.
    await t.db.query(
      "insert into public.ai_agents (user_id, name, autonomy_level, is_active) values ($1, 'Wing', 'high', true)",
      [bob.id],
    );
    expect(
      (await deliver(makeEvent('customer.subscription.updated', subscription('active', 'premium')))).status,
    ).toBe(200);
    expect(await plan(bob.id)).toMatchObject({ tier: 'premium', is_premium: true });
    const agent = await t.db.query<{ autonomy_level: string }>(
      'select autonomy_level from public.ai_agents where user_id = $1',
      [bob.id],
    );
    expect(agent.rows[0]?.autonomy_level).toBe('low');
  });

  it('a failed payment ends premium, a paid invoice brings it back, a cancel ends it', async () => {
    const cy = await createMember(t);
    const start = makeEvent('checkout.session.completed', {
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: cy.id,
      customer: 'cus_cy',
      subscription: 'sub_cy',
      metadata: { plan_id: 'vip', billing_cycle: 'monthly' },
    });
    expect((await deliver(start)).status).toBe(200);
    expect((await plan(cy.id))?.is_premium).toBe(true);
    const invoice = { object: 'invoice', customer: 'cus_cy', subscription: 'sub_cy' };
    expect((await deliver(makeEvent('invoice.payment_failed', invoice))).status).toBe(200);
    expect(await plan(cy.id)).toMatchObject({ status: 'past_due', is_premium: false });
    const until = Math.floor(Date.now() / 1000) + 31 * 86400;
    const paid = { ...invoice, lines: { data: [{ period: { end: until } }] } };
    expect((await deliver(makeEvent('invoice.paid', paid))).status).toBe(200);
    expect(await plan(cy.id)).toMatchObject({ status: 'active', is_premium: true });
    const deleted = makeEvent('customer.subscription.deleted', {
      object: 'subscription',
      id: 'sub_cy',
      customer: 'cus_cy',
      status: 'canceled',
      metadata: { user_id: cy.id, plan_id: 'vip', billing_cycle: 'monthly' },
      items: { data: [{ current_period_end: until, price: { recurring: { interval: 'month' } } }] },
    });
    expect((await deliver(deleted)).status).toBe(200);
    expect(await plan(cy.id)).toMatchObject({ status: 'canceled', is_premium: false });
    // An event about nobody we know is recorded and ignored.
    const stranger = makeEvent('invoice.paid', {
      object: 'invoice',
      customer: 'cus_nobody',
      subscription: 'sub_x',
    });
    expect((await deliver(stranger)).body).toEqual({ received: true, ignored: true });
  });

  it('opens the customer portal for a paying member only', async () => {
    const dee = await createMember(t);
    expect(
      (
        await deliver(
          makeEvent('checkout.session.completed', {
            object: 'checkout.session',
            mode: 'subscription',
            client_reference_id: dee.id,
            customer: 'cus_dee',
            subscription: 'sub_dee',
            metadata: { plan_id: 'premium', billing_cycle: 'yearly' },
          }),
        )
      ).status,
    ).toBe(200);
    const res = await call('customer-portal', {}, dee.token);
    expect(res.status).toBe(200);
    expect(res.body['url']).toMatch(/^https:\/\/billing\.stripe\.test\/p\/session\/bps_test_/);
    expect(peer.requests.at(-1)?.form).toMatchObject({
      customer: 'cus_dee',
      return_url: `${t.url}/manage-subscription`,
    });
    const free = await createMember(t);
    expect((await call('customer-portal', {}, free.token)).status).toBe(404);
  });

  it('members never write subscriptions or payment events themselves', async () => {
    for (const [table, row] of [
      ['subscriptions', { user_id: ann.id, plan_id: 'vip', billing_cycle: 'monthly', status: 'active' }],
      [
        'payment_events',
        { id: 'evt_forged', provider: 'stripe', type: 'invoice.paid', occurred_at: new Date().toISOString() },
      ],
    ] as const) {
      const res = await fetch(`${t.url}/rest/v1/${table}`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          authorization: `Bearer ${ann.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(row),
      });
      expect(res.status, table).toBeGreaterThanOrEqual(400);
      expect(res.status, table).toBeLessThan(500);
    }
    const rpc = await fetch(`${t.url}/rest/v1/rpc/apply_subscription_state`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${ann.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        uid: ann.id,
        new_plan_id: 'vip',
        new_billing_cycle: 'monthly',
        new_status: 'active',
        new_period_end: null,
        new_customer_id: null,
        new_subscription_id: null,
        event_at: new Date().toISOString(),
      }),
    });
    expect(rpc.status).toBeGreaterThanOrEqual(400);
    expect((await plan(ann.id))?.is_premium).toBe(false);
  });
});

describe.each(getDatabaseKinds())('the demo checkout on %s', (kind) => {
  let t: TestServer;
  afterAll(async () => {
    await t?.close();
  });

  it('offers the plans with the demo checkout, which grants the plan through the same path', async () => {
    t = await startTestServer(kind, { DEMO_PAYMENTS: '1' });
    const eve = await createMember(t);
    const plans = await fetch(`${t.url}/functions/v1/plans`, {
      method: 'POST',
      headers: { apikey: t.anonKey, authorization: `Bearer ${t.anonKey}` },
    });
    const answer = (await plans.json()) as { checkout: string; plans: { id: string }[] };
    expect(answer.checkout).toBe('demo');
    expect(answer.plans.map((p) => p.id)).toEqual(['premium', 'connector', 'vip']);

    const pay = (body: unknown, token = eve.token) =>
      fetch(`${t.url}/functions/v1/demo-checkout`, {
        method: 'POST',
        headers: { apikey: t.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await pay({ plan_id: 'vip', billing_cycle: 'monthly' }, t.anonKey)).status).toBe(401);
    expect((await pay({ plan_id: 'gold', billing_cycle: 'monthly' })).status).toBe(400);
    expect((await pay({ plan_id: 'vip', billing_cycle: 'monthly' })).status).toBe(200);
    const row = await t.db.query<{ tier: string; is_premium: boolean }>(
      'select tier, is_premium from public.get_entitlement($1)',
      [eve.id],
    );
    expect(row.rows[0]).toEqual({ tier: 'vip', is_premium: true });
    const recorded = await t.db.query<{ provider: string }>(
      'select provider from public.payment_events where user_id = $1',
      [eve.id],
    );
    expect(recorded.rows).toEqual([{ provider: 'demo' }]);
  });

  it('is never offered in production', () => {
    expect(parseConfig({ NODE_ENV: 'production', DEMO_PAYMENTS: '1', DEMO: '1' }).demoPayments).toBe(false);
    expect(parseConfig({ DEMO_PAYMENTS: '1', STRIPE_SECRET_KEY: 'sk_test_x' }).demoPayments).toBe(false);
    expect(parseConfig({ DEMO: '0' }).demoPayments).toBe(false);
    expect(parseConfig({}).demoPayments).toBe(true);
  });
});
