import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { AUTH_COOKIE } from '#common/constants.ts';
import { testCheckouts } from '../db/schema.ts';
import type { OutgoingMail } from '../infra/mail/transport.ts';
import { isLocalHostname, isPublicOrigin, siteOrigin } from '../settings/origin.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const PASSWORD = 'correct horse battery';
const EVIL = 'evil.example';
/** Every way a request could name another host. */
const EVIL_HEADERS = { 'x-forwarded-host': EVIL, 'x-forwarded-proto': 'http', forwarded: `host=${EVIL}` };

describe.each(DATABASE_KINDS)('links use the canonical origin whatever the Host header (%s)', (kind) => {
  let t: TestApp;
  let withPublicUrl: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, env: { TRUST_PROXY: '1' } });
    withPublicUrl = await createTestApp(kind, { profiles: 0, env: { PUBLIC_URL: 'https://dating.example.org/' } });
  });
  afterAll(async () => {
    await t.services.events.settle();
    await withPublicUrl.services.events.settle();
    await t.close();
    await withPublicUrl.close();
  });

  const sent = (app: TestApp) => (app.services.mail.mailer as unknown as { sent: OutgoingMail[] }).sent;
  const mailTo = (app: TestApp, to: string, kind: string) => {
    const mail = sent(app).filter((m) => m.to === to && m.kind === kind).at(-1);
    if (!mail) throw new Error(`no ${kind} mail to ${to}`);
    return mail;
  };
  const links = (mail: OutgoingMail) => [...`${mail.text}\n${mail.html}`.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);
  /** Every link of the mail starts with the origin, and none names the attacker's host. */
  const expectLinksOn = (mail: OutgoingMail, origin: string) => {
    expect(links(mail).length).toBeGreaterThan(0);
    expect(`${mail.text}${mail.html}`).not.toContain(EVIL);
    for (const link of links(mail).filter((l) => !l.startsWith('http://www.w3.org'))) expect(link.startsWith(`${origin}/`), link).toBe(true);
  };

  it('a password reset asked with Host: evil.example mails a link to the site\'s own origin', async () => {
    const { user: victim } = await signUp(t);
    const attacker = t.client({ host: EVIL, headers: EVIL_HEADERS });
    expect((await attacker.post('/api/password-reset.php', { email: victim.email })).status).toBe(200);
    const mail = mailTo(t, victim.email, 'password_reset');
    expect(mail.text).toContain('http://localhost:3000/reset-password/do?token=');
    expectLinksOn(mail, 'http://localhost:3000');
  });

  it('activation, e-mail change and reactivation mails too', async () => {
    // Sign-up and the activation mail it sends.
    const evil = t.client({ host: EVIL, headers: EVIL_HEADERS });
    const email = `host.${Date.now()}@example.org`;
    expect((await evil.post('/api/signup.php', { email, name: 'Hosty', password: PASSWORD, date_of_birth: '1990-04-12', gender: 'female', country: 'NL' })).status).toBe(201);
    await t.services.events.settle();
    expectLinksOn(mailTo(t, email, 'activation'), 'http://localhost:3000');
    // Asked again.
    expect((await evil.post('/api/activation-mail.php')).status).toBe(200);
    expect(sent(t).filter((m) => m.to === email && m.kind === 'activation')).toHaveLength(2);
    expectLinksOn(mailTo(t, email, 'activation'), 'http://localhost:3000');

    const { client, user } = await signUp(t);
    const changer = t.client({ host: EVIL, headers: EVIL_HEADERS });
    changer.cookies.set(...([...client.cookies.entries()].find(([k]) => k !== 'locale')!));
    const newEmail = `new.${Date.now()}@example.org`;
    expect((await changer.post('/api/mail-change.php', { email: newEmail, password: PASSWORD })).status).toBe(200);
    expectLinksOn(mailTo(t, newEmail, 'email_change'), 'http://localhost:3000');

    expect((await client.delete('/api/user.php', { password: PASSWORD, reason: 'too_expensive' })).status).toBe(200);
    expect((await t.client({ host: EVIL, headers: EVIL_HEADERS }).post('/api/reactivate.php', { email: user.email })).status).toBe(200);
    expectLinksOn(mailTo(t, user.email, 'reactivation'), 'http://localhost:3000');
  });

  it('payment return and webhook URLs come from the site, not the Host header', async () => {
    const { client } = await signUp(t);
    const buyer = t.client({ host: EVIL, headers: EVIL_HEADERS });
    for (const [k, v] of client.cookies) buyer.cookies.set(k, v);
    const packages = (await buyer.get('/api/packages.php')).body.packages;
    const created = await buyer.post('/api/order.php', { package_id: packages[0].id, paymentmethod: 'ideal', withdrawal_consent: true }, { 'idempotency-key': 'canonical-order-0001' });
    expect(created.status).toBe(201);
    const [checkout] = await t.database.db.select().from(testCheckouts).where(eq(testCheckouts.id, created.body.order.payment_id));
    expect(checkout.redirectUrl).toBe(`http://localhost:3000/credits/${created.body.order.id}`);
    expect(checkout.webhookUrl).toBe('http://localhost:3000/api/payment-webhook.php?provider=test');
    const paid = await buyer.post('/api/test-checkout.php', { id: checkout.id, outcome: 'paid' });
    expect(paid.body.redirect_url).toBe(`http://localhost:3000/credits/${created.body.order.id}`);
  });

  it('PUBLIC_URL, when set, starts every link (mails outside a request too)', async () => {
    const { user } = await signUp(withPublicUrl);
    await withPublicUrl.client({ host: EVIL }).post('/api/password-reset.php', { email: user.email });
    expectLinksOn(mailTo(withPublicUrl, user.email, 'password_reset'), 'https://dating.example.org');
    expect(await withPublicUrl.services.mail.baseUrlFor(withPublicUrl.siteId)).toBe('https://dating.example.org');
    expect(await t.services.mail.baseUrlFor(t.siteId)).toBe('http://localhost:3000');
  });

  it('a site on its own domain links to https://<domain>, whatever the Host header says', async () => {
    await t.services.settings.updateSite(t.siteId, { domain: 'amora.example' });
    try {
      const { user } = await signUp(t);
      await t.client({ host: EVIL, headers: EVIL_HEADERS }).post('/api/password-reset.php', { email: user.email });
      expectLinksOn(mailTo(t, user.email, 'password_reset'), 'https://amora.example');
      expect(await t.services.mail.baseUrlFor(t.siteId)).toBe('https://amora.example');
    } finally {
      await t.services.settings.updateSite(t.siteId, { domain: 'localhost' });
    }
  });

  it('cookies are Secure by the real protocol (trusted X-Forwarded-Proto), never by the Host header or PUBLIC_URL', async () => {
    const { user } = await signUp(t);
    const sessionCookie = async (app: TestApp, headers: Record<string, string>) => {
      const res = await app.app.request('http://localhost/api/user.php', {
        method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      }, { incoming: { socket: { remoteAddress: '10.0.0.1' } } });
      expect(res.status).toBe(200);
      return res.headers.getSetCookie().find((c) => c.startsWith(`${AUTH_COOKIE}=`))!;
    };
    expect(await sessionCookie(t, { 'x-forwarded-proto': 'https' })).toMatch(/;\s*Secure/i);
    expect(await sessionCookie(t, { 'x-forwarded-proto': 'http', host: 'secure.example' })).not.toMatch(/;\s*Secure/i);
    // Without TRUST_PROXY the header is anybody's; a PUBLIC_URL on https does not make a plain request secure.
    const { user: other } = await signUp(withPublicUrl);
    const res = await withPublicUrl.app.request('http://localhost/api/user.php', {
      method: 'POST', headers: { host: 'localhost', 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: other.email, password: PASSWORD }),
    }, { incoming: { socket: { remoteAddress: '10.0.0.2' } } });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().join('\n')).not.toMatch(/;\s*Secure/i);
  });
});

describe('one canonical origin per site', () => {
  it('PUBLIC_URL wins; localhost is this process on PORT; anything else is https on its domain', () => {
    expect(siteOrigin({ PUBLIC_URL: 'https://dating.example.org/', PORT: 3000 }, 'localhost')).toBe('https://dating.example.org');
    expect(siteOrigin({ PORT: 8080 }, 'localhost')).toBe('http://localhost:8080');
    expect(siteOrigin({ PORT: 8080 }, 'amora.example')).toBe('https://amora.example');
  });

  it('knows which names are local', () => {
    for (const h of ['localhost', 'LOCALHOST', 'a.localhost', 'amora.test', '127.0.0.1', '127.1.2.3', '::1', '[::1]']) expect(isLocalHostname(h), h).toBe(true);
    for (const h of ['amora.example', 'localhost.example.com', 'test.example', '10.0.0.1', '128.0.0.1']) expect(isLocalHostname(h), h).toBe(false);
    expect(isPublicOrigin({}, ['localhost'])).toBe(false);
    expect(isPublicOrigin({}, ['localhost', 'amora.example'])).toBe(true);
    expect(isPublicOrigin({ PUBLIC_URL: 'https://amora.example' }, ['localhost'])).toBe(true);
  });
});
