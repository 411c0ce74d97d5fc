import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { creditLedger, messages, orders, payments, testCheckouts, users } from '../db/schema.ts';
import { addCredits } from '../credits/ledger.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

describe.each(DATABASE_KINDS)('a reused idempotency key changes nothing (%s)', (kind) => {
  let t: TestApp;
  let recipients: number[];
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 6 });
    const rows = await t.database.db.select({ id: users.id }).from(users)
      .where(sql`${users.email} like 'member%@demo.amora.invalid'`).orderBy(users.id).limit(2);
    recipients = rows.map((r) => r.id);
  });
  afterAll(() => t.close());

  const count = async (table: typeof messages | typeof orders | typeof payments | typeof testCheckouts) =>
    (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n;
  const balance = async (userId: number) => (await t.database.db.select({ c: users.credits }).from(users).where(eq(users.id, userId)))[0].c;

  it('a message key reused with another recipient or text answers 422 and sends and charges nothing', async () => {
    const { client, user } = await signUp(t);
    await t.database.db.transaction((tx) => addCredits(tx, user.id, 50, 'demo_grant', `h12-${user.id}`));
    const send = (to: number, text: string) => client.post('/api/messages.php', { profile_id: to, text }, { 'idempotency-key': 'h12-message-key-1' });
    const first = await send(recipients[0], 'Hello, first try');
    expect(first.status).toBe(201);
    // A true retry still returns the first message.
    const retry = await send(recipients[0], 'Hello, first try');
    expect(retry.status).toBe(200);
    expect(retry.body.message.id).toBe(first.body.message.id);

    const before = { messages: await count(messages), credits: await balance(user.id) };
    for (const [to, text] of [[recipients[0], 'Something else entirely'], [recipients[1], 'Hello, first try']] as const) {
      const res = await send(to, text);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('idempotency_key_reused');
      expect(res.body.error.message).toBe('This request was already sent with different content. Please try again.');
    }
    expect({ messages: await count(messages), credits: await balance(user.id) }).toEqual(before);
    const ledger = await t.database.db.select().from(creditLedger).where(eq(creditLedger.userId, user.id));
    expect(ledger.filter((r) => r.reason === 'message')).toHaveLength(1);
  });

  it('an order key reused with another package or payment method answers 422 and creates nothing', async () => {
    const { client } = await signUp(t);
    const { body: { packages } } = await client.get('/api/packages.php');
    const order = (packageId: number, method: string) =>
      client.post('/api/order.php', { package_id: packageId, paymentmethod: method, withdrawal_consent: true }, { 'idempotency-key': 'h12-order-key-01' });
    const first = await order(packages[0].id, 'ideal');
    expect(first.status).toBe(201);
    expect((await order(packages[0].id, 'ideal')).body.order.id).toBe(first.body.order.id);

    const before = [await count(orders), await count(payments), await count(testCheckouts)];
    for (const [pkg, method] of [[packages[1].id, 'ideal'], [packages[0].id, 'paypal']] as const) {
      const res = await order(pkg, method);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('idempotency_key_reused');
    }
    expect([await count(orders), await count(payments), await count(testCheckouts)]).toEqual(before);
  });

  it('50 concurrent retries of one order all return the same order with its checkout URL', async () => {
    const { client, user } = await signUp(t);
    const { body: { packages } } = await client.get('/api/packages.php');
    const results = await Promise.all(Array.from({ length: 50 }, () =>
      client.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'creditcard', withdrawal_consent: true }, { 'idempotency-key': 'h12-concurrent-01' })));
    expect(results.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    const ids = new Set(results.map((r) => r.body.order.id));
    expect(ids.size).toBe(1);
    const urls = new Set(results.map((r) => r.body.checkout_url));
    expect([...urls]).toHaveLength(1);
    expect([...urls][0]).toMatch(/^\/test-checkout\/tr_/);
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(eq(orders.userId, user.id));
    expect(n).toBe(1);
    const [{ p }] = await t.database.db.select({ p: sql<number>`count(*)::int` }).from(payments).where(eq(payments.orderId, [...ids][0]));
    expect(p).toBe(1);
  });
});
