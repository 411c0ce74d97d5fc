import { and, count, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor } from '../actor.ts';
import { auditLog, siteMailTexts, sitePageTexts, sitePageTokens } from '../db/schema.ts';
import { localStorage } from '../infra/storage.ts';
import { createLogger } from '../infra/logger.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import { createServices } from '../services.ts';
import { createStaff, type TestStaff, refusal } from '../../tests/helpers/staff.ts';
import { pageRequests } from '../../tests/helpers/page-requests.ts';
import { createTestApp, DATABASE_KINDS, type TestApp } from '../../tests/helpers/test-app.ts';


const TOKEN = { path: 'spring-flyer', target: 'lander:gallery', slug: 'women', network: 'flyer', sub1: 'spring' };

describe.each(DATABASE_KINDS)('the console\'s site texts on %s', (kind) => {
  let t: TestApp;
  let admin: TestStaff;
  let support: TestStaff;
  let otherAdmin: TestStaff;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, pages: true });
    admin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId] });
    support = await createStaff(t, { roles: ['support'], siteIds: [t.siteId] });
    otherAdmin = await createStaff(t, { roles: ['admin'], siteIds: [t.siteId + 1000] });
  });
  afterAll(() => t.close());
  const requests = pageRequests(() => t);

  const audits = async (action: string) => t.database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
  const tokenRows = async () => (await t.database.db.select({ n: count() }).from(sitePageTokens).where(eq(sitePageTokens.siteId, t.siteId)))[0].n;
  const visitor = () => actorFor(t.siteId, null);

  it('start with the short paths of content/page-tokens.json, which resolve as before', async () => {
    const list = await t.services.console.tokenList(admin.actor, t.siteId);
    expect(list.tokens.map((x) => x.token)).toEqual(['dating-faq', 'nearby']);
    expect(list.landers.find((l) => l.name === 'maplanding')?.preview).toBe('/landers/maplanding');
    expect(await t.services.pageTokens.resolve(t.siteId, 'nearby')).toEqual({ lander: 'maplanding', tracking: { network: 'flyer', sub1: 'nearby' } });
  });

  it('add, change and remove a token with an audit row each, refusing bad input and changing nothing then', async () => {
    const before = await tokenRows();
    const bad: [unknown, string, string][] = [
      [{ ...TOKEN, path: 'members' }, 'path', 'errors.token_reserved'],
      [{ ...TOKEN, path: 'console' }, 'path', 'errors.token_reserved'],
      [{ ...TOKEN, path: 'api' }, 'path', 'errors.token_reserved'],
      [{ ...TOKEN, path: 'Spring Flyer' }, 'path', 'errors.token_invalid'],
      [{ ...TOKEN, path: 'a/b' }, 'path', 'errors.token_invalid'],
      [{ ...TOKEN, path: 'x'.repeat(100_000) }, 'path', 'errors.token_invalid'],
      [{ ...TOKEN, path: 12 }, 'path', 'errors.token_invalid'],
      [{ ...TOKEN, target: 'lander:nosuch' }, 'target', 'errors.invalid_choice'],
      [{ ...TOKEN, target: 'page:secret' }, 'target', 'errors.invalid_choice'],
      [{ ...TOKEN, target: 'page:faq' }, 'slug', 'errors.slug_not_taken'],
      [{ ...TOKEN, target: 'lander:tinderswipe' }, 'slug', 'errors.slug_not_taken'],
      [{ ...TOKEN, network: 'a\u0000b' }, 'network', 'errors.invalid_input'],
      [{ ...TOKEN, sub2: 'x'.repeat(101) }, 'sub2', 'errors.invalid_input'],
      [{ ...TOKEN, path: 'nearby' }, 'path', 'errors.token_taken'],
    ];
    for (const [input, field, message] of bad) {
      expect(await refusal(t.services.console.saveToken(admin.actor, t.siteId, null, input)), JSON.stringify(input).slice(0, 80))
        .toMatchObject({ status: expect.any(Number), code: 'invalid_input', fields: { [field]: message } });
    }
    expect(await tokenRows()).toBe(before);
    expect(await audits('page_token.create')).toHaveLength(0);

    expect(await t.services.console.saveToken(admin.actor, t.siteId, null, TOKEN, { ip: '192.0.2.1' })).toEqual({ token: 'spring-flyer', changed: ['token'] });
    expect(await t.services.pageTokens.resolve(t.siteId, 'spring-flyer')).toEqual({ lander: 'gallery', slug: 'women', tracking: { network: 'flyer', sub1: 'spring' } });
    const [created] = await audits('page_token.create');
    expect(created).toMatchObject({ staffId: admin.actor.staffId, objectId: `${t.siteId}/spring-flyer`, after: { token: 'spring-flyer', lander: 'gallery', slug: 'women', tracking: { network: 'flyer', sub1: 'spring' } } });

    // A change (here to a page, under a new token) is one audit row with the changed fields before and after.
    const changed = await t.services.console.saveToken(admin.actor, t.siteId, 'spring-flyer', { path: 'spring-help', target: 'page:faq', network: 'flyer' });
    expect(changed.changed.sort()).toEqual(['lander', 'page', 'slug', 'token', 'tracking']);
    const [updated] = await audits('page_token.update');
    expect(updated.before).toMatchObject({ token: 'spring-flyer', lander: 'gallery', page: null });
    expect(updated.after).toMatchObject({ token: 'spring-help', lander: null, page: 'faq', tracking: { network: 'flyer' } });
    expect(await t.services.pageTokens.resolve(t.siteId, 'spring-flyer')).toBeNull();
    expect(await t.services.console.saveToken(admin.actor, t.siteId, 'spring-help', { path: 'spring-help', target: 'page:faq', network: 'flyer' })).toEqual({ token: 'spring-help', changed: [] });
    expect(await audits('page_token.update')).toHaveLength(1);

    await t.services.console.deleteToken(admin.actor, t.siteId, 'spring-help');
    expect(await t.services.pageTokens.resolve(t.siteId, 'spring-help')).toBeNull();
    expect((await audits('page_token.delete'))[0].before).toMatchObject({ token: 'spring-help', target: 'page:faq' });
    expect(await refusal(t.services.console.deleteToken(admin.actor, t.siteId, 'spring-help'))).toMatchObject({ status: 404 });
    expect(await refusal(t.services.console.saveToken(admin.actor, t.siteId, 'no-such', TOKEN))).toMatchObject({ status: 404 });
    expect(await tokenRows()).toBe(before);
  });

  it('are for admins of the site only', async () => {
    for (const actor of [support.actor, otherAdmin.actor, visitor()]) {
      expect(await refusal(t.services.console.tokenList(actor, t.siteId))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.saveToken(actor, t.siteId, null, TOKEN))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.deleteToken(actor, t.siteId, 'nearby'))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.savePageText(actor, t.siteId, 'nl', 'faq', { markdown: '# FAQ' }))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.saveMailText(actor, t.siteId, 'en', 'activation', { subject: 'Hi' }))).toMatchObject({ status: 403 });
      expect(await refusal(t.services.console.sendTestMail(actor, t.siteId, 'en', 'activation'))).toMatchObject({ status: 403 });
    }
    expect(await tokenRows()).toBe(2);
  });

  it('show a site\'s own page text instead of the file, sanitized the same way; saving the terms gives them a new version date', async () => {
    const page = () => t.services.content.sitePage(visitor(), { slug: 'faq', language: 'nl', requestCountry: null });
    const shipped = await page();
    const form = await t.services.console.pageText(admin.actor, t.siteId, 'nl', 'faq');
    expect(form.own).toBe(false);
    expect(form.markdown.startsWith('# ')).toBe(true);

    for (const [input, message] of [
      [{ markdown: 'no title' }, 'errors.page_title_missing'],
      [{ markdown: '' }, 'errors.field_required'],
      [{ markdown: `# T\n${'x'.repeat(100_001)}` }, 'errors.field_too_long'],
      [{ markdown: '# T\u202E' }, 'errors.text_invalid_characters'],
      [{ markdown: 5 }, 'errors.field_required'],
    ] as const) {
      expect(await refusal(t.services.console.savePageText(admin.actor, t.siteId, 'nl', 'faq', input))).toMatchObject({ status: 400, fields: { markdown: message } });
    }
    for (const [lang, slug] of [['xx', 'faq'], ['nl', 'secret'], ['nl', '__proto__'], ['nl'.repeat(1000), 'faq']]) {
      expect(await refusal(t.services.console.savePageText(admin.actor, t.siteId, lang, slug, { markdown: '# T' }))).toMatchObject({ status: 404 });
    }
    expect((await t.database.db.select({ n: count() }).from(sitePageTexts))[0].n).toBe(0);

    const markdown = '# Vragen over {{site_name}}\n\n## Hoe werkt het?\n\nHeel eenvoudig. <script>alert(1)</script> [klik](javascript:alert(1)) [hulp](/complaints)';
    const preview = await t.services.console.previewPageText(admin.actor, t.siteId, 'nl', { markdown });
    expect(preview.title).toBe('Vragen over Amora');
    expect(preview.html).toContain('&lt;script&gt;');
    expect(preview.html).not.toContain('<script>');
    expect(preview.html).not.toContain('javascript:');
    expect(preview.html).toContain('<a href="/complaints">hulp</a>');

    const saved = await t.services.console.savePageText(admin.actor, t.siteId, 'nl', 'faq', { markdown });
    expect(saved.changed).toBe(true);
    expect(await page()).toEqual(preview);
    expect(await page()).not.toEqual(shipped);
    const [audit] = await audits('page_text.save');
    expect(audit).toMatchObject({ objectId: `${t.siteId}/nl/faq`, before: null, after: { markdown } });
    // Other languages keep the file.
    expect((await t.services.content.sitePage(visitor(), { slug: 'faq', language: 'de', requestCountry: null })).title).not.toContain('Vragen');

    // The terms' date is the spec's until the site's own terms are saved, then the date of that save.
    const terms = () => t.services.content.sitePage(visitor(), { slug: 'terms', language: 'en', requestCountry: null });
    const termsForm = await t.services.console.pageText(admin.actor, t.siteId, 'en', 'terms');
    expect(termsForm.markdown).toContain('{{terms_date}}');
    expect((await terms()).html).toContain('1 March 2024');
    const savedAt = t.clock();
    await t.services.console.savePageText(admin.actor, t.siteId, 'en', 'terms', { markdown: `${termsForm.markdown}\n\nOne more rule.` });
    const shown = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(savedAt);
    expect((await terms()).html).toContain(shown);
    expect((await terms()).html).toContain('One more rule.');

    await t.services.console.resetPageText(admin.actor, t.siteId, 'nl', 'faq');
    expect(await page()).toEqual(shipped);
    expect((await audits('page_text.reset'))[0].before).toMatchObject({ markdown });
  });

  it('send mails in the site\'s own wording, refusing a text without the placeholders it needs', async () => {
    const sent = (t.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent;
    const send = () => t.services.mail.send({ to: 'ana@example.org', lang: 'nl', siteId: t.siteId, kind: 'new_message', params: { name: 'Ana', sender: 'Bo' }, link: '/chats/1' });
    const form = await t.services.console.mailText(admin.actor, t.siteId, 'nl', 'new_message');
    expect(form.defaults.subject).toContain('{{sender}}');
    expect(form.placeholders).toEqual(expect.arrayContaining(['site', 'sender']));

    for (const [input, field, message] of [
      [{ subject: 'Nieuw bericht' }, 'subject', 'errors.placeholder_missing'],
      [{ subject: '{{sender}} schreef {{password}}' }, 'subject', 'errors.placeholder_unknown'],
      [{ intro: 'x'.repeat(4001) }, 'intro', 'errors.field_too_long'],
      [{ subject: 'a\u0000 {{sender}}' }, 'subject', 'errors.text_invalid_characters'],
      [{ button: ['x'] }, 'button', 'errors.text_invalid_characters'],
    ] as const) {
      expect(await refusal(t.services.console.saveMailText(admin.actor, t.siteId, 'nl', 'new_message', input))).toMatchObject({ status: 400, fields: { [field]: message } });
    }
    expect(await refusal(t.services.console.saveMailText(admin.actor, t.siteId, 'nl', 'notice_received', { subject: '{{reference}}' }))).toMatchObject({ status: 404 });
    expect((await t.database.db.select({ n: count() }).from(siteMailTexts))[0].n).toBe(0);

    const wording = { subject: '{{sender}} wacht op je antwoord', intro: 'Hoi! {{sender}} schreef je op {{site}}.\n<b>Kijk snel</b>' };
    expect((await t.services.console.saveMailText(admin.actor, t.siteId, 'nl', 'new_message', wording, { ip: null })).changed.sort()).toEqual(['intro', 'subject']);
    const [audit] = await audits('mail_text.save');
    expect(audit).toMatchObject({ objectId: `${t.siteId}/nl/new_message`, before: { subject: null, intro: null }, after: wording });
    await send();
    const mail = sent.at(-1)!;
    expect(mail.subject).toBe('Bo wacht op je antwoord');
    expect(mail.text).toContain('Hoi! Bo schreef je op Amora.');
    // Staff's wording is text in the HTML part, not markup.
    expect(mail.html).toContain('&lt;b&gt;Kijk snel&lt;/b&gt;');
    // The button keeps its translation, and other languages their own wording.
    expect(mail.text).toMatch(/: http\S+\/chats\/1$/m);
    await t.services.mail.send({ to: 'ana@example.org', lang: 'en', siteId: t.siteId, kind: 'new_message', params: { name: 'Ana', sender: 'Bo' }, link: '/chats/1' });
    expect(sent.at(-1)!.subject).toBe('Bo sent you a message');

    // All parts empty: the translation again.
    await t.services.console.saveMailText(admin.actor, t.siteId, 'nl', 'new_message', {});
    expect((await t.database.db.select({ n: count() }).from(siteMailTexts))[0].n).toBe(0);
    await send();
    expect(sent.at(-1)!.subject).not.toContain('wacht');

    expect(await t.services.console.sendTestMail(admin.actor, t.siteId, 'nl', 'activation')).toEqual({ to: admin.email });
    expect(sent.at(-1)).toMatchObject({ to: admin.email, kind: 'activation' });
  });

  it('a token and a page text saved on one instance reach a second instance within a second, without a restart', async () => {
    const second = createServices({ db: t.database.db, clock: t.clock, storage: localStorage(t.photosDir), logger: createLogger('error') });
    expect(await second.pageTokens.resolve(t.siteId, 'autumn')).toBeNull();
    const faq = () => second.content.sitePage(visitor(), { slug: 'faq', language: 'nl', requestCountry: null });
    const shipped = await faq();

    await t.services.console.saveToken(admin.actor, t.siteId, null, { path: 'autumn', target: 'page:faq', sub1: 'autumn' });
    await t.services.console.savePageText(admin.actor, t.siteId, 'nl', 'faq', { markdown: '# Onze vragen\n\nAlles over herfst.' });
    // The second instance reads the shared version stamp at most once a second.
    t.clock.advance(1_000);
    expect(await second.pageTokens.resolve(t.siteId, 'autumn')).toEqual({ page: 'faq', tracking: { sub1: 'autumn' } });
    expect((await faq()).title).toBe('Onze vragen');

    await t.services.console.deleteToken(admin.actor, t.siteId, 'autumn');
    await t.services.console.resetPageText(admin.actor, t.siteId, 'nl', 'faq');
    t.clock.advance(1_000);
    expect(await second.pageTokens.resolve(t.siteId, 'autumn')).toBeNull();
    expect(await faq()).toEqual(shipped);
    const left = await t.database.db.select().from(sitePageTexts).where(and(eq(sitePageTexts.siteId, t.siteId), eq(sitePageTexts.page, 'faq')));
    expect(left).toHaveLength(0);
  });

  it('answer the console\'s pages with 4xx for paths and forms that name nothing, never 500, and change nothing', async () => {
    const { cookie } = await admin.cookie();
    expect((await requests.page('/console/content', cookie)).status).toBe(200);
    expect(await requests.textOf(await requests.page('/console/content', cookie))).toContain('/nearby');
    for (const path of [
      '/console/content?site=abc', '/console/content?site=99999999999', `/console/content?edit=${'x'.repeat(5000)}`, '/console/content?edit=%00',
      '/console/content/pages/xx/faq', '/console/content/pages/nl/secret', '/console/content/pages/nl/__proto__',
      '/console/content/mails/nl/notice_received', `/console/content/mails/${'n'.repeat(3000)}/activation`,
    ]) {
      const status = (await requests.page(path, cookie)).status;
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(status, path).toBeLessThan(500);
    }
    const before = await tokenRows();
    for (const fields of [{ path: 'api', target: 'page:faq' }, { path: 'x\u0000', target: 'page:faq' }, { path: 'ok-path', target: 'lander:evil' }]) {
      expect((await requests.postForm('/console/content', fields, cookie)).status).toBe(400);
    }
    expect((await requests.postForm('/console/content', { intent: 'delete', token: 'no-such' }, cookie)).status).toBe(404);
    expect((await requests.postForm('/console/content/mails/nl/new_message', { subject: 'Nieuw' }, cookie)).status).toBe(400);
    expect((await requests.postForm('/console/content/pages/nl/faq', { markdown: 'no title' }, cookie)).status).toBe(400);
    expect(await tokenRows()).toBe(before);
    expect((await t.database.db.select({ n: count() }).from(siteMailTexts))[0].n).toBe(0);
    // Staff without the admin role get the page's 403.
    expect((await requests.page('/console/content', (await support.cookie()).cookie)).status).toBe(403);
  });
});
