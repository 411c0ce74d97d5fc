import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSecrets } from '../db/schema.ts';

const COOKIE_SECRET = 'cookie_secret';

/**
 * HMAC-SHA256 signatures for cookies the server must be able to trust (first-touch tracking,
 * known devices). The key is COOKIE_SECRET, or one generated on first start and kept in
 * app_secrets so that every instance signs alike. `purpose` keeps one cookie's signature from
 * being valid for another.
 */
export function createCookieSigner(deps: { db: Db; secret?: string }) {
  let key: Promise<Buffer> | undefined;

  function signingKey(): Promise<Buffer> {
    if (deps.secret) return Promise.resolve(Buffer.from(deps.secret, 'utf8'));
    key ??= (async () => {
      // Two instances starting together: the first insert wins and both read the same row.
      await deps.db.insert(appSecrets).values({ key: COOKIE_SECRET, value: randomBytes(32).toString('base64url') }).onConflictDoNothing();
      const [row] = await deps.db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.key, COOKIE_SECRET));
      return Buffer.from(row.value, 'base64url');
    })();
    key.catch(() => { key = undefined; });
    return key;
  }

  async function mac(purpose: string, value: string): Promise<string> {
    return createHmac('sha256', await signingKey()).update(`${purpose}\n${value}`).digest('base64url');
  }

  return {
    /** `value.signature`; the value must not be secret (it stays readable). */
    async sign(purpose: string, value: string): Promise<string> {
      return `${value}.${await mac(purpose, value)}`;
    },
    /** The value of a cookie signed for this purpose, or null when it is unsigned or tampered with. */
    async verify(purpose: string, cookie: string | undefined): Promise<string | null> {
      if (!cookie || cookie.length > 4096) return null;
      const dot = cookie.lastIndexOf('.');
      if (dot <= 0) return null;
      const value = cookie.slice(0, dot);
      const given = Buffer.from(cookie.slice(dot + 1));
      const expected = Buffer.from(await mac(purpose, value));
      return given.length === expected.length && timingSafeEqual(given, expected) ? value : null;
    },
  };
}

export type CookieSigner = ReturnType<typeof createCookieSigner>;
