import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderRefunds, orders } from '../db/schema.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createStaff, type TestStaff } from '../../tests/helpers/staff.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp, type TestClient } from '../../tests/helpers/test-app.ts';

/**
 * A member page's refund as a browser without JavaScript posts it (server/http/console-member.server.ts): the first
 * post asks, naming the exact part, the order's amount and the credits; only the confirmation refunds, once per form
 * key; bad amounts are refused in the staff member's language and change nothing.
 */
describe.each(DATABASE_KINDS)('a part refund from the member\'s console page on %s', (kind) => {
  let t: TestApp;
  let finance: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    finance = await createStaff(t, { roles: ['finance', 'support'], name: 'Fiona Finance' });
  }, 300_000);
  afterAll(() => t.close());
  const { postForm, textOf } = pageRequests(() => t);

  const paidOrder = async (client: TestClient, key: string) => {
    const packages = (await client.get('/api/packages.php')).body.packages;
    const created = await client.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': key });
    await client.post('/api/test-checkout.php', { id: created.body.order.payment_id, outcome: 'paid' });
    return created.body.order.id as string;
  };
  const refunded = async (id: string) => (await t.database.db.select({ cents: orders.refundedCents }).from(orders).where(eq(orders.id, id)))[0].cents;

  it('asks first with the exact part, refunds once on the confirmation, and refuses bad amounts', async () => {
    const { client, user } = await signUp(t);
    const order = await paidOrder(client, `${kind}-console-refund-order`);
    const cookie = (await finance.cookie()).cookie;
    const path = `/console/members/${user.id}`;
    const opened = await textOf(await (t.app.request(`http://localhost${path}`, { headers: { host: 'localhost', cookie } })));
    expect(opened).toContain('data-testid="refund-left"');
    expect(opened).toContain('Left to refund: €7.46 of €7.46');
    const form = { intent: 'refund', order, amount: '2', reason: 'One bundle too many', key: `${kind}-console-refund-key-0001` };

    const asked = await postForm(path, form, cookie);
    expect(asked.status).toBe(200);
    expect(await textOf(asked)).toContain(`Refund €2.00 of €7.46 on order ${order} through the payment provider, giving the reason “One bundle too many”? 13 credits are taken back.`);
    expect(await refunded(order)).toBe(0);

    const confirmed = { ...form, amount: '2.00', confirm: '1' };
    const done = await Promise.all([postForm(path, confirmed, cookie), postForm(path, confirmed, cookie)]);
    expect(done.map((r) => r.status)).toEqual([200, 200]);
    for (const res of done) expect(await textOf(res)).toContain('€2.00 refunded; 13 credits taken back.');
    expect(await refunded(order)).toBe(200);
    expect(await t.database.db.$count(orderRefunds, eq(orderRefunds.orderId, order))).toBe(1);

    // The next question knows what was refunded before; the order's table shows it.
    const again = await textOf(await postForm(path, { ...form, amount: '', key: `${kind}-console-refund-key-0002` }, cookie));
    expect(again).toContain('Refund €5.46 of €7.46');
    expect(again).toContain('€2.00 of this order was refunded before.');
    expect(again).toContain('€2.00 refunded');

    for (const [amount, message] of [
      ['5.47', 'That is more than is left to refund on this order (5.46 EUR).'], ['0', 'The amount to refund must be more than zero.'],
      ['1.005', 'Enter the amount in whole cents, for example 12.34.'], ['ten', 'Enter the amount in whole cents, for example 12.34.'],
    ]) {
      const refused = await postForm(path, { ...form, amount, confirm: '1', key: `${kind}-console-refund-key-${amount}` }, cookie);
      expect(refused.status).toBe(400);
      expect(await textOf(refused)).toContain(message);
    }
    expect(await refunded(order)).toBe(200);
  });

  it('refunds only this member\'s orders from their page, and only for finance staff', async () => {
    const owner = await signUp(t);
    const other = await signUp(t);
    const order = await paidOrder(owner.client, `${kind}-console-refund-other`);
    const form = { intent: 'refund', order, amount: '1', reason: 'Wrong page', key: `${kind}-console-refund-key-other` };
    const wrongPage = await postForm(`/console/members/${other.user.id}`, form, (await finance.cookie()).cookie);
    expect(wrongPage.status).toBe(404);
    const support = await createStaff(t, { roles: ['support'] });
    const refused = await postForm(`/console/members/${owner.user.id}`, { ...form, confirm: '1' }, (await support.cookie()).cookie);
    expect(refused.status).toBe(400);
    expect(await refunded(order)).toBe(0);
  });
});
