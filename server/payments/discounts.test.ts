import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { countdownParts, discountedCents, timeBonusSecondsLeft } from '#common/discounts.ts';
import { discountCodes, discountRedemptions, orders, payments, testCheckouts, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, memberActor } from '../../tests/helpers/test-app.ts';

describe('discount arithmetic', () => {
  it('rounds the discounted price down to the cent, never below 1 cent', () => {
    expect(discountedCents(995, 2500)).toBe(746); // 746.25
    expect(discountedCents(2495, 2000)).toBe(1996);
    expect(discountedCents(995, 5000)).toBe(497); // 497.5
    expect(discountedCents(995, 1000)).toBe(895); // 895.5
    expect(discountedCents(1, 9000)).toBe(1);
    expect(() => discountedCents(995, 10_000)).toThrow();
    expect(() => discountedCents(9.5, 100)).toThrow();
  });

  it('counts the time bonus down from 14,400 s after sign-up', () => {
    const signup = '2026-06-01T12:00:00.000Z';
    const at = (s: number) => Date.parse(signup) + s * 1000;
    expect(timeBonusSecondsLeft(signup, at(0))).toBe(14_400);
    expect(timeBonusSecondsLeft(signup, at(14_399))).toBe(1);
    expect(timeBonusSecondsLeft(signup, at(14_400))).toBe(0);
    expect(timeBonusSecondsLeft(signup, at(99_999))).toBe(0);
    expect(timeBonusSecondsLeft('not a date', at(0))).toBe(0);
    expect(countdownParts(14_400)).toEqual({ hours: '04', minutes: '00', seconds: '00' });
    expect(countdownParts(3_723)).toEqual({ hours: '01', minutes: '02', seconds: '03' });
    expect(countdownParts(-5)).toEqual({ hours: '00', minutes: '00', seconds: '00' });
  });
});

