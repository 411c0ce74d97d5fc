import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, discountCodes, users } from '../db/schema.ts';
import { createStaff, type TestStaff, refusal } from '../../tests/helpers/staff.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';


/** A code as the console's form sends it. */
const CODE = { code: 'spring', kind: 'code', percentBp: '12,5', minimums: { EUR: '20,00', GBP: '' }, country: '', oncePerMember: 'on', startsOn: '', endsOn: '', active: 'on' };

describe.each(DATABASE_KINDS)('the console\'s discount codes on %s', (kind) => {
  let t: TestApp;
  let finance: TestStaff;
  const requests = pageRequests(() => t);
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    finance = await createStaff(t, { roles: ['finance'] });
  });
  afterAll(() => t.close());

  const snapshot = async () => ({
    codes: await t.database.db.select().from(discountCodes).orderBy(discountCodes.id),
    audit: await t.database.db.$count(auditLog),
  });
  /** A member who signed up long ago (no welcome time bonus) and never paid. */
  const member = async (country = 'NL') => {
    const m = await signUp(t, { country });
    await t.database.db.update(users).set({ signupDate: new Date(t.clock().getTime() - 86_400_000) }).where(eq(users.id, m.user.id));
    return m;
  };

  it('creates a code as typed (percentage, minimum order, window, once per member), lists it with its uses, and a member redeems it', async () => {
    const { id } = await t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, code: 'Spring25' });
    const [row] = await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, id));
    expect(row).toMatchObject({ siteId: t.siteId, code: 'SPRING25', kind: 'code', percentBp: 1250, minimums: { EUR: 2000 }, country: null, validity: 'once-per-user', startsAt: null, expiresAt: null, active: true });
    const listed = () => t.services.console.discountList(finance.actor, t.siteId).then((list) => list.find((c) => c.id === id));
    expect(await listed()).toMatchObject({ code: 'SPRING25', percentBp: 1250, uses: 0, editable: true });

    const { client } = await member();
    const pkgs = (await client.get('/api/packages.php')).body.packages as { id: number; amount: number }[];
    const dear = pkgs.filter((p) => p.amount >= 2000).sort((a, b) => a.amount - b.amount)[0]!;
    const placed = await client.post('/api/order.php', { package_id: dear.id, paymentmethod: 'creditcard', withdrawal_consent: true, discount_code: 'spring25' }, { 'idempotency-key': 'console-discount-0001' });
    expect(placed.status).toBe(201);
    expect(placed.body.order.amount).toBe(Math.floor((dear.amount * 8750) / 10_000));
    expect((await client.post('/api/test-checkout.php', { id: placed.body.order.payment_id, outcome: 'paid' })).status).toBe(200);
    expect(await listed()).toMatchObject({ uses: 1 });
    expect((await client.get('/api/discountcode.php?code=SPRING25')).body.error.code).toBe('discount_already_used');

    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'discount.create'));
    expect(audit).toMatchObject({ role: 'finance', objectType: 'discount_code', objectId: String(id), after: { code: 'SPRING25', percentBp: 1250 } });
  });

  it('edits a code with before and after in the audit row, and the validity window and country apply to members', async () => {
    const { id } = await t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, code: 'WINDOW', minimums: {} });
    const today = t.clock().toISOString().slice(0, 10);
    const tomorrow = new Date(t.clock().getTime() + 86_400_000).toISOString().slice(0, 10);
    expect(await t.services.console.updateDiscount(finance.actor, t.siteId, id, { ...CODE, code: 'WINDOW', minimums: {}, startsOn: tomorrow, endsOn: tomorrow }))
      .toEqual({ changed: ['startsOn', 'endsOn'] });
    const [audit] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'discount.update'));
    expect(audit).toMatchObject({ objectId: String(id), before: { startsOn: null, endsOn: null }, after: { startsOn: tomorrow, endsOn: tomorrow } });
    const { client } = await member('NL');
    expect((await client.get('/api/discountcode.php?code=WINDOW')).body.error.code).toBe('discount_not_found');
    t.clock.advance(86_400_000);
    expect((await client.get('/api/discountcode.php?code=WINDOW')).body.percentage).toBe(12.5);
    t.clock.advance(86_400_000);
    expect((await client.get('/api/discountcode.php?code=WINDOW')).body.error.code).toBe('discount_expired');

    await t.services.console.updateDiscount(finance.actor, t.siteId, id, { ...CODE, code: 'WINDOW', minimums: {}, startsOn: today, country: 'DE' });
    expect((await client.get('/api/discountcode.php?code=WINDOW')).body.error.code).toBe('discount_wrong_country');
    expect(await t.services.console.updateDiscount(finance.actor, t.siteId, id, { ...CODE, code: 'WINDOW', minimums: {}, startsOn: today, country: 'DE' })).toEqual({ changed: [] });

    // A window that ends at another time than midnight (made elsewhere) stays as it is when other fields change.
    const odd = new Date('2031-03-04T15:30:00Z');
    await t.database.db.update(discountCodes).set({ expiresAt: odd }).where(eq(discountCodes.id, id));
    expect(await t.services.console.updateDiscount(finance.actor, t.siteId, id, { ...CODE, code: 'WINDOW', minimums: {}, startsOn: today, endsOn: '2031-03-04', country: 'DE', percentBp: '20' }))
      .toEqual({ changed: ['percentBp'] });
    expect((await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0]).toMatchObject({ percentBp: 2000, expiresAt: odd });

    expect(await t.services.console.deactivateDiscount(finance.actor, t.siteId, id)).toEqual({ changed: true });
    expect(await t.services.console.deactivateDiscount(finance.actor, t.siteId, id)).toEqual({ changed: false });
    expect(await t.database.db.$count(auditLog, eq(auditLog.action, 'discount.deactivate'))).toBe(1);
  });

  it('refuses bad fields with the message beside each, a taken code, and unknown or personal codes, changing nothing', async () => {
    const { id } = await t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, code: 'TAKEN' });
    const [personal] = await t.database.db.insert(discountCodes).values({ siteId: t.siteId, code: 'STAY20-X', kind: 'personal', percentBp: 2000 }).returning();
    const before = await snapshot();
    const bad: [Record<string, unknown>, Record<string, string>][] = [
      [{ code: 'a' }, { code: 'errors.discount_code_invalid' }],
      [{ code: 'SPACE BAR' }, { code: 'errors.discount_code_invalid' }],
      [{ code: 'x'.repeat(33) }, { code: 'errors.discount_code_invalid' }],
      [{ code: 42 }, { code: 'errors.discount_code_invalid' }],
      [{ kind: 'personal' }, { kind: 'errors.invalid_choice' }],
      [{ percentBp: '0' }, { percentBp: 'errors.number_out_of_range' }],
      [{ percentBp: '95' }, { percentBp: 'errors.number_out_of_range' }],
      [{ percentBp: 'half' }, { percentBp: 'errors.number_out_of_range' }],
      [{ minimums: { EUR: '-1' } }, { minimums: 'errors.number_out_of_range' }],
      [{ minimums: { XXX: '1' } }, { minimums: 'errors.invalid_choice' }],
      [{ country: 'ZZ' }, { country: 'errors.invalid_choice' }],
      [{ startsOn: '2026-02-30' }, { startsOn: 'errors.invalid_input' }],
      [{ startsOn: '2026-05-02', endsOn: '2026-05-01' }, { endsOn: 'errors.date_order' }],
      [{ endsOn: '\u0000' }, { endsOn: 'errors.invalid_input' }],
    ];
    for (const [change, fields] of bad) {
      expect(await refusal(t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, ...change })), JSON.stringify(change)).toEqual({ status: 400, code: 'invalid_input', fields });
      expect(await refusal(t.services.console.updateDiscount(finance.actor, t.siteId, id, { ...CODE, code: 'TAKEN', ...change }))).toEqual({ status: 400, code: 'invalid_input', fields });
    }
    expect(await refusal(t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, code: 'taken' }))).toEqual({ status: 409, code: 'invalid_input', fields: { code: 'errors.discount_code_taken' } });
    for (const missing of [2_000_000_000, personal!.id]) {
      expect(await refusal(t.services.console.updateDiscount(finance.actor, t.siteId, missing, CODE))).toMatchObject({ status: 404 });
      expect(await refusal(t.services.console.deactivateDiscount(finance.actor, t.siteId, missing))).toMatchObject({ status: 404 });
      expect(await refusal(t.services.console.discountEditor(finance.actor, t.siteId, missing))).toMatchObject({ status: 404 });
    }
    expect(await refusal(t.services.console.createDiscount(finance.actor, 2_000_000_000, CODE))).toMatchObject({ status: 404 });
    expect(await snapshot()).toEqual(before);
  });

  it('codes of every site need finance of every site; finance of one site manage that site\'s own codes', async () => {
    const oneSite = await createStaff(t, { roles: ['finance'], siteIds: [t.siteId] });
    const global = await t.services.console.createDiscount(finance.actor, t.siteId, { ...CODE, code: 'EVERYWHERE', everySite: 'on' });
    const before = await snapshot();
    expect(await refusal(t.services.console.createDiscount(oneSite.actor, t.siteId, { ...CODE, code: 'MINE', everySite: 'on' }))).toMatchObject({ status: 403 });
    expect(await refusal(t.services.console.updateDiscount(oneSite.actor, t.siteId, global.id, { ...CODE, code: 'EVERYWHERE', everySite: 'on', percentBp: '50' }))).toMatchObject({ status: 403 });
    expect(await refusal(t.services.console.deactivateDiscount(oneSite.actor, t.siteId, global.id))).toMatchObject({ status: 403 });
    expect(await refusal(t.services.console.discountList(oneSite.actor, t.siteId + 1000))).toMatchObject({ status: 403 });
    expect(await snapshot()).toEqual(before);
    expect((await t.services.console.discountList(oneSite.actor, t.siteId)).find((c) => c.id === global.id)).toMatchObject({ everySite: true, editable: false });

    const mine = await t.services.console.createDiscount(oneSite.actor, t.siteId, { ...CODE, code: 'MINE' });
    // A site's code cannot be widened to every site by staff of one site.
    expect(await refusal(t.services.console.updateDiscount(oneSite.actor, t.siteId, mine.id, { ...CODE, code: 'MINE', everySite: 'on' }))).toMatchObject({ status: 403 });
    expect(await t.services.console.deactivateDiscount(oneSite.actor, t.siteId, mine.id)).toEqual({ changed: true });
  });

  it('the discount pages: the list with uses, a new code typed as money and percentage, errors beside their fields, deactivation', async () => {
    const { cookie } = await finance.cookie();
    const count = await t.database.db.$count(discountCodes);
    const bad = await requests.postForm('/console/discounts/new', { intent: 'discount', code: 'x', kind: 'code', percentBp: '200', oncePerMember: 'on', active: 'on' }, cookie);
    expect(bad.status).toBe(400);
    const text = await requests.textOf(bad);
    expect(text).toContain('discount-code-error');
    expect(text).toContain('discount-percentBp-error');
    expect(await t.database.db.$count(discountCodes)).toBe(count);

    const made = await requests.postForm('/console/discounts/new', { intent: 'discount', code: 'page10', kind: 'code', percentBp: '7,5', 'minimums.EUR': '9,99', country: 'NL', active: 'on', startsOn: '', endsOn: '2030-12-31' }, cookie);
    expect(made.status).toBe(302);
    const id = Number(/\/console\/discounts\/(\d+)/.exec(made.headers.get('location') ?? '')?.[1]);
    const [row] = await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, id));
    expect(row).toMatchObject({ code: 'PAGE10', percentBp: 750, minimums: { EUR: 999 }, country: 'NL', validity: 'unlimited', expiresAt: new Date('2031-01-01T00:00:00Z') });
    const list = await requests.textOf(await requests.page('/console/discounts', cookie));
    expect(list).toContain('PAGE10');
    expect(list).toContain('7.5');
    const edit = await requests.textOf(await requests.page(`/console/discounts/${id}`, cookie));
    expect(edit).toContain('value="2030-12-31"');
    expect(edit).toContain('value="9.99"');

    const support = await createStaff(t, { roles: ['support'] });
    expect((await requests.page('/console/discounts', (await support.cookie()).cookie)).status).toBe(403);
    expect((await requests.postForm(`/console/discounts/${id}`, { intent: 'deactivate' }, (await support.cookie()).cookie)).status).toBe(403);
    expect((await requests.postForm(`/console/discounts/${id}`, { intent: 'deactivate' }, cookie)).status).toBe(200);
    expect((await t.database.db.select().from(discountCodes).where(eq(discountCodes.id, id)))[0]!.active).toBe(false);
    expect((await requests.page('/console/discounts/99999999999', cookie)).status).toBe(404);
  });
});
