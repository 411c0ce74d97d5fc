import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLocales } from '../i18n/i18n.ts';
import { startupWarnings } from '../settings/startup-warnings.ts';
import { loadEnv } from '../env.ts';
import { createTestApp, DATABASE_KINDS, signUp, type TestApp } from '../../tests/helpers/test-app.ts';

const en = (loadLocales() as unknown as Record<string, { errors: Record<string, string> }>).en;
const PASSWORD = 'correct horse battery';
const FORWARDING = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'forwarded', 'x-real-ip', 'via'];

describe.each(DATABASE_KINDS)('a public start never shows mail to visitors (%s)', (kind) => {
  let t: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { profiles: 0, outbox: true });
    proxied = await createTestApp(kind, { profiles: 0, outbox: true, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  it('an outsider asks for the victim\'s reset link but cannot read it from /dev/outbox, so cannot take the account over', async () => {
    const { user: victim } = await signUp(t);
    const attacker = t.client({ ip: '203.0.113.7' });
    expect((await attacker.post('/api/password-reset.php', { email: victim.email })).status).toBe(200);
    // The mail exists in the outbox...
    expect(t.outbox!.list().some((m) => m.to === victim.email && m.kind === 'password_reset')).toBe(true);

    // ...but none of the viewer's paths answers the outsider.
    const json = await attacker.get(`/dev/outbox/mails.json?to=${encodeURIComponent(victim.email)}`);
    expect(json.status).toBe(404);
    expect(json.body).toEqual({ error: { code: 'not_found', message: en.errors.not_found } });
    const id = t.outbox!.list().find((m) => m.to === victim.email)!.id;
    for (const path of ['/dev/outbox', '/dev/outbox/', `/dev/outbox/${id}`, `/dev/outbox/${id}/html`]) {
      const res = await attacker.get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body), path).not.toMatch(/token=|reset-password/);
    }
    // Without the link, the password stays the victim's.
    const victimClient = t.client();
    expect((await victimClient.post('/api/user.php', { email: victim.email, password: PASSWORD })).status).toBe(200);
  });

  it('refuses a proxy on this machine: a loopback peer with any forwarding header gets 404', async () => {
    await signUp(t);
    for (const header of FORWARDING) {
      const viaProxy = t.client({ ip: '127.0.0.1', headers: { [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' } });
      expect((await viaProxy.get('/dev/outbox/mails.json')).status, header).toBe(404);
      expect((await viaProxy.get('/dev/outbox')).status, header).toBe(404);
    }
  });

  it('refuses everyone when TRUST_PROXY is on, even a plain loopback request', async () => {
    await signUp(proxied);
    const local = proxied.client({ ip: '127.0.0.1' });
    expect((await local.get('/dev/outbox/mails.json')).status).toBe(404);
    expect((await local.get('/dev/outbox')).status).toBe(404);
  });

  it('still shows the mails to the operator on this machine (loopback, no proxy)', async () => {
    const { user } = await signUp(t);
    await t.client({ ip: '203.0.113.8' }).post('/api/password-reset.php', { email: user.email });
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const operator = t.client({ ip });
      const res = await operator.get(`/dev/outbox/mails.json?to=${encodeURIComponent(user.email)}`);
      expect(res.status, ip).toBe(200);
      expect(res.body.mails.some((m: { kind: string; text: string }) => m.kind === 'password_reset' && m.text.includes('/reset-password/do?token='))).toBe(true);
      expect((await operator.get('/dev/outbox')).status, ip).toBe(200);
    }
  });
});

describe('a public start without SMTP_URL says that mail is not delivered', () => {
  const env = (vars: Record<string, string>) => loadEnv({ NODE_ENV: 'production', ...vars });

  it('warns on a public site domain and on a public PUBLIC_URL, naming where the mail goes instead', () => {
    const [warning] = startupWarnings({ env: env({}), domains: ['localhost', 'amora.example'], outboxDir: '/srv/amora/data/outbox' });
    expect(warning.split('\n').length).toBeGreaterThan(2);
    expect(warning).toContain('MAIL IS NOT DELIVERED');
    expect(warning).toContain('/srv/amora/data/outbox');
    expect(warning).toContain('https://amora.example');
    expect(startupWarnings({ env: env({ PUBLIC_URL: 'https://dating.example.org' }), domains: ['localhost'] }).join('\n')).toContain('MAIL IS NOT DELIVERED');
  });

  it('stays quiet about mail with SMTP_URL, and on localhost, *.localhost, *.test and loopback', () => {
    expect(startupWarnings({ env: env({ SMTP_URL: 'smtp://mail.example.org' }), domains: ['amora.example'] }).join('\n')).not.toContain('MAIL');
    expect(startupWarnings({ env: env({}), domains: ['localhost', 'a.localhost', 'amora.test', '127.0.0.1'] })).toEqual([]);
    expect(startupWarnings({ env: env({ PUBLIC_URL: 'http://localhost:8080' }), domains: ['localhost'] })).toEqual([]);
  });
});
