import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '#common/languages.ts';
import { EMAIL_CATEGORIES } from '#common/notifications.ts';
import { createApp } from '../../app.ts';
import { loadEnv } from '../../env.ts';
import { createTranslator } from '../../i18n/i18n.ts';
import { createLogger } from '../logger.ts';
import { fromHeader, renderMail } from './templates.ts';
import { createOutboxMailer } from './transport.ts';
import type { Services } from '../../use-cases.ts';

const brand = {
  siteName: 'Amora', mailName: 'Amora Mail', supportEmail: 'support@example.com', settingsUrl: 'https://example.com/notifications',
  company: { name: 'Amora B.V.', address: 'Keizersgracht 1', city: 'Amsterdam', kvk: '12345678', country: 'NL' },
};
const KINDS = ['activation', 'password_reset', 'email_change', 'reactivation', 'new_message', 'new_like', 'new_match', 'photo_approved', 'photo_rejected', 'notice_received', 'notice_removed', 'notice_no_action'];

describe('mail templates', () => {
  it('renders every mail in all 11 languages, both parts, with brand and company, no untranslated keys', async () => {
    const translator = await createTranslator();
    for (const lang of LANGUAGE_CODES) {
      for (const kind of KINDS) {
        const mail = renderMail(translator, {
          kind, lang, brand, params: { name: 'Ana', sender: 'Bo', other: 'Bo', email: 'x@example.org', days: 14, reference: 'ABCD-EFGH-JKMN', decision: 'Removed.' }, link: 'https://example.com/x?token=abc',
          unsubscribe: { url: 'https://example.com/u', category: EMAIL_CATEGORIES[0] },
        });
        for (const part of [mail.subject, mail.text, mail.html]) {
          expect(part, `${lang} ${kind}`).not.toMatch(/\bmail\.[a-z_]+\.[a-z_]+|\{\{|notifications\.categories/);
        }
        for (const part of [mail.text, mail.html]) {
          expect(part).toContain('Amora');
          expect(part).toContain('Amora B.V.');
          expect(part).toContain('12345678');
          expect(part).toContain('https://example.com/x?token=abc');
        }
        if (lang !== 'en') expect(mail.subject).not.toBe(renderMail(translator, { kind, lang: 'en', brand, params: { name: 'Ana', sender: 'Bo', other: 'Bo', email: 'x@example.org', days: 14, reference: 'ABCD-EFGH-JKMN', decision: 'Removed.' }, link: 'x' }).subject);
      }
    }
  });

  it('tells a notice\'s reporter why they get the mail without assuming an account, and escapes the decision text', async () => {
    const translator = await createTranslator();
    const mail = renderMail(translator, {
      kind: 'notice_no_action', lang: 'nl', brand, params: { name: 'Ana', reference: 'ABCD-EFGH-JKMN', decision: '<img src=x onerror=alert(1)> allowed' }, link: 'https://example.com/complaints/ABCD-EFGH-JKMN?token=t',
    });
    expect(mail.subject).toBe('Je melding ABCD-EFGH-JKMN: geen actie ondernomen');
    expect(mail.text).toContain(translator.t('nl', 'mail.notice_no_action.reason', { site: 'Amora' }));
    expect(mail.text).not.toContain(translator.t('nl', 'mail.common.reason', { site: 'Amora' }));
    expect(mail.text).toContain('<img src=x onerror=alert(1)> allowed');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt; allowed');
    expect(mail.html).not.toContain('<img src=x');
  });

  it('escapes member-supplied values in the HTML part', async () => {
    const mail = renderMail(await createTranslator(), { kind: 'new_message', lang: 'en', brand, params: { name: '<b>x</b>', sender: '<script>alert(1)</script>' }, link: 'https://example.com/c' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('You have a new message from <script>alert(1)</script>');
  });

  it('sends from the site mail name with MAIL_FROM or the support address', () => {
    expect(fromHeader(brand)).toBe('"Amora Mail" <support@example.com>');
    expect(fromHeader(brand, 'no-reply@example.com')).toBe('"Amora Mail" <no-reply@example.com>');
    expect(fromHeader(brand, 'Other <bounce@example.com>')).toBe('"Amora Mail" <bounce@example.com>');
  });
});

describe('dev outbox', () => {
  const dir = mkdtempSync(join(tmpdir(), 'amora-outbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const outbox = createOutboxMailer(dir);
  const app = (env: Record<string, string>) => createApp({
    // No site behind it: the viewer is the machine's, not a site's.
    services: { settings: { siteForHost: async () => undefined, isPublicDeployment: async () => false } } as unknown as Services,
    translator: {} as never, env: loadEnv({ NODE_ENV: 'test', DEV_TOOLS: '1', ...env }), logger: createLogger('silent'), outbox,
  });

  // The operator at this machine: a loopback peer, no proxy.
  const local = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };

  it('writes each mail as .eml and .json and lists it at /dev/outbox', async () => {
    await outbox.send({ kind: 'activation', to: 'a@example.org', from: '"Amora" <s@example.com>', subject: 'Hello', text: 'text part', html: '<p>html part</p>', headers: { 'Content-Language': 'en' } });
    const files = readdirSync(dir);
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    const eml = readFileSync(join(dir, files.find((f) => f.endsWith('.eml'))!), 'utf8');
    expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);
    expect(eml).toContain('text part');
    const res = await app({}).request('/dev/outbox', {}, local);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Hello');
    const json = await (await app({}).request('/dev/outbox/mails.json?to=a@example.org', {}, local)).json() as { mails: { subject: string }[] };
    expect(json.mails.map((m) => m.subject)).toEqual(['Hello']);
  });

  it('does not exist when SMTP_URL is configured', async () => {
    const withSmtp = app({ SMTP_URL: 'smtp://127.0.0.1:2525' });
    withSmtp.onError(() => new Response('no', { status: 500 }));
    expect((await withSmtp.request('/dev/outbox', {}, local)).status).not.toBe(200);
    expect((await withSmtp.request('/dev/outbox/mails.json', {}, local)).status).not.toBe(200);
  });
});