describe.each(DATABASE_KINDS)('discount codes and the welcome time bonus on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  type Client = ReturnType<TestApp['client']>;
  const HOUR4 = 14_400_000;
  let keyCounter = 0;
  const packages = async (client: Client) => (await client.get('/api/packages.php')).body.packages as { id: number; amount: number }[];
  const order = async (client: Client, body: Record<string, unknown> = {}, pkgIndex = 0) => {
    const pkgs = await packages(client);
    return client.post('/api/order.php', { package_id: pkgs[pkgIndex].id, paymentmethod: 'creditcard', withdrawal_consent: true, ...body }, { 'idempotency-key': `discount-order-${++keyCounter}` });
  };
  const pay = async (client: Client, ref: string) => {
    const res = await client.post('/api/test-checkout.php', { id: ref, outcome: 'paid' });
    expect(res.status).toBe(200);
  };
  /** A member whose 4-hour bonus is over (the clock moves on; the member stays a non-paying one). */
  const lateMember = async (overrides: Record<string, unknown> = {}) => {
    const m = await signUp(t, overrides);
    await t.database.db.update(users).set({ signupDate: new Date(t.clock().getTime() - HOUR4 - 1000) }).where(eq(users.id, m.user.id));
    return m;
  };
  const redemptions = (userId: number) => t.database.db.select().from(discountRedemptions).where(eq(discountRedemptions.userId, userId));

  it('gives a new member the welcome time bonus record exactly as specified, up to 14,399 s after sign-up', async () => {
    const { client, user } = await signUp(t, { country: 'DE' });
    const res = await client.get('/api/discountcode.php?welcome=true');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 'TIMEBONUS25', country: 'DE', user_id: user.id, expires: new Date(t.clock().getTime() + HOUR4).toISOString(),
      value_percentage: '25.0', currency: 'EUR', minimum_order_value: 0, status: 'active', validity: 'once-per-user', expired: false,
      paymentmethods: expect.arrayContaining(['ideal', 'creditcard', 'paypal']),
    });
    t.clock.advance(14_399_000);
    expect((await client.get('/api/discountcode.php?welcome=true')).status).toBe(200);
    t.clock.advance(1000);
    const over = await client.get('/api/discountcode.php?welcome=true');
    expect(over.status).toBe(404);
    expect(over.body.error.code).toBe('discount_not_found');
    // After the window the order is priced without it (the welcome code WELCOME10 applies instead).
    const late = await order(client);
    expect(late.body.order).toMatchObject({ amount: 895, original_amount: 995, discount_code: 'WELCOME10', discount_percentage: 10 });
  });

  it('the time bonus is for signed-in members who never paid', async () => {
    expect((await t.client().get('/api/discountcode.php?welcome=true')).status).toBe(403);
    const { client, user } = await signUp(t);
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, user.id));
    expect((await client.get('/api/discountcode.php?welcome=true')).status).toBe(404);
    expect((await client.get('/api/discountcode.php?code=timebonus25')).body.error.code).toBe('discount_new_members_only');
    // A paid member pays the full price: no time bonus, no welcome code.
    const full = await order(client);
    expect(full.body.order).toMatchObject({ amount: 995, original_amount: null, discount_code: null, discount_percentage: null });
  });

  it('charges 25% less with the time bonus, books its use with the credits, and never gives it again', async () => {
    const { client, user } = await signUp(t);
    const created = await order(client);
    expect(created.status).toBe(201);
    expect(created.body.order).toMatchObject({ amount: 746, original_amount: 995, discount_code: 'TIMEBONUS25', discount_percentage: 25 });
    // The provider is asked for the discounted amount.
    const [checkout] = await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, created.body.order.payment_id));
    expect(checkout.amountCents).toBe(746);
    expect(await redemptions(user.id)).toHaveLength(0);
    await pay(client, created.body.order.payment_id);
    const me = (await client.get('/api/user.php')).body.user;
    expect(me).toMatchObject({ credits: 50, paid_user: true });
    const used = await redemptions(user.id);
    expect(used.map((r) => r.orderId)).toEqual([created.body.order.id]);
    expect((await client.get('/api/discountcode.php?welcome=true')).status).toBe(404);
    expect((await client.get('/api/discountcode.php?code=TIMEBONUS25')).body.error.code).toBe('discount_already_used');
    expect((await order(client)).body.order.amount).toBe(995);
  });

  it('the price shown on the credits page is the price charged, for every bundle', async () => {
    for (const m of [await signUp(t), await lateMember(), await lateMember({ country: 'GB' })]) {
      const pkgs = (await m.client.get('/api/packages.php')).body.packages;
      for (const code of [null, 'SPRING20']) {
        const quote = await t.services.discounts.quote(memberActor(t, m.user.id), pkgs, code);
        for (const [i, p] of pkgs.entries()) {
          const shown = quote.prices[p.id];
          const charged = await order(m.client, code && shown.discount?.code === code ? { discount_code: code, amount: shown.amount } : { amount: shown.amount }, i);
          expect(charged.status, JSON.stringify(charged.body)).toBe(201);
          expect(charged.body.order.amount).toBe(shown.amount);
          expect(charged.body.order.original_amount).toBe(shown.original_amount);
        }
      }
    }
    // A price that changed since the member saw it (the bonus ran out) is refused, not charged.
    const { client } = await signUp(t);
    const stale = await order(client, { amount: 995 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('price_changed');
  });

  it('looks codes up with percentage, minimum and country; unknown, expired and foreign ones are refused', async () => {
    const nl = await lateMember({ country: 'NL' });
    const gb = await lateMember({ country: 'GB' });
    // Query parameters are passed through and ignored; codes are compared in capitals.
    const spring = await nl.client.get('/api/discountcode.php?code=spring20&utm_source=mail&x[]=1&welcome=no');
    expect(spring.status).toBe(200);
    expect(spring.body).toEqual({
      code: 'SPRING20', kind: 'code', percentage: 20, minimum: 2000, currency: 'EUR', country: null, personal: false, expires: null,
    });
    expect((await gb.client.get('/api/discountcode.php?code=SPRING20')).body).toMatchObject({ minimum: 1800, currency: 'GBP' });
    expect((await nl.client.get('/api/discountcode.php?code=HOLLAND15')).body).toMatchObject({ percentage: 15, country: 'NL', minimum: 0 });
    const foreign = await gb.client.get('/api/discountcode.php?code=HOLLAND15');
    expect([foreign.status, foreign.body.error.code]).toEqual([422, 'discount_wrong_country']);
    expect(foreign.body.error.message).toBe('This code is not valid in your country.');
    const unknown = await nl.client.get('/api/discountcode.php?code=NOSUCHCODE');
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'discount_not_found']);
    const expired = await nl.client.get('/api/discountcode.php?code=SUMMER30');
    expect([expired.status, expired.body.error.code]).toEqual([410, 'discount_expired']);
    // The same refusals when ordering with the code; nothing is created.
    for (const [code, status] of [['NOSUCHCODE', 404], ['SUMMER30', 410]] as const) {
      expect((await order(nl.client, { discount_code: code })).status).toBe(status);
    }
    expect((await order(gb.client, { discount_code: 'HOLLAND15' })).status).toBe(422);
    expect(await t.database.db.$count(orders, eq(orders.userId, gb.user.id))).toBe(0);
  });

  it('applies the minimum order value: below it the code is refused with the minimum', async () => {
    const { client } = await lateMember();
    const below = await order(client, { discount_code: 'SPRING20' }, 0);
    expect([below.status, below.body.error.code]).toEqual([422, 'discount_below_minimum']);
    expect(below.body.error.message).toContain('20.00 EUR');
    const above = await order(client, { discount_code: 'SPRING20' }, 1);
    expect(above.body.order).toMatchObject({ amount: 1996, original_amount: 2495, discount_code: 'SPRING20', discount_percentage: 20 });
  });

  /** The member's orders that carry a discount, and the payments opened for them. */
  const discounted = async (userId: number) => {
    const rows = await t.database.db.select().from(orders).where(and(eq(orders.userId, userId), isNotNull(orders.discountCodeId)));
    const paid = rows.length ? await t.database.db.$count(payments, inArray(payments.orderId, rows.map((r) => r.id))) : 0;
    return { orders: rows, payments: paid };
  };

  it('a once-per-user code goes to one checkout at a time: of concurrent orders exactly one can be paid with it', async () => {
    const offerMember = await lateMember();
    const personal = (await offerMember.client.post('/api/delete-offer.php', { reason: 'too_expensive' })).body.discount.code as string;
    const cases: [string, { client: Client; user: { id: number } }, string | null, string][] = [
      ['a code the member typed', await lateMember(), 'SPRING20', 'SPRING20'],
      ['the time bonus', await signUp(t), null, 'TIMEBONUS25'],
      ['the welcome code', await lateMember(), null, 'WELCOME10'],
      ['the deletion offer', offerMember, personal, personal],
    ];
    for (const [label, { client, user }, code, applied] of cases) {
      const attempts = await Promise.all([1, 1, 2, 2, 1].map((pkg) => order(client, code ? { discount_code: code } : {}, pkg)));
      const placed = attempts.filter((a) => a.status === 201);
      expect(placed.length, label).toBeGreaterThanOrEqual(1);
      for (const p of placed) expect(p.body.order.discount_code, label).toBe(applied);
      // The others are refused, in the member's language, with nothing made for them.
      for (const r of attempts.filter((a) => a.status !== 201)) {
        expect([r.status, r.body.error.code], label).toEqual([409, 'discount_in_use']);
        expect(r.body.error.message).toBe('This discount is already on a payment you started and have not finished. Finish or cancel that payment first; you will find it under Transactions.');
      }
      const made = await discounted(user.id);
      expect(made.orders.map((o) => o.id).sort(), label).toEqual(placed.map((p) => p.body.order.id).sort());
      expect(made.payments, label).toBe(placed.length);
      // A newer checkout may have replaced an older one (cancelled at the provider): only one can still be paid.
      expect(made.orders.filter((o) => o.status === 'open').length, label).toBe(1);
      await Promise.all(placed.map((p) => client.post('/api/test-checkout.php', { id: p.body.order.payment_id, outcome: 'paid' })));
      const checkouts = await t.database.db.select({ status: testCheckouts.status }).from(testCheckouts)
        .where(inArray(testCheckouts.id, placed.map((p) => p.body.order.payment_id)));
      expect(checkouts.filter((c) => c.status === 'paid'), label).toHaveLength(1);
      const after = await discounted(user.id);
      const completed = after.orders.filter((o) => o.status === 'completed');
      expect(completed, label).toHaveLength(1);
      expect((await redemptions(user.id)).map((r) => r.orderId), label).toEqual([completed[0].id]);
      const again = await order(client, code ? { discount_code: code } : {}, 1);
      if (code) expect([again.status, again.body.error.code], label).toEqual([409, 'discount_already_used']);
      else expect(again.body.order, label).toMatchObject({ discount_code: null, amount: 2495 });
    }
    // Each member has their own use.
    const other = await lateMember();
    expect((await order(other.client, { discount_code: 'SPRING20' }, 1)).status).toBe(201);
  });

  it('a new checkout replaces an open one the provider cancels; one under way keeps the code until it fails, expires or is cancelled', async () => {
    const { client, user } = await lateMember();
    const spring = () => order(client, { discount_code: 'SPRING20' }, 1);
    const status = async (id: string) => (await t.database.db.select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0].s;
    const first = await spring();
    expect(first.status).toBe(201);
    // Back from the checkout, the member chooses again: the open checkout is cancelled at the provider.
    const second = await spring();
    expect(second.body.order).toMatchObject({ discount_code: 'SPRING20', amount: 1996 });
    expect(await status(first.body.order.id)).toBe('cancelled');
    await client.post('/api/test-checkout.php', { id: first.body.order.payment_id, outcome: 'paid' });
    expect((await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, first.body.order.payment_id)))[0].status).toBe('canceled');
    expect(await status(first.body.order.id)).toBe('cancelled');
    // A payment under way (pending) keeps it; cancelled by the member on its status page, it is free again.
    await client.post('/api/test-checkout.php', { id: second.body.order.payment_id, outcome: 'pending' });
    await client.get(`/api/order.php?id=${second.body.order.id}`);
    expect((await spring()).body.error.code).toBe('discount_in_use');
    expect((await client.post('/api/order-cancel.php', { id: second.body.order.id })).body.order.status).toBe('cancelled');
    const third = await spring();
    expect(third.body.order).toMatchObject({ discount_code: 'SPRING20', amount: 1996 });
    // Failed (or expired: the provider reports it failed) at the provider.
    await client.post('/api/test-checkout.php', { id: third.body.order.payment_id, outcome: 'failed' });
    const fourth = await spring();
    expect(fourth.body.order).toMatchObject({ discount_code: 'SPRING20', amount: 1996 });
    // A provider that will not cancel the payment: it can still be paid, so its order keeps the code, also
    // when the member cancels the order here, until the provider ends the payment.
    const cancelPayment = t.services.testProvider.cancelPayment;
    t.services.testProvider.cancelPayment = async () => false;
    try {
      expect((await spring()).body.error.code).toBe('discount_in_use');
      expect((await client.post('/api/order-cancel.php', { id: fourth.body.order.id })).body.order.status).toBe('cancelled');
      expect((await spring()).body.error.code).toBe('discount_in_use');
    } finally {
      t.services.testProvider.cancelPayment = cancelPayment;
    }
    await client.post('/api/test-checkout.php', { id: fourth.body.order.payment_id, outcome: 'canceled' });
    const fifth = await spring();
    expect(fifth.body.order).toMatchObject({ discount_code: 'SPRING20', amount: 1996 });
    await pay(client, fifth.body.order.payment_id);
    expect((await redemptions(user.id)).map((r) => r.orderId)).toEqual([fifth.body.order.id]);
    const held = await t.database.db.select({ id: orders.id, hold: orders.discountHoldId }).from(orders).where(eq(orders.userId, user.id));
    expect(held.filter((o) => o.hold !== null).map((o) => o.id)).toEqual([fifth.body.order.id]);
  });

  it('the welcome code is for a first purchase; an unlimited code may be used on every order', async () => {
    const { client, user } = await lateMember();
    await t.database.db.update(users).set({ paidUser: true }).where(eq(users.id, user.id));
    const welcome = await client.get('/api/discountcode.php?code=WELCOME10');
    expect([welcome.status, welcome.body.error.code]).toEqual([409, 'discount_new_members_only']);
    await t.database.db.insert(discountCodes).values({ siteId: t.siteId, code: 'FRIENDS5', percentBp: 500, validity: 'unlimited' });
    for (let i = 0; i < 2; i++) {
      const res = await order(client, { discount_code: 'friends5' });
      expect(res.body.order).toMatchObject({ amount: discountedCents(995, 500), discount_code: 'FRIENDS5', discount_percentage: 5 });
      await pay(client, res.body.order.payment_id);
    }
    expect(await redemptions(user.id)).toHaveLength(2);
    expect((await client.get('/api/discountcode.php?code=FRIENDS5')).status).toBe(200);
  });

  it('the larger discount wins: a code never makes a bundle dearer than the time bonus', async () => {
    const { client } = await signUp(t);
    // SPRING20 (20%) is less than the time bonus (25%): the bonus applies.
    const res = await order(client, { discount_code: 'SPRING20' }, 1);
    expect(res.body.order).toMatchObject({ discount_code: 'TIMEBONUS25', amount: discountedCents(2495, 2500) });
  });

  it('the deletion page\'s retention offer makes a personal code that really is charged, once', async () => {
    const { client, user } = await lateMember();
    const offer = await client.post('/api/delete-offer.php', { reason: 'too_expensive' });
    expect(offer.status).toBe(200);
    const discount = offer.body.discount;
    expect(discount).toMatchObject({ kind: 'personal', percentage: 50, personal: true, minimum: 0, currency: 'EUR' });
    expect(discount.code).toMatch(/^STAY50-[0-9A-F]{10}$/);
    // Asking again gives the same code; nobody else can use it.
    expect((await client.post('/api/delete-offer.php', { reason: 'too_expensive' })).body.discount.code).toBe(discount.code);
    const stranger = await lateMember();
    expect((await stranger.client.get(`/api/discountcode.php?code=${discount.code}`)).status).toBe(404);
    expect((await order(stranger.client, { discount_code: discount.code })).status).toBe(404);

    const pkgs = await packages(client);
    const quote = await t.services.discounts.quote(memberActor(t, user.id), (await client.get('/api/packages.php')).body.packages, discount.code);
    expect(quote.prices[pkgs[0].id]).toEqual({ amount: 497, original_amount: 995, discount: { code: discount.code, kind: 'personal', percentage: 50 } });
    const created = await order(client, { discount_code: discount.code, amount: 497 });
    expect(created.body.order).toMatchObject({ amount: 497, original_amount: 995, discount_code: discount.code, discount_percentage: 50 });
    const checkoutPage = await client.get(`/api/order.php?id=${created.body.order.id}`);
    expect(checkoutPage.body.checkout_url).toBe(`/test-checkout/${created.body.order.payment_id}`);
    expect((await t.services.payments.testCheckout(memberActor(t, user.id), created.body.order.payment_id)).amountCents).toBe(497);
    await pay(client, created.body.order.payment_id);
    expect((await client.get('/api/user.php')).body.user.credits).toBe(50);
    expect((await client.get(`/api/discountcode.php?code=${discount.code}`)).body.error.code).toBe('discount_already_used');
    const [used] = await t.database.db.select().from(discountRedemptions)
      .where(and(eq(discountRedemptions.userId, user.id), eq(discountRedemptions.orderId, created.body.order.id)));
    expect(used).toBeTruthy();
    expect((await t.client().post('/api/delete-offer.php', { reason: 'too_expensive' })).status).toBe(403);
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    const { client, user } = await lateMember();
    for (const query of ['', '?code=', `?code=${'A'.repeat(5000)}`, '?code=AB%00CD', '?code=AB%0ACD', '?code=%E2%80%AEX', '?welcome=1', '?code=spring%2020']) {
      const res = await client.get(`/api/discountcode.php${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toMatch(/^(invalid_input|discount_code_invalid)$/);
    }
    for (const body of [
      { discount_code: 20 }, { discount_code: ['SPRING20'] }, { discount_code: 'X'.repeat(33) }, { discount_code: 'SPRING\u000020' },
      { amount: 'cheap' }, { amount: -1 }, { amount: 1.5 }, { amount: 1e12 },
    ]) {
      const res = await order(client, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await client.post('/api/delete-offer.php', [1, 2])).status).toBe(400);
    expect(await t.database.db.$count(orders, eq(orders.userId, user.id))).toBe(0);
  });
});
