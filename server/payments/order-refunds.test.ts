import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditLedger, orderRefunds, orders, users } from '../db/schema.ts';
import { createTestApp, DATABASE_KINDS, memberActor, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';
import { createStaff, SYSTEM } from '../../tests/helpers/staff.ts';

/**
 * Refunds in parts (decision 066): parts add up to the whole, each goes to the provider with its own amount, takes back
 * its share of the credits and writes its audit row; a refund over what is left, or a resent one, changes nothing.
 */
describe.each(DATABASE_KINDS)('order refunds in parts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  let keys = 0;
  const key = (name = 'refund') => `${name}-key-${++keys}`;
  /** A new member's first order of the first bundle (50 credits, €7.46 with the welcome bonus), paid. */
  const paidOrder = async (client: TestClient) => {
    const packages = (await client.get('/api/packages.php')).body.packages;
    const created = await client.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': key('order') });
    expect(created.status).toBe(201);
    await client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
    return { id: created.body.order.id as string, ref: created.body.order.payment_id as string };
  };
  const refund = (orderId: string, amountCents: number | null, idempotencyKey = key()) =>
    t.services.records.refundOrder(SYSTEM, orderId, { reason: 'Charged for two bundles', amountCents, idempotencyKey });
  const orderRow = async (id: string) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0];
  const refundLedger = async (userId: number) =>
    t.database.db.select().from(creditLedger).where(and(eq(creditLedger.userId, userId), eq(creditLedger.reason, 'refund'))).orderBy(creditLedger.id);
  const audits = (id: string) => t.database.db.select().from(auditLog).where(and(eq(auditLog.action, 'order.refund'), eq(auditLog.objectId, id))).orderBy(auditLog.id);
  const sentFor = (ref: string) => t.services.testProvider.refunds.filter((r) => r.ref === ref);
  const balance = async (userId: number) => (await t.database.db.select({ credits: users.credits }).from(users).where(eq(users.id, userId)))[0].credits;

  it('refunds in parts that add up to the whole: each part at the provider, its share of credits, its audit row', async () => {
    const { client, user } = await signUp(t);
    const paid = await paidOrder(client);
    expect((await orderRow(paid.id)).amountCents).toBe(746);

    const first = await refund(paid.id, 200);
    // 50 credits for 746 cents: 200 cents take back 13 (50 × 200 / 746 = 13.4, rounded down).
    expect(first).toMatchObject({ amount: 200, credits_taken: 13, order: { refunded_amount: 200, refunded_at: null, status: 'completed' } });
    const second = await refund(paid.id, 300);
    // The share counts on all refunded so far: 50 × 500 / 746 = 33.5 → 33 in all, 20 of them now.
    expect(second).toMatchObject({ amount: 300, credits_taken: 20, order: { refunded_amount: 500, refunded_at: null } });
    const rest = await refund(paid.id, null);
    expect(rest).toMatchObject({ amount: 246, credits_taken: 17, order: { refunded_amount: 746, refunded_at: t.clock().toISOString() } });
    expect(await balance(user.id)).toBe(0);

    expect(sentFor(paid.ref)).toEqual([200, 300, 246].map((amountCents) => ({ ref: paid.ref, amountCents, currency: 'EUR' })));
    const ledger = await refundLedger(user.id);
    expect(ledger.map((l) => l.delta)).toEqual([-13, -20, -17]);
    expect(new Set(ledger.map((l) => l.reference)).size).toBe(3);
    expect((await audits(paid.id)).map((a) => [a.before, a.after])).toEqual([
      [{ refunded_cents: 0, refunded: false }, expect.objectContaining({ refunded_cents: 200, refunded: false, amount_cents: 200, credits_taken: 13 })],
      [{ refunded_cents: 200, refunded: false }, expect.objectContaining({ refunded_cents: 500, refunded: false, amount_cents: 300, credits_taken: 20 })],
      [{ refunded_cents: 500, refunded: false }, expect.objectContaining({ refunded_cents: 746, refunded: true, amount_cents: 246, credits_taken: 17 })],
    ]);
    // The member's records: the list and the detail with every part's ledger row (the API answers are checked against their contracts).
    const listed = (await client.get('/api/orders.php')).body.orders.find((o: { id: string }) => o.id === paid.id);
    expect(listed).toMatchObject({ amount: 746, refunded_amount: 746 });
    const detail = await t.services.records.orderDetail(memberActor(t, user.id), paid.id);
    expect(detail.ledger.map((l) => [l.reason, l.delta, l.order_id])).toEqual([['purchase', 50, paid.id], ['refund', -13, paid.id], ['refund', -20, paid.id], ['refund', -17, paid.id]]);
    await expect(refund(paid.id, null)).rejects.toMatchObject({ status: 409, code: 'order_already_refunded' });
  });

  it('refuses a part over what is left, not positive or not whole cents, and changes nothing', async () => {
    const { client, user } = await signUp(t);
    const paid = await paidOrder(client);
    await refund(paid.id, 700);
    const before = { order: await orderRow(paid.id), ledger: await refundLedger(user.id), audits: await audits(paid.id), balance: await balance(user.id) };
    await expect(refund(paid.id, 47)).rejects.toMatchObject({ status: 409, code: 'refund_amount_exceeds_remaining', params: { remaining: '0.46 EUR' } });
    await expect(refund(paid.id, 0)).rejects.toMatchObject({ status: 400, code: 'refund_amount_not_positive' });
    await expect(refund(paid.id, -100)).rejects.toMatchObject({ status: 400, code: 'refund_amount_not_positive' });
    await expect(refund(paid.id, 12.5)).rejects.toMatchObject({ status: 400, code: 'refund_amount_not_cents' });
    await expect(t.services.records.refundPreview(SYSTEM, paid.id, 47)).rejects.toMatchObject({ code: 'refund_amount_exceeds_remaining' });
    expect({ order: await orderRow(paid.id), ledger: await refundLedger(user.id), audits: await audits(paid.id), balance: await balance(user.id) }).toEqual(before);
    expect(sentFor(paid.ref).map((r) => r.amountCents)).toEqual([700]);
    expect(await t.database.db.$count(orderRefunds, eq(orderRefunds.orderId, paid.id))).toBe(1);
  });

  it('refunds once when the same key arrives twice at once, and answers a later retry with that refund', async () => {
    const { client, user } = await signUp(t);
    const paid = await paidOrder(client);
    const resent = key('double');
    const answers = await Promise.all([1, 2, 3].map(() => refund(paid.id, 300, resent)));
    expect(answers.map((a) => [a.amount, a.credits_taken])).toEqual([[300, 20], [300, 20], [300, 20]]);
    expect((await orderRow(paid.id)).refundedCents).toBe(300);
    expect(sentFor(paid.ref).map((r) => r.amountCents)).toEqual([300]);
    expect(await audits(paid.id)).toHaveLength(1);
    expect((await refundLedger(user.id)).map((l) => l.delta)).toEqual([-20]);
    // Another part with a new key, then the first key again: still the first refund's answer, nothing more refunded.
    await refund(paid.id, 100);
    expect(await refund(paid.id, 300, resent)).toMatchObject({ amount: 300, credits_taken: 20, order: { refunded_amount: 400 } });
    expect(sentFor(paid.ref).map((r) => r.amountCents)).toEqual([300, 100]);
  });

  it('takes back the share as far as the balance holds it, and previews that without booking', async () => {
    const { client, user } = await signUp(t);
    const paid = await paidOrder(client);
    // 50 credits bought, 45 spent: half the money back would take 25, the balance holds 5.
    await t.database.db.update(users).set({ credits: 5 }).where(eq(users.id, user.id));
    expect(await t.services.records.refundPreview(SYSTEM, paid.id, 373))
      .toMatchObject({ orderId: paid.id, memberId: user.id, currency: 'EUR', amountCents: 746, refundedCents: 0, partCents: 373, credits: 5 });
    expect(await t.services.records.refundPreview(SYSTEM, paid.id, null)).toMatchObject({ partCents: 746, credits: 5 });
    expect(await audits(paid.id)).toHaveLength(0);
    expect(await refund(paid.id, 373)).toMatchObject({ credits_taken: 5 });
    expect(await balance(user.id)).toBe(0);
    // The next part takes its own share of what is left (nothing here): the shortfall of the first is not carried over.
    expect(await refund(paid.id, null)).toMatchObject({ amount: 373, credits_taken: 0 });
  });

  it('lets finance staff of the member\'s site refund; others find no such order or are refused', async () => {
    const { client } = await signUp(t);
    const paid = await paidOrder(client);
    const finance = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const elsewhere = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId + 1000] });
    const support = await createStaff(t, { roles: ['support'] });
    const input = { reason: 'Goodwill', amountCents: 100, idempotencyKey: key() };
    await expect(t.services.records.refundOrder(elsewhere.actor, paid.id, input)).rejects.toMatchObject({ status: 404 });
    await expect(t.services.records.refundOrder(support.actor, paid.id, input)).rejects.toMatchObject({ status: 403 });
    await expect(t.services.records.refundPreview(support.actor, paid.id, 100)).rejects.toMatchObject({ status: 403 });
    expect(await t.services.records.refundOrder(finance.actor, paid.id, input)).toMatchObject({ amount: 100 });
    expect((await audits(paid.id))[0].staffId).toBe(finance.actor.staffId);
  });
});
