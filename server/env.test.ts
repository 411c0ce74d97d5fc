import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.ts';

describe('loadEnv', () => {
  it('has a working default for everything', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({ PORT: 3000, DATA_DIR: './data', PAYMENT_PROVIDER: 'test', TRUST_PROXY: 0, SEED_DEMO: 'auto' });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('treats empty variables as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', PORT: '' }).DATABASE_URL).toBeUndefined();
  });

  it('fails fast with a message naming each wrong variable', () => {
    expect(() => loadEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', PUBLIC_URL: 'not a url' })).toThrowError(
      /Invalid configuration:\n {2}PORT: .*\n {2}DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ connection URL\n {2}PUBLIC_URL: must be an absolute URL/,
    );
  });

  it('checks the mail settings', () => {
    expect(loadEnv({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'no-reply@example.com' })).toMatchObject({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'no-reply@example.com' });
    expect(() => loadEnv({ SMTP_URL: 'http://mail', MAIL_FROM: 'nobody', MAIL_WEBHOOK_SECRET: 'short' })).toThrowError(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL[\s\S]*MAIL_FROM: must be an address[\s\S]*MAIL_WEBHOOK_SECRET: must be at least 16 characters/,
    );
  });
});
