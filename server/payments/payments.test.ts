import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { creditLedger, orders, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('credit bundles and payments on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  const order = async (client: ReturnType<TestApp['client']>, key: string, packageId?: number) => {
    const packages = (await client.get('/api/packages.php')).body.packages;
    return client.post('/api/order.php', { package_id: packageId ?? packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': key });
  };
  const decide = (client: ReturnType<TestApp['client']>, ref: string, outcome: string) => client.post('/api/test-checkout.php', { id: ref, outcome });
  const webhook = (ref: string) =>
    t.app.request('http://localhost/api/payment-webhook.php?provider=test', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${ref}`,
    });

  it('lists bundles in the member\'s currency', async () => {
    const nl = await signUp(t, { country: 'NL' });
    const gb = await signUp(t, { country: 'GB' });
    const eur = (await nl.client.get('/api/packages.php')).body.packages;
    const gbp = (await gb.client.get('/api/packages.php')).body.packages;
    expect(eur.map((p: { credits: number }) => p.credits)).toEqual([50, 150, 400, 1000]);
    expect(eur[0]).toMatchObject({ currency: 'EUR', amount: 995 });
    expect(gbp[0]).toMatchObject({ currency: 'GBP', amount: 895 });
  });

  it('pays through the test checkout, credits once and makes the member premium', async () => {
    const { client, user } = await signUp(t);
    const created = await order(client, 'order-key-0001');
    expect(created.status).toBe(201);
    // A new member's first order comes with the welcome time bonus (25%, see discounts.test.ts).
    expect(created.body.order).toMatchObject({ credits: 50, amount: 746, original_amount: 995, currency: 'EUR', status: 'open', paymentmethod: 'ideal' });
    expect(created.body.checkout_url).toMatch(/^\/test-checkout\/tr_/);
    const ref = created.body.order.payment_id;
    const paid = await decide(client, ref, 'paid');
    // The site's canonical origin (localhost: this process on PORT), not the request's Host.
    expect(paid.body.redirect_url).toBe(`http://localhost:3000/credits/${created.body.order.id}`);
    // The provider may call the webhook many times, also at once; the return page polls too.
    const hooks = await Promise.all([1, 2, 3, 4, 5].map(() => webhook(ref)));
    expect(hooks.every((h) => h.status === 200)).toBe(true);
    for (let i = 0; i < 3; i++) expect((await client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe('completed');
    const me = (await client.get('/api/user.php')).body.user;
    expect(me.credits).toBe(50);
    expect(me.paid_user).toBe(true);
    const ledger = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.map((l) => [l.delta, l.reason, l.reference])).toEqual([[50, 'purchase', created.body.order.id]]);
    // A final status cannot be changed afterwards.
    await decide(client, ref, 'failed');
    await webhook(ref);
    expect((await client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe('completed');
  });

  it('returns the same order for a retried request (same idempotency key)', async () => {
    const { client, user } = await signUp(t);
    const results = await Promise.all([1, 2, 3].map(() => order(client, 'same-order-key-1')));
    const ids = new Set(results.map((r) => r.body.order.id));
    expect(ids.size).toBe(1);
    expect(await t.database.db.$count(orders, eq(orders.userId, user.id))).toBe(1);
  });

  it.each([
    ['failed', 'failed'],
    ['canceled', 'cancelled'],
    ['pending', 'pending'],
  ])('a %s payment credits nothing (order %s)', async (outcome, status) => {
    const { client } = await signUp(t);
    const created = await order(client, `order-${outcome}-key`);
    await decide(client, created.body.order.payment_id, outcome);
    await webhook(created.body.order.payment_id);
    expect((await client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe(status);
    const me = (await client.get('/api/user.php')).body.user;
    expect(me.credits).toBe(0);
    expect(me.paid_user).toBe(false);
  });

  it('completes a pending payment later, once', async () => {
    const { client } = await signUp(t);
    const created = await order(client, 'pending-then-paid');
    const ref = created.body.order.payment_id;
    await decide(client, ref, 'pending');
    await webhook(ref);
    await decide(client, ref, 'paid');
    await Promise.all([webhook(ref), webhook(ref), client.get(`/api/order.php?id=${created.body.order.id}`)]);
    expect((await client.get('/api/user.php')).body.user.credits).toBe(50);
  });

  it('keeps orders private and validates input', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const created = await order(a.client, 'private-order-1');
    expect((await b.client.get(`/api/order.php?id=${created.body.order.id}`)).status).toBe(404);
    expect((await t.client().post('/api/order.php', { package_id: 1, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'anon-order-001' })).status).toBe(403);
    expect((await a.client.post('/api/order.php', { package_id: 1, paymentmethod: 'ideal' })).body.error.code).toBe('idempotency_key_required');
    expect((await a.client.post('/api/order.php', { package_id: 99999, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'bad-package-01' })).status).toBe(404);
    expect((await a.client.post('/api/order.php', { package_id: 1, paymentmethod: 'bitcoin' }, { 'idempotency-key': 'bad-method-001' })).status).toBe(400);
    expect((await webhook('tr_unknown')).status).toBe(404);
    const [u] = await t.database.db.select().from(users).where(eq(users.id, a.user.id));
    expect(u.credits).toBe(0);
  });
});
