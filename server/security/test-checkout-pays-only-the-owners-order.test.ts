import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { creditLedger, orders } from '../db/schema.ts';
import { loadLocales } from '../i18n/i18n.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient, memberActor } from '../../tests/helpers/test-app.ts';

const en = (loadLocales() as unknown as Record<string, { errors: Record<string, string> }>).en;

async function placeOrder(client: TestClient, key: string) {
  const packages = (await client.get('/api/packages.php')).body.packages;
  return client.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': key });
}

describe.each(DATABASE_KINDS)('the test checkout pays only its owner\'s order (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  const state = async (orderId: string, userId: number) => ({
    status: (await t.database.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0].status,
    ledger: await t.database.db.$count(creditLedger, eq(creditLedger.userId, userId)),
  });

  it('an anonymous visitor cannot pay a test checkout: 403 authentication_required, nothing changes', async () => {
    const owner = await signUp(t);
    const created = await placeOrder(owner.client, 'checkout-anon-0001');
    expect(created.status).toBe(201);
    const ref = created.body.order.payment_id;
    const anonymous = t.client();
    const res = await anonymous.post('/api/test-checkout.php', { id: ref, outcome: 'paid' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('authentication_required');
    expect(await state(created.body.order.id, owner.user.id)).toEqual({ status: 'open', ledger: 0 });
    expect((await t.services.testProvider.checkout(ref))?.status).toBe('open');
  });

  it('another member cannot pay (or fail) someone else\'s test checkout: 404, nothing changes', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const created = await placeOrder(owner.client, 'checkout-other-0001');
    const ref = created.body.order.payment_id;
    for (const outcome of ['paid', 'failed', 'canceled']) {
      const res = await other.client.post('/api/test-checkout.php', { id: ref, outcome });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect(await state(created.body.order.id, owner.user.id)).toEqual({ status: 'open', ledger: 0 });
    expect(await t.database.db.$count(creditLedger, eq(creditLedger.userId, other.user.id))).toBe(0);
    // The checkout page is the owner's only, too.
    await expect(t.services.payments.testCheckout(memberActor(t, other.user.id), ref)).rejects.toMatchObject({ status: 404 });
    expect((await t.services.payments.testCheckout(memberActor(t, owner.user.id), ref)).id).toBe(ref);
  });

  it('the owner still pays their own order', async () => {
    const owner = await signUp(t);
    const created = await placeOrder(owner.client, 'checkout-owner-0001');
    const res = await owner.client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
    expect(res.status).toBe(200);
    expect((await owner.client.get('/api/user.php')).body.user.credits).toBe(50);
  });

  it('refuses the test provider once the deployment is public (a public site domain), unless the operator allows it', async () => {
    const owner = await signUp(t);
    const created = await placeOrder(owner.client, 'checkout-public-0001');
    expect(await t.services.payments.testPayments()).toBe('local');
    // The operator points the site at its real domain, without ALLOW_TEST_PAYMENTS.
    await t.services.settings.updateSite(t.siteId, { domain: 'amora.example' });
    try {
      expect(await t.services.payments.testPayments()).toBe('refused');
      const order = await placeOrder(owner.client, 'checkout-public-0002');
      expect(order.status).toBe(503);
      expect(order.body.error).toEqual({ code: 'payments_unavailable', message: en.errors.payments_unavailable });
      // The checkout made before is gone for everyone, its owner included; the webhook does nothing either.
      const pay = await owner.client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
      expect(pay.status).toBe(404);
      await expect(t.services.payments.testCheckout(memberActor(t, owner.user.id), created.body.order.payment_id)).rejects.toMatchObject({ status: 404 });
      const hook = await t.app.request('http://localhost/api/payment-webhook.php?provider=test', {
        method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${created.body.order.payment_id}`,
      });
      expect(hook.status).toBe(404);
      expect(await state(created.body.order.id, owner.user.id)).toEqual({ status: 'open', ledger: 0 });
    } finally {
      await t.services.settings.updateSite(t.siteId, { domain: 'localhost' });
    }
  });
});

describe.each(DATABASE_KINDS)('the test provider on a public origin is the operator\'s explicit choice (%s)', (kind) => {
  let refused: TestApp;
  let allowed: TestApp;
  beforeAll(async () => {
    refused = await createTestApp(kind, { profiles: 0, env: { PUBLIC_URL: 'https://amora.example' } });
    allowed = await createTestApp(kind, { profiles: 0, env: { PUBLIC_URL: 'https://amora.example', ALLOW_TEST_PAYMENTS: '1' } });
  });
  afterAll(async () => {
    await refused.close();
    await allowed.close();
  });

  it('answers payments_unavailable in the member\'s language without ALLOW_TEST_PAYMENTS', async () => {
    const { client } = await signUp(refused);
    await client.put('/api/user.php', { language: 'nl' });
    const res = await placeOrder(client, 'checkout-refused-01');
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('payments_unavailable');
    expect(res.body.error.message).not.toBe(en.errors.payments_unavailable);
    expect(await refused.database.db.$count(orders)).toBe(0);
  });

  it('works with ALLOW_TEST_PAYMENTS=1 and reports the public test mode (site-wide banner)', async () => {
    expect(await allowed.services.payments.testPayments()).toBe('public');
    const { client } = await signUp(allowed);
    const created = await placeOrder(client, 'checkout-allowed-01');
    expect(created.status).toBe(201);
    expect((await client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' })).status).toBe(200);
    expect((await client.get('/api/user.php')).body.user.credits).toBe(50);
  });
});
