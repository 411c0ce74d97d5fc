import { and, eq } from 'drizzle-orm';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCredits } from '../credits/ledger.ts';
import { companies, creditLedger, messages, orders, sites, spendCaps, testCheckouts, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient, memberActor } from '../../tests/helpers/test-app.ts';
import { SYSTEM } from '../../tests/helpers/staff.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each(DATABASE_KINDS)('orders, invoices, refunds and spend caps on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  let keys = 0;
  const key = (name = 'records') => `${name}-key-${++keys}`;
  const order = async (client: TestClient, body: Record<string, unknown> = {}) => {
    const packages = (await client.get('/api/packages.php')).body.packages;
    return client.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true, ...body }, { 'idempotency-key': key('order') });
  };
  /** An order paid through the test checkout and its webhook. */
  const paidOrder = async (client: TestClient) => {
    const created = await order(client);
    expect(created.status).toBe(201);
    await client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
    return created.body.order.id as string;
  };
  const give = (userId: number, credits: number) =>
    t.database.db.transaction((tx) => addCredits(tx, userId, credits, 'demo_grant', `records-grant-${userId}-${++keys}`));
  const ledger = (userId: number) => t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(creditLedger.id);
  const invoice = async (client: TestClient | null, id: string) => {
    const cookie = client ? [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') : '';
    return t.app.request(`http://localhost/api/invoice.php?id=${encodeURIComponent(id)}`, { headers: { host: 'localhost', ...(cookie ? { cookie } : {}) } });
  };

  it('refuses an order without the withdrawal consent, in the member\'s language, and records it with its time', async () => {
    const { client, user } = await signUp(t);
    const missing = await order(client, { withdrawal_consent: undefined });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('withdrawal_consent_required');
    expect(missing.body.error.message).toMatch(/withdrawal/i);
    const refused = await order(client, { withdrawal_consent: false });
    expect(refused.body.error.code).toBe('withdrawal_consent_required');
    await client.put('/api/user.php', { language: 'de' });
    const german = await order(client, { withdrawal_consent: 'yes' });
    expect(german.body.error.message).toMatch(/Widerruf/);
    expect(await t.database.db.$count(orders, eq(orders.userId, user.id))).toBe(0);
    const created = await order(client);
    expect(created.status).toBe(201);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, created.body.order.id));
    expect(row.withdrawalConsentAt?.toISOString()).toBe(t.clock().toISOString());
  });

  it('lists only the member\'s own orders and ledger rows, a page at a time, with one order in detail', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const paid = await paidOrder(a.client);
    const open = (await order(a.client)).body.order.id;
    await paidOrder(b.client);
    const mine = await a.client.get('/api/orders.php');
    expect(mine.status).toBe(200);
    expect(mine.body.orders.map((o: { id: string }) => o.id).sort()).toEqual([paid, open].sort());
    expect(mine.body).toMatchObject({ page: 1, pages: 1 });
    const completed = mine.body.orders.find((o: { id: string }) => o.id === paid);
    // Charged with the new member's 25% welcome bonus.
    expect(completed).toMatchObject({ status: 'completed', credits: 50, amount: 746, currency: 'EUR', refunded_at: null });
    expect(completed.invoice_number).toMatch(/^2026-\d+$/);
    expect(mine.body.orders.find((o: { id: string }) => o.id === open).invoice_number).toBeNull();
    const credits = await a.client.get('/api/credit-ledger.php');
    expect(credits.body.entries).toEqual([expect.objectContaining({ delta: 50, balance_after: 50, reason: 'purchase', order_id: paid })]);
    // The detail of one's own order; another member's does not exist.
    const detail = await t.services.records.orderDetail(memberActor(t, a.user.id), paid);
    expect(detail.payments).toEqual([expect.objectContaining({ status: 'paid' })]);
    expect(detail.ledger.map((l) => l.reason)).toEqual(['purchase']);
    await expect(t.services.records.orderDetail(memberActor(t, b.user.id), paid)).rejects.toMatchObject({ status: 404 });
    // Pages: 30 ledger rows are two pages of 25.
    for (let i = 0; i < 29; i++) await give(a.user.id, 1);
    const page2 = await a.client.get('/api/credit-ledger.php?page=2');
    expect(page2.body).toMatchObject({ page: 2, pages: 2 });
    expect(page2.body.entries).toHaveLength(5);
    expect((await a.client.get('/api/orders.php?page=0')).status).toBe(400);
    expect((await a.client.get('/api/credit-ledger.php?page=abc')).status).toBe(400);
    expect((await t.client().get('/api/orders.php')).status).toBe(403);
  });

  it('gives the owner an invoice PDF of a completed order with the company\'s details; nobody else', async () => {
    const [site] = await t.database.db.select().from(sites).where(eq(sites.id, t.siteId));
    await t.database.db.update(companies).set({
      address: 'Ulica Łąkowa 7', tradenames: ['Amora', 'Flirtźone'], vatNumbers: ['NL001234567B01', 'PL5260250274'],
    }).where(eq(companies.id, site.companyId));
    await t.services.settings.invalidateSites();
    const a = await signUp(t, { name: 'Invoicee' });
    const b = await signUp(t);
    const paid = await paidOrder(a.client);
    const res = await invoice(a.client, paid);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="invoice-2026-\d+\.pdf"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const { text } = await extractText(bytes, { mergePages: true });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, paid));
    for (const expected of [
      'Amora Media B.V.', 'Ulica Łąkowa 7', 'Amsterdam', '12345678', 'NL001234567B01', 'PL5260250274', 'Flirtźone', row.invoiceNumber!,
      // The new member's first bundle had the 25% welcome bonus: the invoice states what was charged.
      paid, 'Invoicee', '€7.46', '€1.29', '21%', '50 credits',
    ]) expect(text).toContain(expected);
    // Another member, a visitor, an unpaid order, an unknown one.
    expect((await invoice(b.client, paid)).status).toBe(404);
    expect((await invoice(null, paid)).status).toBe(403);
    const open = (await order(a.client)).body.order.id;
    expect((await invoice(a.client, open)).status).toBe(404);
    expect((await invoice(a.client, 'ord_missing')).status).toBe(404);
    expect((await invoice(a.client, '../etc')).status).toBe(404);
  });

  it('refunds a completed order once, within refund_days, with a ledger row of its reason', async () => {
    const { client, user } = await signUp(t);
    const paid = await paidOrder(client);
    await expect(t.services.records.refundOrder(SYSTEM, 'ord_missing', { reason: 'duplicate charge', idempotencyKey: key('refund') })).rejects.toMatchObject({ status: 404 });
    await expect(t.services.records.refundOrder(SYSTEM, paid, { reason: '  ', idempotencyKey: key('refund') })).rejects.toMatchObject({ code: 'refund_reason_required' });
    // 13 days later (refund_days is 14): still refundable; the same refund at once twice books once.
    t.clock.advance(13 * DAY);
    const results = await Promise.allSettled([1, 2, 3].map(() => t.services.records.refundOrder(SYSTEM, paid, { reason: 'duplicate charge', idempotencyKey: key('refund') })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, code: 'order_already_refunded' });
    // The refund's ledger row names the order and the refund (`<order>/<refund>`): an order may be refunded in parts.
    expect((await ledger(user.id)).map((l) => [l.delta, l.reason, l.reference.split('/')[0]])).toEqual([[50, 'purchase', paid], [-50, 'refund', paid]]);
    const detail = await t.services.records.orderDetail(memberActor(t, user.id), paid);
    expect(detail).toMatchObject({ status: 'completed', refund_reason: 'duplicate charge', refunded_at: t.clock().toISOString() });
    t.clock.advance(-13 * DAY);
    // (The session would have idled out 13 days on.)
    expect((await client.get('/api/user.php')).body.user.credits).toBe(0);
    expect((await client.get('/api/credit-ledger.php')).body.entries[0]).toMatchObject({ reason: 'refund', delta: -50, order_id: paid });
  });

  it('refuses a refund after refund_days and of an unpaid order; takes back only the credits still there', async () => {
    const { client, user } = await signUp(t);
    const late = await paidOrder(client);
    const spentSome = await paidOrder(client);
    t.clock.advance(14 * DAY + 1000);
    await expect(t.services.records.refundOrder(SYSTEM, late, { reason: 'too late', idempotencyKey: key('refund') })).rejects.toMatchObject({ status: 409, code: 'refund_window_passed' });
    t.clock.advance(-(14 * DAY + 1000));
    const open = (await order(client)).body.order.id;
    await expect(t.services.records.refundOrder(SYSTEM, open, { reason: 'never paid', idempotencyKey: key('refund') })).rejects.toMatchObject({ status: 409, code: 'order_not_refundable' });
    // 100 credits bought, 70 used elsewhere: the refund takes back the 30 left, never below zero.
    await t.database.db.update(users).set({ credits: 30 }).where(eq(users.id, user.id));
    const refunded = await t.services.records.refundOrder(SYSTEM, spentSome, { reason: 'goodwill', idempotencyKey: key('refund') });
    expect(refunded.credits_taken).toBe(30);
    const [after] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(after.credits).toBe(0);
    const [late2] = await t.database.db.select().from(orders).where(eq(orders.id, late));
    expect(late2.refundedAt).toBeNull();
  });

  it('cancels an open or pending order of one\'s own, at the provider too, any number of times', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const created = (await order(a.client)).body.order;
    await a.client.post('/api/test-checkout.php', { id: created.payment_id, outcome: 'pending' });
    expect((await b.client.post('/api/order-cancel.php', { id: created.id })).status).toBe(404);
    const cancels = await Promise.all([1, 2].map(() => a.client.post('/api/order-cancel.php', { id: created.id })));
    for (const c of cancels) expect([c.status, c.body.order?.status]).toEqual([200, 'cancelled']);
    expect((await a.client.post('/api/order-cancel.php', { id: created.id })).body.order.status).toBe('cancelled');
    const [checkout] = await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, created.payment_id));
    expect(checkout.status).toBe('canceled');
    // Paying it afterwards is no longer possible at the provider: nothing is booked.
    await a.client.post('/api/test-checkout.php', { id: created.payment_id, outcome: 'paid' });
    expect((await a.client.get('/api/user.php')).body.user.credits).toBe(0);
    // A paid order cannot be cancelled; bad input changes nothing.
    const paid = await paidOrder(a.client);
    const refused = await a.client.post('/api/order-cancel.php', { id: paid });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'order_not_cancellable']);
    expect((await a.client.post('/api/order-cancel.php', { id: 42 })).status).toBe(400);
    expect((await a.client.post('/api/order-cancel.php', {})).status).toBe(400);
    expect((await t.client().post('/api/order-cancel.php', { id: paid })).status).toBe(403);
    expect((await a.client.get(`/api/order.php?id=${paid}`)).body.order.status).toBe('completed');
  });

  it('enforces the member\'s spend cap on messages and gifts; raising waits for the cooling-off, lowering does not', async () => {
    const me = await signUp(t);
    const others = await Promise.all([1, 2, 3].map(() => signUp(t)));
    await give(me.user.id, 200);
    let n = 0;
    const send = (to = others[0]) => me.client.post('/api/messages.php', { profile_id: to.user.id, text: `Hello number ${++n}` }, { 'idempotency-key': key('msg') });
    const gift = async () => {
      const { gifts } = (await me.client.get('/api/gifts.php')).body;
      return me.client.post('/api/gift.php', { profile_id: others[1].user.id, gift_id: gifts[0].id }, { 'idempotency-key': key('gift') });
    };
    // No cap yet: setting one applies at once.
    expect((await me.client.get('/api/spend-cap.php')).body).toMatchObject({ period: null, credits: null, spent: 0, pending: null });
    const set = await me.client.put('/api/spend-cap.php', { period: 'day', credits: 10 });
    expect(set.body).toMatchObject({ period: 'day', credits: 10, applied: 'now', pending: null, cooling_off_hours: 24 });
    expect((await send()).status).toBe(201);
    expect((await send()).status).toBe(201);
    const over = await send();
    expect([over.status, over.body.error.code]).toEqual([409, 'daily_spend_cap_reached']);
    expect(over.body.error.message).toContain('10');
    const overGift = await gift();
    expect([overGift.status, overGift.body.error.code]).toEqual([409, 'daily_spend_cap_reached']);
    expect(await t.database.db.$count(messages, eq(messages.senderId, me.user.id))).toBe(2);
    expect((await me.client.get('/api/user.php')).body.user.credits).toBe(190);
    expect((await me.client.get('/api/spend-cap.php')).body.spent).toBe(10);
    // Raising waits 24 hours; the member is told when it applies.
    const raise = await me.client.put('/api/spend-cap.php', { period: 'day', credits: 100 });
    expect(raise.body).toMatchObject({ period: 'day', credits: 10, applied: 'later', pending: { period: 'day', credits: 100, from: new Date(t.clock().getTime() + DAY).toISOString() } });
    expect((await send()).status).toBe(409);
    // Lowering applies at once and drops the raise still waiting.
    const lower = await me.client.put('/api/spend-cap.php', { period: 'day', credits: 5 });
    expect(lower.body).toMatchObject({ period: 'day', credits: 5, applied: 'now', pending: null });
    // Removing waits too.
    const removal = await me.client.put('/api/spend-cap.php', { credits: null });
    expect(removal.body).toMatchObject({ credits: 5, applied: 'later', pending: { period: null, credits: null } });
    // The next day the window is new (5 credits: one message), and a day after the removal there is no cap.
    t.clock.advance(12 * HOUR);
    expect((await send(others[2])).status).toBe(201);
    expect((await send(others[2])).status).toBe(409);
    t.clock.advance(12 * HOUR + 1000);
    expect((await me.client.get('/api/spend-cap.php')).body).toMatchObject({ period: null, credits: null, pending: null });
    expect((await gift()).status).toBe(201);
    // A monthly cap counts the whole local month.
    await me.client.put('/api/spend-cap.php', { period: 'month', credits: 30 });
    const month = await me.client.get('/api/spend-cap.php');
    expect(month.body.spent).toBe(10 + 5 + 20);
    expect((await send()).body.error.code).toBe('monthly_spend_cap_reached');
    const [cap] = await t.database.db.select().from(spendCaps).where(and(eq(spendCaps.userId, me.user.id)));
    expect(cap).toMatchObject({ period: 'month', credits: 30 });
  });

  it('holds the spend cap under concurrent sends', async () => {
    const me = await signUp(t);
    const other = await signUp(t);
    await give(me.user.id, 100);
    await me.client.put('/api/spend-cap.php', { period: 'day', credits: 10 });
    const sends = await Promise.all([1, 2, 3, 4, 5].map((i) => me.client.post('/api/messages.php', { profile_id: other.user.id, text: `Hi there ${i}` }, { 'idempotency-key': key('race') })));
    expect(sends.filter((r) => r.status === 201)).toHaveLength(2);
    expect(sends.filter((r) => r.status === 409)).toHaveLength(3);
    expect((await me.client.get('/api/spend-cap.php')).body.spent).toBe(10);
  });

  it('answers bad spend-cap input with 400 and changes nothing', async () => {
    const me = await signUp(t);
    for (const body of [{ period: 'week', credits: 5 }, { period: 'day', credits: 0 }, { period: 'day', credits: 2.5 }, { period: 'day' }, { credits: 'lots' }, {}, { period: 'day', credits: 10_000_000 }]) {
      const res = await me.client.put('/api/spend-cap.php', body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, 'spend_cap_invalid']);
    }
    expect((await me.client.get('/api/spend-cap.php')).body).toMatchObject({ period: null, credits: null });
    expect((await t.client().put('/api/spend-cap.php', { period: 'day', credits: 5 })).status).toBe(403);
  });
});
