import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { companies, creditLedger, orders, paymentAccounts, paymentMandates, payments, sites, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient, memberActor } from '../../tests/helpers/test-app.ts';
import { SYSTEM } from '../../tests/helpers/staff.ts';
import { startFakeMollie, type FakeMollie } from '../../tests/helpers/fake-mollie.ts';
import { dashboardFigures, dashboardPeriod } from '../reports/dashboard.ts';

const KEY_A = 'test_siteAkeyAAAAAAAAAAAAAAAAAAAAAAAAA';
const KEY_B = 'test_companyBkeyBBBBBBBBBBBBBBBBBBBBBBB';

describe.each(DATABASE_KINDS)('Mollie, per-site providers and repeat orders on %s', (kind) => {
  let t: TestApp;
  let mollie: FakeMollie;
  /** Every API answer of these tests: none may carry a provider secret. */
  const answers: string[] = [];

  const record = (client: TestClient): TestClient => {
    const request = client.request.bind(client);
    client.request = async (...args: Parameters<TestClient['request']>) => {
      const res = await request(...args);
      answers.push(JSON.stringify(res.body));
      return res;
    };
    return client;
  };
  const member = async (overrides: Record<string, unknown> = {}) => {
    const m = await signUp(t, overrides);
    return { ...m, client: record(m.client) };
  };
  /** A member of another site (another host): signs up there. */
  const memberOf = async (host: string) => {
    const client = record(t.client({ host }));
    const res = await client.post('/api/signup.php', {
      email: `b${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.org`, name: 'Tester', password: 'correct horse battery',
      date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
    });
    expect(res.status).toBe(201);
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, res.body.user.id));
    return { client, user: res.body.user as { id: number } };
  };
  const packages = async (client: TestClient) => (await client.get('/api/packages.php')).body.packages as { id: number; amount: number }[];
  const order = async (client: TestClient, key: string, body: Record<string, unknown> = {}) => {
    const [first] = await packages(client);
    return client.post('/api/order.php', { package_id: first.id, paymentmethod: 'ideal', withdrawal_consent: true, ...body }, { 'idempotency-key': key });
  };
  const webhook = (body: string, host = 'localhost', type = 'application/x-www-form-urlencoded', provider = 'mollie') =>
    t.app.request(`http://${host}/api/payment-webhook.php?provider=${provider}`, { method: 'POST', headers: { host, 'content-type': type }, body });
  const credits = async (userId: number) => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c;

  beforeAll(async () => {
    mollie = await startFakeMollie();
    mollie.addKey(KEY_A);
    mollie.addKey(KEY_B);
    t = await createTestApp(kind, { profiles: 0, env: { MOLLIE_API_ENDPOINT: mollie.url } });
    const db = t.database.db;
    // Site A (localhost) has its own Mollie account.
    await db.insert(paymentAccounts).values({ siteId: t.siteId, provider: 'mollie', apiKey: KEY_A });
    // Site B (b.example) belongs to another company, whose Mollie account it falls back to.
    const [siteA] = await db.select().from(sites).where(eq(sites.id, t.siteId));
    const [companyA] = await db.select().from(companies).where(eq(companies.id, siteA.companyId));
    const { id: _c, added: _a, ...companyFields } = companyA;
    const [companyB] = await db.insert(companies).values({ ...companyFields, name: 'Company B' }).returning();
    const { id: _s, createdAt: _t, ...siteFields } = siteA;
    const [siteB] = await db.insert(sites).values({ ...siteFields, domain: 'b.example', isDefault: false, companyId: companyB.id, name: 'Site B' }).returning();
    await db.insert(paymentAccounts).values({ companyId: companyB.id, provider: 'mollie', apiKey: KEY_B });
    // Site C (c.example) has no account: the built-in test provider.
    await db.insert(sites).values({ ...siteFields, domain: 'c.example', isDefault: false, companyId: companyA.id, name: 'Site C' });
    await t.services.settings.updateSite(siteB.id, { name: 'Site B' });
  });
  afterAll(async () => {
    await t.close();
    await mollie.close();
  });

  it('lists the methods of the site\'s provider per country and amount, and refuses one it does not offer', async () => {
    const nl = await member({ country: 'NL' });
    const res = await nl.client.get('/api/payment-methods.php');
    expect(res.status).toBe(200);
    const ids = res.body.methods.map((m: { id: string }) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['ideal', 'creditcard', 'paypal', 'banktransfer', 'applepay']));
    expect(ids).not.toContain('bancontact');
    const pk = await packages(nl.client);
    // Trustly (from 20.00) only for the bundles that cost that much.
    const trustly = res.body.methods.find((m: { id: string }) => m.id === 'trustly');
    expect(trustly.package_ids).toEqual(pk.filter((p) => p.amount >= 2000).map((p) => p.id));
    expect(res.body.recurring.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['ideal', 'creditcard', 'paypal']));
    expect(res.body.recurring.map((m: { id: string }) => m.id)).not.toContain('banktransfer');
    // Cached briefly: asking again does not call Mollie again.
    const before = mollie.requests.filter((r) => r.path === '/v2/methods').length;
    await nl.client.get('/api/payment-methods.php');
    expect(mollie.requests.filter((r) => r.path === '/v2/methods').length).toBe(before);

    const be = await member({ country: 'BE' });
    const beIds = (await be.client.get('/api/payment-methods.php')).body.methods.map((m: { id: string }) => m.id);
    expect(beIds).toContain('bancontact');
    expect(beIds).not.toContain('ideal');

    const refused = await order(nl.client, 'mollie-blik-0001', { paymentmethod: 'blik' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('payment_method_unavailable');
    expect(await t.database.db.$count(orders, eq(orders.userId, nl.user.id))).toBe(0);
  });

  it('creates the payment at Mollie with the site\'s key; the webhook fetches it by id and books the credits once', async () => {
    const { client, user } = await member();
    const created = await order(client, 'mollie-order-0001');
    expect(created.status).toBe(201);
    expect(created.body.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\/checkout\//);
    const ref = created.body.order.payment_id as string;
    const remote = mollie.payment(ref)!;
    // A new member's first bundle carries the 25% welcome time bonus: Mollie is asked for the discounted price of the 9.95 bundle.
    expect(remote).toMatchObject({ amount: { value: '7.46', currency: 'EUR' }, method: 'ideal', sequenceType: 'oneoff', metadata: { order_id: created.body.order.id } });
    expect(remote.webhookUrl).toBe('http://localhost:3000/api/payment-webhook.php?provider=mollie');
    expect(mollie.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').at(-1)!.key).toBe(KEY_A);

    // Not paid yet: the webhook changes nothing.
    const early = await webhook(`id=${ref}`);
    expect(early.status).toBe(200);
    expect((await early.json()).status).toBe('open');
    expect(await credits(user.id)).toBe(0);

    mollie.setStatus(ref, 'paid');
    const hooks = await Promise.all([1, 2, 3, 4, 5].map(() => webhook(`id=${ref}`)));
    expect(hooks.map((h) => h.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe('completed');
    expect(await credits(user.id)).toBe(50);
    expect(await t.database.db.$count(creditLedger, eq(creditLedger.userId, user.id))).toBe(1);
    // A retried order request answers the same order and creates nothing at Mollie.
    const posts = mollie.requests.filter((r) => r.path === '/v2/payments' && r.method === 'POST').length;
    expect((await order(client, 'mollie-order-0001')).body.order.id).toBe(created.body.order.id);
    expect(mollie.requests.filter((r) => r.path === '/v2/payments' && r.method === 'POST').length).toBe(posts);
  });

  it('a chargeback at Mollie marks the payment charged_back on the day the webhook reports it; the order and its credits stay', async () => {
    const { client, user } = await member();
    const created = await order(client, 'mollie-chargeback-0001');
    const ref = created.body.order.payment_id as string;
    mollie.setStatus(ref, 'paid');
    expect((await webhook(`id=${ref}`)).status).toBe(200);
    expect(await credits(user.id)).toBe(50);
    const day = t.clock().toISOString().slice(0, 10);
    const chargebacks = async () => (await dashboardFigures(t.database.db, dashboardPeriod({ from: day, to: day, bucket: 'day' }, t.clock()), 'day', [t.siteId], t.siteId)).chargebacks;
    const before = await chargebacks();

    mollie.chargeBack(ref);
    const hook = await webhook(`id=${ref}`);
    expect(hook.status).toBe(200);
    expect((await hook.json()).status).toBe('completed');
    const [payment] = await t.database.db.select().from(payments).where(and(eq(payments.provider, 'mollie'), eq(payments.providerRef, ref)));
    expect(payment.status).toBe('charged_back');
    expect((await client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe('completed');
    expect(await credits(user.id)).toBe(50);
    const cents = Math.round(Number(mollie.payment(ref)!.amount.value) * 100);
    const after = await chargebacks();
    const count = (rows: typeof after) => rows.reduce((n, r) => n + r.orders, 0);
    const sum = (rows: typeof after) => rows.reduce((n, r) => n + r.cents, 0);
    expect(count(after) - count(before)).toBe(1);
    expect(sum(after) - sum(before)).toBe(cents);

    // Mollie calls again the next day: the chargeback keeps its day.
    t.clock.advance(86_400_000);
    try {
      expect((await webhook(`id=${ref}`)).status).toBe(200);
      const [again] = await t.database.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(again.updatedAt).toEqual(payment.updatedAt);
    } finally {
      t.clock.advance(-86_400_000);
    }
  });

  it('cancels an open order at Mollie, and refunds a paid one through Mollie with the amount charged', async () => {
    const { client, user } = await member();
    const open = await order(client, 'mollie-cancel-0001');
    const openRef = open.body.order.payment_id as string;
    const cancelled = await client.post('/api/order-cancel.php', { id: open.body.order.id });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.order.status).toBe('cancelled');
    expect(mollie.payment(openRef)!.status).toBe('canceled');
    expect(mollie.requests.some((r) => r.method === 'DELETE' && r.path === `/v2/payments/${openRef}`)).toBe(true);

    const paid = await order(client, 'mollie-refund-0001');
    const paidRef = paid.body.order.payment_id as string;
    mollie.setStatus(paidRef, 'paid');
    expect((await webhook(`id=${paidRef}`)).status).toBe(200);
    expect(await credits(user.id)).toBe(50);
    // A paid payment cannot be cancelled any more: 409, and nothing changes at Mollie.
    expect((await client.post('/api/order-cancel.php', { id: paid.body.order.id })).status).toBe(409);
    expect(mollie.payment(paidRef)!.status).toBe('paid');
    // A part first, then the rest: Mollie is asked for each part's own amount.
    const total = Math.round(Number(mollie.payment(paidRef)!.amount.value) * 100);
    await t.services.records.refundOrder(SYSTEM, paid.body.order.id, { reason: 'One bundle too many', amountCents: 200, idempotencyKey: 'mollie-refund-part' });
    expect(await credits(user.id)).toBe(50 - Math.floor((50 * 200) / total));
    await t.services.records.refundOrder(SYSTEM, paid.body.order.id, { reason: 'Asked for within the refund period', idempotencyKey: 'mollie-refund-rest' });
    expect(mollie.refunds.filter((r) => r.paymentId === paidRef)).toEqual([
      expect.objectContaining({ amount: { value: '2.00', currency: 'EUR' } }),
      expect.objectContaining({ amount: { value: ((total - 200) / 100).toFixed(2), currency: 'EUR' } }),
    ]);
    expect(await credits(user.id)).toBe(0);
  });

  it('webhook: unknown ids change nothing (404), bad input is refused (400), unknown providers do not exist', async () => {
    expect((await webhook('id=tr_doesnotexist')).status).toBe(404);
    expect((await webhook('')).status).toBe(400);
    expect((await webhook('id=tr_%27%3B--')).status).toBe(400);
    expect((await webhook('[1,2]', 'localhost', 'application/json')).status).toBe(400);
    expect((await webhook('{"id":{"x":1}}', 'localhost', 'application/json')).status).toBe(400);
    expect((await webhook('id=tr_abc', 'localhost', 'application/x-www-form-urlencoded', 'stripe')).status).toBe(404);
    const failed = await member();
    const created = await order(failed.client, 'mollie-failed-001');
    mollie.setStatus(created.body.order.payment_id, 'failed');
    expect((await webhook(`id=${created.body.order.payment_id}`)).status).toBe(200);
    expect((await failed.client.get(`/api/order.php?id=${created.body.order.id}`)).body.order.status).toBe('failed');
    expect(await credits(failed.user.id)).toBe(0);
  });

  it('provider down: the order stays open and a retry with the same key creates its payment', async () => {
    const { client, user } = await member();
    await client.get('/api/payment-methods.php');
    mollie.down = true;
    let res;
    try {
      res = await order(client, 'mollie-down-0001');
    } finally {
      mollie.down = false;
    }
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('payment_provider_unavailable');
    const [open] = await t.database.db.select().from(orders).where(eq(orders.userId, user.id));
    expect(open.status).toBe('open');
    expect(await t.database.db.$count(payments, eq(payments.orderId, open.id))).toBe(0);
    const retried = await Promise.all([1, 2].map(() => order(client, 'mollie-down-0001')));
    expect(retried.map((r) => r.status)).toEqual([201, 201]);
    expect(retried[0].body.order.id).toBe(open.id);
    expect(retried[1].body.order.payment_id).toBe(retried[0].body.order.payment_id);
    expect(await t.database.db.$count(payments, eq(payments.orderId, open.id))).toBe(1);
    expect(retried[0].body.checkout_url).toMatch(/^https:\/\/www\.mollie\.com\//);
  });

  it('recurring: a first payment leaves a mandate; a repeat order charges it in one click; cancel revokes it at Mollie', async () => {
    const { client, user } = await member();
    const first = await order(client, 'mollie-first-0001', { paymentmethod: 'creditcard', recurring: true });
    expect(first.status).toBe(201);
    const remote = mollie.payment(first.body.order.payment_id)!;
    expect(remote.sequenceType).toBe('first');
    expect(remote.customerId).toMatch(/^cst_/);
    mollie.setStatus(remote.id, 'paid');
    expect((await webhook(`id=${remote.id}`)).status).toBe(200);
    const listed = (await client.get('/api/mandates.php')).body.mandates;
    expect(listed).toEqual([expect.objectContaining({ method: 'creditcard', details: 'Mastercard •••• 6787', status: 'valid' })]);
    const [stored] = await t.database.db.select().from(paymentMandates).where(eq(paymentMandates.userId, user.id));
    expect(stored).toMatchObject({ provider: 'mollie', customerId: remote.customerId, mandateId: remote.mandateId });

    const pk = await packages(client);
    const repeat = (key: string, mandateId = listed[0].id) =>
      client.post('/api/repeat-order.php', { package_id: pk[1].id, mandate_id: mandateId, withdrawal_consent: true }, { 'idempotency-key': key });
    // Each repeat order is a new contract: without the withdrawal consent it is refused, in the member's language.
    const paymentsPosted = () => mollie.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').length;
    const postedBefore = paymentsPosted();
    for (const consent of [undefined, false, 'yes']) {
      const refused = await client.post('/api/repeat-order.php', { package_id: pk[1].id, mandate_id: listed[0].id, withdrawal_consent: consent }, { 'idempotency-key': 'repeat-noconsent' });
      expect([refused.status, refused.body.error.message]).toEqual([400, 'Please confirm that delivery starts at once and that you thereby lose your right of withdrawal.']);
    }
    expect(await t.database.db.$count(orders, eq(orders.idempotencyKey, 'repeat-noconsent'))).toBe(0);
    expect(paymentsPosted()).toBe(postedBefore);
    const [r1, r2] = await Promise.all([repeat('repeat-key-00001'), repeat('repeat-key-00001')]);
    expect(r1.status).toBe(201);
    expect(r2.body.order.id).toBe(r1.body.order.id);
    expect(r1.body.checkout_url).toBeNull();
    expect(r1.body.order.status).toBe('completed');
    const charged = mollie.payment(r1.body.order.payment_id)!;
    expect(charged).toMatchObject({ sequenceType: 'recurring', mandateId: remote.mandateId, customerId: remote.customerId });
    expect(await credits(user.id)).toBe(50 + 150);
    const repeated = await t.database.db.select().from(orders).where(and(eq(orders.userId, user.id), eq(orders.idempotencyKey, 'repeat-key-00001')));
    expect(repeated).toHaveLength(1);
    expect(repeated[0].withdrawalConsentAt).toEqual(t.clock());

    // Someone else's mandate does not exist for them.
    const other = await member();
    expect((await other.client.post('/api/repeat-order.php', { package_id: pk[0].id, mandate_id: listed[0].id, withdrawal_consent: true }, { 'idempotency-key': 'repeat-other-001' })).status).toBe(404);
    expect((await other.client.delete(`/api/mandates.php?id=${listed[0].id}`)).status).toBe(404);
    expect((await client.delete('/api/mandates.php?id=abc')).status).toBe(400);
    expect((await client.post('/api/repeat-order.php', { package_id: pk[0].id, withdrawal_consent: true }, { 'idempotency-key': 'repeat-bad-00001' })).status).toBe(400);
    expect((await client.post('/api/repeat-order.php', { package_id: pk[0].id, mandate_id: listed[0].id, withdrawal_consent: true })).status).toBe(400);

    const cancelled = await client.delete(`/api/mandates.php?id=${listed[0].id}`);
    expect(cancelled.status).toBe(200);
    expect(mollie.mandate(remote.mandateId!)!.status).toBe('invalid');
    expect(mollie.requests.some((r) => r.method === 'DELETE' && r.path === `/v2/customers/${remote.customerId}/mandates/${remote.mandateId}`)).toBe(true);
    expect((await client.get('/api/mandates.php')).body.mandates).toEqual([]);
    const after = await repeat('repeat-key-00002');
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('mandate_not_found');
    expect(await credits(user.id)).toBe(200);
  });

  it('a SEPA direct debit repeat order stays pending until Mollie reports it paid through the webhook', async () => {
    const { client, user } = await member();
    const first = await order(client, 'mollie-first-sepa1', { paymentmethod: 'ideal', recurring: true });
    mollie.setStatus(first.body.order.payment_id, 'paid');
    await webhook(`id=${first.body.order.payment_id}`);
    const [m] = (await client.get('/api/mandates.php')).body.mandates;
    const pk = await packages(client);
    const res = await client.post('/api/repeat-order.php', { package_id: pk[0].id, mandate_id: m.id, withdrawal_consent: true }, { 'idempotency-key': 'repeat-sepa-0001' });
    expect(res.status).toBe(201);
    expect(res.body.order.status).toBe('pending');
    expect(await credits(user.id)).toBe(50);
    mollie.setStatus(res.body.order.payment_id, 'paid');
    await Promise.all([webhook(`id=${res.body.order.payment_id}`), webhook(`id=${res.body.order.payment_id}`)]);
    expect((await client.get(`/api/order.php?id=${res.body.order.id}`)).body.order.status).toBe('completed');
    expect(await credits(user.id)).toBe(100);
  });

  it('a mandate revoked at the bank is refused with mandate_invalid and charges nothing', async () => {
    const { client, user } = await member();
    const first = await order(client, 'mollie-first-0002', { paymentmethod: 'ideal', recurring: true });
    mollie.setStatus(first.body.order.payment_id, 'paid');
    await webhook(`id=${first.body.order.payment_id}`);
    const [m] = (await client.get('/api/mandates.php')).body.mandates;
    expect(m).toMatchObject({ method: 'directdebit', details: 'NL•• •••• 0000' });
    mollie.mandate(mollie.payment(first.body.order.payment_id)!.mandateId!)!.status = 'invalid';
    const pk = await packages(client);
    const res = await client.post('/api/repeat-order.php', { package_id: pk[0].id, mandate_id: m.id, withdrawal_consent: true }, { 'idempotency-key': 'repeat-invalid-01' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('mandate_invalid');
    expect(await credits(user.id)).toBe(50);
  });

  it('each site pays through its own provider and credentials (site account, company account, built-in test provider)', async () => {
    const b = await memberOf('b.example');
    const created = await order(b.client, 'site-b-order-001');
    expect(created.status).toBe(201);
    expect(mollie.requests.filter((r) => r.method === 'POST' && r.path === '/v2/payments').at(-1)!.key).toBe(KEY_B);
    // Site A's key does not know site B's payment: the webhook fetched it with B's key.
    mollie.setStatus(created.body.order.payment_id, 'paid');
    expect((await webhook(`id=${created.body.order.payment_id}`, 'localhost')).status).toBe(200);
    expect(await credits(b.user.id)).toBe(50);
    expect(mollie.requests.filter((r) => r.method === 'GET' && r.path === `/v2/payments/${created.body.order.payment_id}`).every((r) => r.key === KEY_B)).toBe(true);

    const c = await memberOf('c.example');
    const test = await order(c.client, 'site-c-order-001');
    expect(test.status).toBe(503); // the test provider on a public domain without ALLOW_TEST_PAYMENTS
    expect(await t.services.payments.testPayments((await t.database.db.select().from(sites).where(eq(sites.domain, 'c.example')))[0].id)).toBe('refused');
    expect(await t.services.payments.testPayments(t.siteId)).toBe('none');
  });

  it('never answers with a provider secret', async () => {
    const { client } = await member();
    await client.get('/api/user.php');
    await client.get('/api/settings.php');
    expect(answers.length).toBeGreaterThan(20);
    for (const body of answers) {
      expect(body).not.toContain(KEY_A);
      expect(body).not.toContain(KEY_B);
      expect(body).not.toContain('api_key');
    }
  });
});

describe.each(DATABASE_KINDS)('repeat orders with the built-in test provider on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  it('a chargeback at the test provider marks the payment charged_back and fills the dashboard\'s chargebacks', async () => {
    const { client } = await signUp(t);
    const pk = (await client.get('/api/packages.php')).body.packages;
    const created = await client.post('/api/order.php', { package_id: pk[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'test-chargeback-0001' });
    const ref = created.body.order.payment_id as string;
    // Only a paid payment can be taken back.
    expect(await t.services.testProvider.chargeBack(ref)).toBe(false);
    await client.post('/api/test-checkout.php', { id: ref, outcome: 'paid' });
    expect(await t.services.testProvider.chargeBack(ref)).toBe(true);
    const hook = await t.app.request('http://localhost/api/payment-webhook.php?provider=test', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${ref}`,
    });
    expect(hook.status).toBe(200);
    expect((await hook.json()).status).toBe('completed');
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.providerRef, ref));
    expect(payment.status).toBe('charged_back');
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, payment.orderId));
    const day = t.clock().toISOString().slice(0, 10);
    const report = await dashboardFigures(t.database.db, dashboardPeriod({ from: day, to: day, bucket: 'day' }, t.clock()), 'day', [t.siteId], t.siteId);
    expect(report.chargebacks).toEqual([{ bucket: day, currency: row.currency, orders: 1, cents: row.amountCents }]);
  });

  it('the test checkout keeps a mandate for a first payment; the repeat order is charged on it', async () => {
    const { client, user } = await signUp(t);
    const pk = (await client.get('/api/packages.php')).body.packages;
    const methods = (await client.get('/api/payment-methods.php')).body;
    expect(methods.recurring.map((m: { id: string }) => m.id)).toContain('ideal');
    const created = await client.post('/api/order.php', { package_id: pk[0].id, paymentmethod: 'ideal', recurring: true, withdrawal_consent: true }, { 'idempotency-key': 'test-first-0001' });
    expect(created.body.checkout_url).toMatch(/^\/test-checkout\//);
    await client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
    const [mandate] = (await client.get('/api/mandates.php')).body.mandates;
    expect(mandate).toMatchObject({ method: 'directdebit', details: 'NL•• •••• 4300', status: 'valid' });
    const repeat = await client.post('/api/repeat-order.php', { package_id: pk[0].id, mandate_id: mandate.id, withdrawal_consent: true }, { 'idempotency-key': 'test-repeat-0001' });
    expect(repeat.status).toBe(201);
    expect(repeat.body.order.status).toBe('completed');
    expect((await client.get('/api/user.php')).body.user.credits).toBe(100);
    expect(await t.services.payments.hasRepeatOrder(memberActor(t, user.id))).toBe(true);
    expect((await client.delete(`/api/mandates.php?id=${mandate.id}`)).status).toBe(200);
    expect(await t.services.payments.hasRepeatOrder(memberActor(t, user.id))).toBe(false);
  });

  it('the operator sets a site\'s or company\'s account; listings mask the key; a malformed key is refused', async () => {
    const key = 'live_abcdefghijklmnopqrstuvwxyz123456';
    await expect(t.services.paymentProviders.setAccount({ siteId: t.siteId }, 'mollie', 'sk_live_123')).rejects.toThrow(/Mollie API key/);
    await t.services.paymentProviders.setAccount({ siteId: t.siteId }, 'mollie', key);
    const listed = await t.services.paymentProviders.accounts();
    expect(listed).toEqual([expect.objectContaining({ site: 'localhost', provider: 'mollie', key: 'live_••••3456' })]);
    expect(JSON.stringify(listed)).not.toContain(key);
    expect((await t.services.paymentProviders.forSite(t.siteId)).provider.name).toBe('mollie');
    await t.services.paymentProviders.setAccount({ siteId: t.siteId }, 'test');
    expect((await t.services.paymentProviders.forSite(t.siteId)).provider.name).toBe('test');
  });
});
