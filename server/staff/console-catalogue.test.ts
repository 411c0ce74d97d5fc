import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, creditPackagePrices, creditPackages, orders } from '../db/schema.ts';
import { createStaff, type TestStaff, refusal } from '../../tests/helpers/staff.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';


const PACKAGE = { credits: '40', popular: false, sort: '7', active: 'on', prices: { EUR: '2999', GBP: '2599' } };

describe.each(DATABASE_KINDS)('the console\'s credit packages on %s', (kind) => {
  let t: TestApp;
  let finance: TestStaff;
  const requests = pageRequests(() => t);
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    finance = await createStaff(t, { roles: ['finance'] });
  });
  afterAll(() => t.close());

  const snapshot = async () => ({
    packages: await t.database.db.select().from(creditPackages).orderBy(creditPackages.id),
    prices: await t.database.db.select().from(creditPackagePrices).orderBy(creditPackagePrices.packageId, creditPackagePrices.currency),
    audit: await t.database.db.$count(auditLog),
  });

  it('creates and edits a package with its prices in cents, each change audited with before and after', async () => {
    const { id } = await t.services.console.createPackage(finance.actor, PACKAGE);
    const listed = (await t.services.console.packageList(finance.actor, t.siteId)).find((p) => p.id === id);
    const [site] = await t.database.db.query.sites.findMany({ where: (s, { eq: is }) => is(s.id, t.siteId) });
    expect(listed).toMatchObject({ credits: 40, popular: false, sort: 7, active: true, prices: { EUR: 2999, GBP: 2599 }, orders: 0 });
    expect(listed!.aboutMessages).toBe(site!.messageCredits > 0 ? Math.floor(40 / site!.messageCredits) : null);

    expect(await t.services.console.updatePackage(finance.actor, id, { ...PACKAGE, prices: { EUR: '2499', GBP: '' } })).toEqual({ changed: ['prices'] });
    expect(await t.services.console.updatePackage(finance.actor, id, { ...PACKAGE, prices: { EUR: '2499' } })).toEqual({ changed: [] });
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.objectId, String(id))).orderBy(auditLog.id);
    expect(rows.map((r) => [r.action, r.role])).toEqual([['package.create', 'finance'], ['package.update', 'finance']]);
    expect(rows[1]).toMatchObject({ before: { prices: { EUR: 2999, GBP: 2599 } }, after: { prices: { EUR: 2499 } } });
  });

  it('refuses bad fields with the message beside each, and changes nothing', async () => {
    const { id } = await t.services.console.createPackage(finance.actor, PACKAGE);
    const before = await snapshot();
    const bad: [Record<string, unknown>, Record<string, string>][] = [
      [{ credits: '0' }, { credits: 'errors.number_out_of_range' }],
      [{ credits: '1.5' }, { credits: 'errors.number_out_of_range' }],
      [{ sort: 'first' }, { sort: 'errors.number_out_of_range' }],
      [{ prices: { EUR: '19.99' } }, { prices: 'errors.number_out_of_range' }],
      [{ prices: { EUR: '-5' } }, { prices: 'errors.number_out_of_range' }],
      [{ prices: { XYZ: '100' } }, { prices: 'errors.invalid_choice' }],
      [{ prices: { EUR: '' } }, { prices: 'errors.field_required' }],
      [{ prices: 'cheap' }, { prices: 'errors.invalid_input' }],
    ];
    for (const [change, fields] of bad) {
      expect(await refusal(t.services.console.updatePackage(finance.actor, id, { ...PACKAGE, ...change }))).toEqual({ status: 400, code: 'invalid_input', fields });
      expect(await refusal(t.services.console.createPackage(finance.actor, { ...PACKAGE, ...change }))).toEqual({ status: 400, code: 'invalid_input', fields });
    }
    expect(await refusal(t.services.console.updatePackage(finance.actor, 2_000_000_000, PACKAGE))).toMatchObject({ status: 404 });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses staff of one site only and other roles, writing nothing', async () => {
    const { id } = await t.services.console.createPackage(finance.actor, PACKAGE);
    const oneSite = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const support = await createStaff(t, { roles: ['support'] });
    const before = await snapshot();
    expect(await refusal(t.services.console.packageList(oneSite.actor, t.siteId))).toBe('allowed');
    expect(await refusal(t.services.console.packageList(oneSite.actor, t.siteId + 1000))).toMatchObject({ status: 403 });
    for (const actor of [oneSite.actor, support.actor]) {
      expect(await refusal(t.services.console.updatePackage(actor, id, { ...PACKAGE, credits: '41' }))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.createPackage(actor, PACKAGE))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.removePackage(actor, id))).toMatchObject({ status: 403 });
    }
    expect(await refusal(t.services.console.packageList(support.actor, t.siteId))).toMatchObject({ status: 403 });
    expect(await snapshot()).toEqual(before);
  });

  it('an open checkout keeps the price it showed: a changed price refuses the order placed with the old one, and a placed order keeps its amount', async () => {
    const { id } = await t.services.console.createPackage(finance.actor, { ...PACKAGE, prices: { EUR: '2999' } });
    const member = await signUp(t);
    const shown = (await member.client.get('/api/packages.php')).body.packages.find((p: { id: number }) => p.id === id);
    expect(shown.amount).toBe(2999);

    // An order placed before the change keeps the amount it was placed with (the new member's welcome bonus included).
    const first = await member.client.post('/api/order.php', { package_id: id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'catalogue-before-0001' });
    expect(first.status).toBe(201);
    const placedAt = first.body.order.amount as number;
    await t.services.console.updatePackage(finance.actor, id, { ...PACKAGE, prices: { EUR: '3499' } });
    const [kept] = await t.database.db.select({ amount: orders.amountCents }).from(orders).where(eq(orders.id, first.body.order.id));
    expect(kept!.amount).toBe(placedAt);

    // Another new member's checkout opened at the old price is not charged the new one: the order is refused, nothing placed.
    const other = await signUp(t);
    const count = await t.database.db.$count(orders);
    const late = await other.client.post('/api/order.php', { package_id: id, paymentmethod: 'ideal', withdrawal_consent: true, amount: placedAt }, { 'idempotency-key': 'catalogue-after-0001' });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('price_changed');
    expect(await t.database.db.$count(orders)).toBe(count);
  });

  it('deletes a package no order names, and deactivates one an order names', async () => {
    const unused = await t.services.console.createPackage(finance.actor, PACKAGE);
    expect(await t.services.console.removePackage(finance.actor, unused.id)).toEqual({ outcome: 'deleted' });
    expect(await t.database.db.$count(creditPackages, eq(creditPackages.id, unused.id))).toBe(0);

    const used = await t.services.console.createPackage(finance.actor, { ...PACKAGE, prices: { EUR: '2999' } });
    const member = await signUp(t);
    const placed = await member.client.post('/api/order.php', { package_id: used.id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'catalogue-remove-0001' });
    expect(placed.status).toBe(201);
    expect(await t.services.console.removePackage(finance.actor, used.id)).toEqual({ outcome: 'deactivated' });
    const [row] = await t.database.db.select().from(creditPackages).where(eq(creditPackages.id, used.id));
    expect(row!.active).toBe(false);
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'package.deactivate'));
    expect(audit).toMatchObject({ objectId: String(used.id), before: { active: true }, after: { active: false } });
    expect((await member.client.get('/api/packages.php')).body.packages.map((p: { id: number }) => p.id)).not.toContain(used.id);
  });

  it('shows the packages page to finance staff, with prices and "about N messages", and refuses support staff', async () => {
    await t.services.console.createPackage(finance.actor, { ...PACKAGE, credits: '777', prices: { EUR: '7777' } });
    const page = await requests.page('/console/packages', (await finance.cookie()).cookie);
    expect(page.status).toBe(200);
    const text = await requests.textOf(page);
    expect(text).toContain('Credit packages');
    expect(text).toMatch(/777<\/th>/);
    expect(text).toContain('77.77');
    const support = await createStaff(t, { roles: ['support'] });
    expect((await requests.page('/console/packages', (await support.cookie()).cookie)).status).toBe(403);
  });

  it('the package form takes prices as money in the console\'s language, shows each bad field beside it, and asks before removing', async () => {
    const { cookie } = await finance.cookie();
    const before = await t.database.db.$count(creditPackages);
    const bad = await requests.postForm('/console/packages/new', { intent: 'package', credits: '0', sort: '0', active: 'on', 'prices.EUR': '19,9999' }, cookie);
    expect(bad.status).toBe(400);
    const text = await requests.textOf(bad);
    expect(text).toContain('package-credits-error');
    expect(text).toContain('package-prices-error');
    expect(await t.database.db.$count(creditPackages)).toBe(before);

    const made = await requests.postForm('/console/packages/new', { intent: 'package', credits: '120', sort: '3', active: 'on', 'prices.EUR': '1.299,50', 'prices.GBP': '19.99', 'prices.PLN': '' }, cookie);
    expect(made.status).toBe(302);
    const id = Number(/\/console\/packages\/(\d+)\?saved=1/.exec(made.headers.get('location') ?? '')?.[1]);
    expect((await t.services.console.packageList(finance.actor, t.siteId)).find((p) => p.id === id)).toMatchObject({ credits: 120, prices: { EUR: 129950, GBP: 1999 } });
    const edit = await requests.textOf(await requests.page(`/console/packages/${id}`, cookie));
    expect(edit).toContain('value="1299.50"');
    expect(edit).toContain('data-testid="package-remove"');

    expect((await requests.postForm(`/console/packages/${id}`, { intent: 'package', credits: '130', sort: '3', active: 'on', 'prices.EUR': '15' }, cookie)).status).toBe(200);
    expect((await t.services.console.packageList(finance.actor, t.siteId)).find((p) => p.id === id)).toMatchObject({ credits: 130, prices: { EUR: 1500 } });

    const support = await createStaff(t, { roles: ['support'] });
    expect((await requests.postForm(`/console/packages/${id}`, { intent: 'remove' }, (await support.cookie()).cookie)).status).toBe(403);
    expect((await requests.page('/console/packages/new', (await support.cookie()).cookie)).status).toBe(403);
    const oneSite = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const theirs = await requests.textOf(await requests.page('/console/packages', (await oneSite.cookie()).cookie));
    expect(theirs).toContain('Credit packages');
    expect(theirs).not.toContain('data-testid="package-new"');
    expect((await requests.page(`/console/packages/${id}`, (await oneSite.cookie()).cookie)).status).toBe(403);
    const removed = await requests.postForm(`/console/packages/${id}`, { intent: 'remove' }, cookie);
    expect(removed.headers.get('location')).toBe('/console/packages?removed=deleted');
    expect(await t.database.db.$count(creditPackages, eq(creditPackages.id, id))).toBe(0);
    expect((await requests.page('/console/packages/99999999999', cookie)).status).toBe(404);
  });
});
