import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { startSmtpServer, type TestSmtp } from './smtp.ts';
import { createTestApp, signUp, type DatabaseKind, type TestApp, type TestClient } from './test-app.ts';

/**
 * The set-up of the tests of an owner whose log-in is attacked: one app behind a trusted proxy (each
 * simulated device has the address the test gives it) that sends its mail to a real SMTP server.
 */
export function ownerUnderAttack(kind: DatabaseKind) {
  let app: TestApp | undefined;
  let mail: TestSmtp | undefined;
  let hosts = 0;
  beforeAll(async () => {
    mail = await startSmtpServer();
    app = await createTestApp(kind, { profiles: 3, smtpUrl: mail.url, env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await app?.services.events.settle();
    await app?.close();
    await mail?.close();
  });
  const fixture = {
    get t() { return app!; },
    get smtp() { return mail!; },
    /** A browser of its own (cookies) at `ip`, by default an address of its own. */
    device: (ip = `198.51.${100 + Math.floor(++hosts / 250)}.${(hosts % 250) + 1}`) => fixture.t.client({ headers: { 'x-forwarded-for': ip } }),
    /** A new member at an address of their own. */
    owner: async () => {
      const email = `owner.${randomBytes(4).toString('hex')}@example.org`;
      return { ...(await signUp(fixture.t, { email })), email };
    },
    login: (c: TestClient, email: string, password: string) => c.post('/api/user.php', { email, password }),
  };
  return fixture;
}
