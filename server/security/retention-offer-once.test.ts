import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { companies, discountCodes, discountRedemptions, orders, retentionOffers, sites, users } from '../db/schema.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import { MIGRATIONS_DIR } from '../paths.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const PASSWORD = 'correct horse battery';
const HOUR4 = 14_400_000;

/**
 * The account-deletion page's 50% offer was a new personal code at every POST /api/delete-offer.php: a member
 * bought every bundle at half price for ever. It is made once per member, with the reason for leaving, and asking
 * again gives the same code while it can be used, else nothing.
 */
describe.each(DATABASE_KINDS)('the retention offer is made once per member (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0 });
  });
  afterAll(() => t.close());

  type Client = ReturnType<TestApp['client']>;
  let keys = 0;
  /** A member whose welcome time bonus is over, so only the offer (or the welcome code) can lower a price. */
  const member = async () => {
    const m = await signUp(t);
    await t.database.db.update(users).set({ signupDate: new Date(t.clock().getTime() - HOUR4 - 1000) }).where(eq(users.id, m.user.id));
    return m;
  };
  const ask = (client: Client, reason: unknown = 'too_expensive') => client.post('/api/delete-offer.php', { reason });
  const order = async (client: Client, code: string | null) => {
    const [pkg] = (await client.get('/api/packages.php')).body.packages as { id: number }[];
    return client.post('/api/order.php', { package_id: pkg.id, paymentmethod: 'creditcard', withdrawal_consent: true, ...(code ? { discount_code: code } : {}) },
      { 'idempotency-key': `retention-offer-${++keys}` });
  };
  const personalCodes = (userId: number) => t.database.db.select().from(discountCodes)
    .where(and(eq(discountCodes.userId, userId), eq(discountCodes.kind, 'personal')));

  it('three rounds of offer → order → paid give one discounted order', async () => {
    const { client, user } = await member();
    const offers: number[] = [];
    let code: string | null = null;
    for (let round = 0; round < 3; round++) {
      // The member asks for the offer again and orders with whatever code they got (or the last one they had).
      const offer = await ask(client);
      offers.push(offer.status);
      if (offer.status === 200) code = offer.body.discount.code;
      let placed = await order(client, code);
      if (placed.status !== 201) {
        expect([placed.status, placed.body.error.code]).toEqual([409, 'discount_already_used']);
        placed = await order(client, null);
      }
      expect(placed.status).toBe(201);
      expect((await client.post('/api/test-checkout.php', { id: placed.body.order.payment_id, outcome: 'paid' })).status).toBe(200);
    }
    const completed = await t.database.db.select().from(orders).where(and(eq(orders.userId, user.id), eq(orders.status, 'completed')));
    expect(completed).toHaveLength(3);
    const discounted = completed.filter((o) => o.discountCodeId !== null);
    expect(discounted).toHaveLength(1);
    expect(discounted[0]).toMatchObject({ amountCents: 497, originalAmountCents: 995, discountCode: code });
    expect(offers).toEqual([200, 409, 409]);
    expect(await personalCodes(user.id)).toHaveLength(1);
  });

  it('asking again gives the same code, also many times at once; a used one is answered "already used", not replaced', async () => {
    const { client, user } = await member();
    const asks = await Promise.all([1, 2, 3, 4, 5].map(() => ask(client)));
    expect(asks.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(asks.map((a) => a.body.discount.code)).size).toBe(1);
    const again = await ask(client, 'privacy');
    expect(again.body.discount.code).toBe(asks[0].body.discount.code);
    expect(await personalCodes(user.id)).toHaveLength(1);
    // The first reason given is the one the offer was made for.
    expect(await t.database.db.select({ reason: retentionOffers.reason }).from(retentionOffers).where(eq(retentionOffers.userId, user.id)))
      .toEqual([{ reason: 'too_expensive' }]);

    const placed = await order(client, asks[0].body.discount.code);
    await client.post('/api/test-checkout.php', { id: placed.body.order.payment_id, outcome: 'paid' });
    const used = await ask(client);
    expect([used.status, used.body.error.code]).toEqual([409, 'discount_already_used']);
    expect(used.body.error.message).toBe('You have already used this discount code.');
    expect(await personalCodes(user.id)).toHaveLength(1);
  });

  it('is part of leaving: without a reason for it nothing is made', async () => {
    const { client, user } = await member();
    for (const body of [{}, { reason: '' }, { reason: 'bored' }, { reason: 5 }, { reason: ['other'] }]) {
      const res = await client.post('/api/delete-offer.php', body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([400, 'delete_reason_required']);
      expect(res.body.error.message).toBe('Choose your reason for leaving first.');
    }
    expect(await personalCodes(user.id)).toHaveLength(0);
    expect(await t.database.db.$count(retentionOffers, eq(retentionOffers.userId, user.id))).toBe(0);
  });

  it('once per member for good: not again after it expired, after a new percentage, or after deleting and reactivating', async () => {
    const { client, user, actor } = await member();
    const first = (await ask(client)).body.discount;
    // Expired unused (30 days): no new one. (The session ended too.)
    t.clock.advance(31 * 86_400_000);
    await client.login(user.email, PASSWORD);
    const expired = await ask(client);
    expect([expired.status, expired.body.error.code]).toEqual([410, 'discount_expired']);
    expect(await t.services.discounts.retentionOfferShown(actor)).toBeNull();
    // The company changes its offer: the member has had theirs.
    const [{ companyId }] = await t.database.db.select({ companyId: sites.companyId }).from(sites).where(eq(sites.id, t.siteId));
    await t.database.db.update(companies).set({ deleteDiscount: 30 }).where(eq(companies.id, companyId));
    try {
      expect((await ask(client)).status).toBe(410);
      // Leaving and coming back does not start over.
      expect((await client.delete('/api/user.php', { password: PASSWORD, reason: 'too_expensive' })).status).toBe(200);
      await t.services.lifecycle.requestReactivation(t.siteId, user.email);
      const mail = (t.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent.findLast((m) => m.to === user.email && m.kind === 'reactivation')!;
      expect(await t.services.lifecycle.reactivate(t.siteId, /token=([\w-]+)/.exec(mail.text)![1])).toBe(user.id);
      await expect(t.services.discounts.retentionOffer(actor, 'other')).rejects.toMatchObject({ status: 410, code: 'discount_expired' });
      const codes = await personalCodes(user.id);
      expect(codes.map((c) => c.code)).toEqual([first.code]);
      // Another member of the site gets the company's new offer, once.
      const other = await member();
      expect(await t.services.discounts.retentionOfferShown(other.actor)).toEqual({ percentage: 30 });
      expect((await ask(other.client)).body.discount).toMatchObject({ percentage: 30, personal: true });
    } finally {
      await t.database.db.update(companies).set({ deleteDiscount: 50 }).where(eq(companies.id, companyId));
    }
  });

  it('the deletion page shows the offer only while the member can still claim it', async () => {
    const { client, actor } = await member();
    expect(await t.services.discounts.retentionOfferShown(actor)).toEqual({ percentage: 50 });
    const code = (await ask(client)).body.discount.code;
    expect(await t.services.discounts.retentionOfferShown(actor)).toEqual({ percentage: 50 });
    const placed = await order(client, code);
    await client.post('/api/test-checkout.php', { id: placed.body.order.payment_id, outcome: 'paid' });
    expect(await t.services.discounts.retentionOfferShown(actor)).toBeNull();
  });

  it('offers made before (a code per request) are cut back to one per member, a used one first', async () => {
    // What the migration does with the codes the old endpoint handed out.
    const file = readdirSync(MIGRATIONS_DIR).find((f) => f.endsWith('_retention_offers.sql'))!;
    const backfill = readFileSync(join(MIGRATIONS_DIR, file), 'utf8').split('--> statement-breakpoint').slice(-2);
    const { client, user } = await member();
    const legacy = async (n: number) => (await t.database.db.insert(discountCodes).values({
      siteId: t.siteId, code: `STAY50-LEGACY${user.id}X${n}`, kind: 'personal', percentBp: 5000, userId: user.id, validity: 'once-per-user',
      expiresAt: new Date(t.clock().getTime() + 86_400_000),
    }).returning())[0];
    const [a, b, c] = [await legacy(1), await legacy(2), await legacy(3)];
    const placed = await order(client, b.code);
    await client.post('/api/test-checkout.php', { id: placed.body.order.payment_id, outcome: 'paid' });
    expect(await t.database.db.$count(discountRedemptions, eq(discountRedemptions.userId, user.id))).toBe(1);

    for (const statement of backfill) await t.database.db.execute(sql.raw(statement));
    expect(await t.database.db.select({ codeId: retentionOffers.codeId }).from(retentionOffers).where(eq(retentionOffers.userId, user.id)))
      .toEqual([{ codeId: b.id }]);
    for (const unused of [a, c]) {
      const res = await client.get(`/api/discountcode.php?code=${unused.code}`);
      expect([res.status, res.body.error.code]).toEqual([410, 'discount_expired']);
    }
    expect((await ask(client)).body.error.code).toBe('discount_already_used');
  });
});
