import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { auditLog, companies, creditLedger, directDebitRequests, orders, paymentAccounts, payments, sites, testCheckouts, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient, memberActor } from '../../tests/helpers/test-app.ts';
import { SYSTEM } from '../../tests/helpers/staff.ts';
import { startFakeMollie, type FakeMollie } from '../../tests/helpers/fake-mollie.ts';
import { SmsUnavailableError, type createMemorySmsSender } from '../infra/sms/sms.ts';
import { createDirectDebitService } from './direct-debit.service.ts';

const KEY = 'test_directdebitkeyDDDDDDDDDDDDDDDDDDD';
const IBAN = 'NL91ABNA0417164300';

describe.each(DATABASE_KINDS)('Direct debit with an SMS code on %s', (kind) => {
  let t: TestApp;
  let mollie: FakeMollie;
  let mollieSite: number;
  let phoneCounter = 0;
  /** Each test its own number, so the per-number SMS limit of one test does not reach another. */
  const newPhone = () => `+3161234${String(++phoneCounter).padStart(4, '0')}`;
  const details = (overrides: Record<string, unknown> = {}) => ({
    package_id: 0, account_holder: 'Jan Jansen', iban: 'nl91 abna 0417 1643 00', street: 'Damrak', house_number: '1', zip: '1012 LG',
    city: 'Amsterdam', mobile: newPhone(), mandate_consent: true, withdrawal_consent: true, ...overrides,
  });
  const sent = () => (t.services.sms as ReturnType<typeof createMemorySmsSender>).sent;
  const codeFor = (to: string) => {
    const sms = sent().filter((m) => m.to === to).at(-1);
    return sms?.text.match(/\b(\d{6})\b/)?.[1] ?? null;
  };
  const firstPackage = async (client: TestClient) => ((await client.get('/api/packages.php')).body.packages as { id: number; amount: number; credits: number }[])[0];
  const start = async (client: TestClient, overrides: Record<string, unknown> = {}) => {
    const pkg = await firstPackage(client);
    const body = details({ package_id: pkg.id, ...overrides });
    const res = await client.post('/api/directdebit.php', body);
    return { res, phone: normalised(body.mobile as string) };
  };
  const normalised = (phone: string) => phone.replace(/[\s-]/g, '');
  const confirm = (client: TestClient, request: string, code: string) => client.post('/api/directdebit-confirm.php', { request, code });
  const credits = async (userId: number) => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c;
  const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

  beforeAll(async () => {
    mollie = await startFakeMollie();
    mollie.addKey(KEY);
    // A second domain makes the deployment public: simulated payments then need the operator's consent.
    t = await createTestApp(kind, { profiles: 0, env: { MOLLIE_API_ENDPOINT: mollie.url, ALLOW_TEST_PAYMENTS: '1' } });
    const db = t.database.db;
    // localhost takes payments with the built-in test provider; m.example with its own Mollie account.
    const [site] = await db.select().from(sites).where(eq(sites.id, t.siteId));
    const { id: _s, createdAt: _t, ...siteFields } = site;
    const [m] = await db.insert(sites).values({ ...siteFields, domain: 'm.example', isDefault: false, name: 'Site M' }).returning();
    mollieSite = m.id;
    await db.insert(paymentAccounts).values({ siteId: m.id, provider: 'mollie', apiKey: KEY });
    expect(await db.$count(companies)).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await t.close();
    await mollie.close();
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const { client, user } = await signUp(t);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ iban: 'NL92ABNA0417164300' }, 'iban', 'errors.iban_invalid'],
      [{ iban: 'BR1800360305000010009795493C1' }, 'iban', 'errors.iban_not_sepa'],
      [{ mobile: '0612345678' }, 'mobile', 'errors.phone_invalid'],
      [{ mandate_consent: false }, 'mandate_consent', 'errors.mandate_consent_required'],
      [{ street: 'Dam\u202Erak' }, 'street', 'errors.text_invalid_characters'],
      [{ package_id: 2_147_483_648 }, 'package_id', 'errors.package_not_found'],
    ];
    for (const [overrides, field, key] of cases) {
      const { res } = await start(client, overrides);
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.error.code).toBe(key.replace('errors.', ''));
      expect(Object.keys(res.body.error.details)).toEqual([field]);
    }
    // Unknown bundle, wrong JSON type, no body, not signed in.
    expect((await start(client, { package_id: 999_999 })).res.status).toBe(404);
    expect((await client.request('POST', '/api/directdebit.php', undefined, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await client.post('/api/directdebit.php', [])).status).toBe(400);
    expect((await client.post('/api/directdebit-confirm.php', { request: 'dd_x'.repeat(40), code: '123456' })).status).toBe(400);
    expect((await client.post('/api/directdebit-confirm.php', { request: 'dd_unknown', code: 'abcdef' })).status).toBe(400);
    expect((await t.client().post('/api/directdebit.php', details())).status).toBe(403);
    expect(await t.database.db.$count(directDebitRequests, eq(directDebitRequests.userId, user.id))).toBe(0);
    expect(sent().length).toBe(0);
  });

  it('is offered in euros only, before any SMS is sent', async () => {
    const { client } = await signUp(t, { country: 'PL' });
    const refused = await start(client);
    expect(refused.res.status).toBe(422);
    expect(refused.res.body.error.code).toBe('direct_debit_unavailable');
    expect(codeFor(refused.phone)).toBeNull();
  });

  it('keeps no request when the SMS gateway fails, so the member can simply try again', async () => {
    const { client, user } = await signUp(t);
    const failing = createDirectDebitService({
      db: t.database.db, clock: t.clock, audit: t.services.audit, payments: t.services.payments, discounts: t.services.discounts, site: t.services.settings.site,
      sms: { kind: 'http', send: async () => { throw new SmsUnavailableError('down'); } },
    });
    await expect(failing.start(memberActor(t, user.id), {
      discountCode: null, language: 'en',
      form: { ...details({ package_id: (await firstPackage(client)).id }), iban: IBAN, mobile: newPhone() } as never,
    })).rejects.toMatchObject({ status: 502, code: 'sms_unavailable' });
    expect(await t.database.db.$count(directDebitRequests, eq(directDebitRequests.userId, user.id))).toBe(0);
  });

  it('forgets requests never confirmed a day later, and keeps confirmed ones', async () => {
    const { client, user } = await signUp(t);
    const open = await start(client);
    const used = await start(client);
    await confirm(client, used.res.body.request, codeFor(used.phone)!);
    t.clock.advance(23 * 3_600_000);
    await t.services.directDebit.purgeUnconfirmed();
    expect(await t.database.db.$count(directDebitRequests, eq(directDebitRequests.userId, user.id))).toBe(2);
    t.clock.advance(2 * 3_600_000);
    await t.services.directDebit.purgeUnconfirmed();
    const left = await t.database.db.select().from(directDebitRequests).where(eq(directDebitRequests.userId, user.id));
    expect(left.map((r) => r.id)).toEqual([used.res.body.request]);
    expect(left[0].iban).toBe('NL•• •••• 4300');
    expect(open.res.status).toBe(201);
  });

  it('refuses a blocked IBAN or mobile number, everywhere or on the site that blocked it', async () => {
    const { client, user } = await signUp(t);
    await t.services.directDebit.block(SYSTEM, { kind: 'iban', value: 'DE89 3704 0044 0532 0130 00', reason: 'chargebacks' });
    const blockedIban = await start(client, { iban: 'de89370400440532013000' });
    expect(blockedIban.res.status).toBe(422);
    expect(blockedIban.res.body.error.code).toBe('iban_blocked');
    expect(Object.keys(blockedIban.res.body.error.details)).toEqual(['iban']);

    const phone = '+31687654321';
    await t.services.directDebit.block(SYSTEM, { kind: 'phone', value: '0031 6 8765 4321', siteDomain: 'localhost' });
    const blockedPhone = await start(client, { mobile: '+31 6 87654321' });
    expect(blockedPhone.res.status).toBe(422);
    expect(blockedPhone.res.body.error.code).toBe('phone_blocked');
    // Blocked on localhost only: a member of another site may use the number.
    const other = await t.services.directDebit.start({ kind: 'member', userId: user.id, siteId: mollieSite }, {
      discountCode: null, language: 'en',
      form: { ...details({ package_id: (await firstPackage(client)).id }), iban: IBAN, mobile: phone } as never,
    });
    expect(other.id).toMatch(/^dd_/);
    // Only hashes are stored, and a listing shows them masked.
    const blocks = await t.services.directDebit.blocks(SYSTEM);
    expect(blocks.map((b) => b.masked)).toEqual(expect.arrayContaining(['DE•• •••• 3000', '+31\u00a0••••\u00a04321']));
    expect(JSON.stringify(blocks)).not.toContain('0532013000');
    // Blocking again changes nothing and writes nothing to the audit log.
    await t.services.directDebit.block(SYSTEM, { kind: 'iban', value: 'DE89370400440532013000', reason: 'again' });
    expect(await t.services.directDebit.unblock(SYSTEM, { kind: 'iban', value: 'DE89370400440532013000' })).toBe(1);
    expect((await start(client, { iban: 'DE89370400440532013000' })).res.status).toBe(201);
    const audited = await t.database.db.select({ action: auditLog.action, role: auditLog.role }).from(auditLog)
      .where(inArray(auditLog.action, ['payment_block.add', 'payment_block.remove'])).orderBy(auditLog.id);
    expect(audited).toEqual([
      { action: 'payment_block.add', role: 'system' }, { action: 'payment_block.add', role: 'system' }, { action: 'payment_block.remove', role: 'system' },
    ]);
  });

  it('refuses more direct debit than the 30-day limit, counting open, pending and completed orders', async () => {
    const { client, user } = await signUp(t);
    const pkg = await firstPackage(client);
    const order = (id: string, amountCents: number, status: 'pending' | 'failed', daysAgo: number) => t.database.db.insert(orders).values({
      id, userId: user.id, packageId: pkg.id, credits: 50, amountCents, currency: 'EUR', paymentmethod: 'directdebit', status,
      idempotencyKey: id, createdAt: new Date(t.clock().getTime() - daysAgo * 86_400_000),
    });
    // 145.00 pending + the bundle's 7.46 is over 150.00.
    await order(`ord_limit_a_${kind}`, 14_500, 'pending', 3);
    await order(`ord_limit_b_${kind}`, 50_000, 'failed', 1);
    await order(`ord_limit_c_${kind}`, 50_000, 'pending', 31);
    const refused = await start(client);
    expect(refused.res.status).toBe(409);
    expect(refused.res.body.error.code).toBe('direct_debit_limit_reached');
    expect(refused.res.body.error.message).toContain('150');
    expect(codeFor(refused.phone)).toBeNull();
    await t.database.db.update(orders).set({ status: 'failed' }).where(eq(orders.id, `ord_limit_a_${kind}`));
    expect((await start(client)).res.status).toBe(201);
  });

  it('sends at most 3 codes to a number an hour', async () => {
    const { client } = await signUp(t);
    const mobile = newPhone();
    for (let i = 0; i < 3; i++) expect((await start(client, { mobile })).res.status).toBe(201);
    const fourth = await start(client, { mobile });
    expect(fourth.res.status).toBe(429);
    expect(fourth.res.body.error.code).toBe('sms_limit_reached');
    expect(sent().filter((m) => m.to === mobile)).toHaveLength(3);
    t.clock.advance(61 * 60_000);
    expect((await start(client, { mobile })).res.status).toBe(201);
  });

  it('counts wrong codes, locks after 5 and lets a code expire after 10 minutes', async () => {
    const { client } = await signUp(t);
    const first = await start(client);
    expect(first.res.status).toBe(201);
    expect(first.res.body).toMatchObject({ phone: `+31\u00a0••••\u00a0${first.phone.slice(-4)}`, expires_in: 600 });
    const code = codeFor(first.phone)!;
    expect(code).toMatch(/^\d{6}$/);
    // The code is stored hashed only.
    const [row] = await t.database.db.select().from(directDebitRequests).where(eq(directDebitRequests.id, first.res.body.request));
    expect(row.codeHash).not.toContain(code);
    for (let i = 1; i <= 4; i++) {
      const wrong = await confirm(client, first.res.body.request, wrongCode(code));
      expect(wrong.status).toBe(422);
      expect(wrong.body.error.code).toBe('sms_code_wrong');
    }
    const fifth = await confirm(client, first.res.body.request, wrongCode(code));
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('sms_code_attempts');
    // Locked: not even the right code opens it now.
    expect((await confirm(client, first.res.body.request, code)).body.error.code).toBe('sms_code_attempts');

    const second = await start(client);
    t.clock.advance(10 * 60_000 + 1000);
    const late = await confirm(client, second.res.body.request, codeFor(second.phone)!);
    expect(late.status).toBe(410);
    expect(late.body.error.code).toBe('sms_code_expired');
    // Another member's request does not exist for this one.
    const third = await start(client);
    const stranger = await signUp(t);
    expect((await confirm(stranger.client, third.res.body.request, codeFor(third.phone)!)).status).toBe(404);
    expect(await t.database.db.$count(orders, eq(orders.userId, stranger.user.id))).toBe(0);
    expect(await t.database.db.$count(orders, eq(orders.userId, (await t.database.db.select().from(directDebitRequests).where(eq(directDebitRequests.id, third.res.body.request)))[0].userId))).toBe(0);
  });

  it('with the test provider: the right code makes one pending order, confirmed again the same; paid, the credits come once', async () => {
    const { client, user } = await signUp(t);
    const pkg = await firstPackage(client);
    const started = await start(client, { amount: 746 });
    expect(started.res.status).toBe(201);
    const code = codeFor(started.phone)!;
    expect(sent().at(-1)!.text).toContain(code);
    const [one, two] = await Promise.all([confirm(client, started.res.body.request, code), confirm(client, started.res.body.request, code)]);
    expect([one.status, two.status]).toEqual([201, 201]);
    expect(two.body.order.id).toBe(one.body.order.id);
    // The welcome time bonus applies as on the credits page.
    expect(one.body.order).toMatchObject({ status: 'pending', paymentmethod: 'directdebit', amount: 746, credits: pkg.credits });
    const again = await confirm(client, started.res.body.request, code);
    expect(again.body.order.id).toBe(one.body.order.id);
    expect(await t.database.db.$count(orders, eq(orders.userId, user.id))).toBe(1);
    const paymentRows = await t.database.db.select().from(payments).where(eq(payments.orderId, one.body.order.id));
    expect(paymentRows).toHaveLength(1);
    expect(paymentRows[0].sequenceType).toBe('recurring');
    // The full IBAN is gone once the provider holds the mandate.
    const [row] = await t.database.db.select().from(directDebitRequests).where(eq(directDebitRequests.id, started.res.body.request));
    expect(row).toMatchObject({ status: 'confirmed', orderId: one.body.order.id, iban: 'NL•• •••• 4300' });
    const [checkout] = await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, paymentRows[0].providerRef));
    expect(checkout).toMatchObject({ status: 'pending', method: 'directdebit', sequenceType: 'recurring' });
    expect(await credits(user.id)).toBe(0);

    // The bank collects: the tester settles it on the test checkout; the webhook path books the credits once.
    const paid = await client.post('/api/test-checkout.php', { id: checkout.id, outcome: 'paid' });
    expect(paid.status).toBe(200);
    await client.post('/api/payment-webhook.php?provider=test', { id: checkout.id });
    expect((await client.get(`/api/order.php?id=${one.body.order.id}`)).body.order.status).toBe('completed');
    expect(await credits(user.id)).toBe(pkg.credits);
    expect(await t.database.db.$count(creditLedger, and(eq(creditLedger.userId, user.id), eq(creditLedger.reference, one.body.order.id)))).toBe(1);
    // Now the limit counts this order too: 7.46 of 150.00.
    expect(await t.services.payments.directDebitTotal(memberActor(t, user.id), new Date(0))).toBe(746);
  });

  it('a debit begun in a conversation returns from its checkout to the status page with the way back; one off the site is refused', async () => {
    const { client, user } = await signUp(t);
    const member = memberActor(t, user.id);
    const started = await start(client);
    const requestId = started.res.body.request as string;
    const code = codeFor(started.phone)!;
    await expect(t.services.directDebit.confirm(member, { requestId, code, returnTo: '//evil.example/chats/1' }))
      .rejects.toMatchObject({ status: 400, code: 'return_path_invalid' });
    expect(await t.database.db.$count(orders, eq(orders.userId, user.id))).toBe(0);
    // The code still holds: the same request, with a way back on this site.
    const placed = await t.services.directDebit.confirm(member, { requestId, code, returnTo: '/chats/12' });
    const [payment] = await t.database.db.select().from(payments).where(eq(payments.orderId, placed.order.id));
    const [checkout] = await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, payment.providerRef));
    expect(checkout.redirectUrl).toMatch(new RegExp(`/credits/${placed.order.id}\\?return=%2Fchats%2F12$`));
  });

  it('with Mollie: a customer, the mandate with the form\'s details and one recurring payment; the webhook completes it', async () => {
    const client = t.client({ host: 'm.example' });
    const signed = await client.post('/api/signup.php', {
      email: `dd${Date.now()}@example.org`, name: 'Tester', password: 'correct horse battery', date_of_birth: '1990-04-12', gender: 'female', country: 'NL',
    });
    expect(signed.status).toBe(201);
    const userId = signed.body.user.id as number;
    await t.database.db.update(users).set({ status: 'active' }).where(eq(users.id, userId));
    const started = await start(client, { account_holder: 'J. Jansen' });
    expect(started.res.status).toBe(201);
    const code = codeFor(started.phone)!;

    // Mollie is down at the first try: nothing is charged, and the retry places the one order.
    mollie.down = true;
    const down = await confirm(client, started.res.body.request, code);
    expect(down.status).toBe(502);
    mollie.down = false;
    const placed = await confirm(client, started.res.body.request, code);
    expect(placed.status).toBe(201);
    expect(placed.body.order.status).toBe('pending');
    const ref = placed.body.order.payment_id as string;
    const remote = mollie.payment(ref)!;
    expect(remote).toMatchObject({ sequenceType: 'recurring', status: 'pending', amount: { value: '7.46', currency: 'EUR' } });
    const mandate = mollie.mandate(remote.mandateId!)!;
    expect(mandate).toMatchObject({
      customerId: remote.customerId, method: 'directdebit', status: 'valid',
      details: { consumerName: 'J. Jansen', consumerAccount: IBAN },
      signatureDate: t.clock().toISOString().slice(0, 10), mandateReference: `AMORA-${placed.body.order.id.slice(4)}`,
    });
    const posts = (path: RegExp) => mollie.requests.filter((r) => r.method === 'POST' && path.test(r.path)).length;
    const before = { payments: posts(/^\/v2\/payments$/), mandates: posts(/\/mandates$/) };
    expect((await confirm(client, started.res.body.request, code)).body.order.id).toBe(placed.body.order.id);
    expect({ payments: posts(/^\/v2\/payments$/), mandates: posts(/\/mandates$/) }).toEqual(before);

    mollie.setStatus(ref, 'paid');
    const hook = (await t.app.request('http://m.example/api/payment-webhook.php?provider=mollie', {
      method: 'POST', headers: { host: 'm.example', 'content-type': 'application/x-www-form-urlencoded' }, body: `id=${ref}`,
    }));
    expect(hook.status).toBe(200);
    expect((await client.get(`/api/order.php?id=${placed.body.order.id}`)).body.order.status).toBe('completed');
    expect(await credits(userId)).toBe(50);
    expect(await t.database.db.$count(orders, eq(orders.userId, userId))).toBe(1);
  });
});
