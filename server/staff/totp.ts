import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP), as every authenticator app makes them:
 * HMAC-SHA1, 30-second steps, 6 digits, the secret shown in base32. Built on node:crypto (decision 055).
 */
export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of now that are still accepted: a phone's clock a little off, a code typed as it turns. */
const WINDOW = 1;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('base32Decode: not a base32 character');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new secret: 160 bits, the length of an HMAC-SHA1 key (RFC 4226 section 4). */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** RFC 4226's HOTP: the code of `counter` under `key`. RFC 6238 also allows SHA-256 and SHA-512 (its test vectors use them). */
export function hotp(key: Uint8Array, counter: number, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The 30-second step a moment falls in (RFC 6238's T, with T0 = 0). */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
}

/**
 * The step whose code `code` is, within one step of `at`, and later than `lastStep` (a code already taken is
 * refused, and so is any older one); null when none. Every candidate is compared in constant time.
 */
export function matchTotp(secret: string, code: string, at: Date, lastStep: number | null): number | null {
  const given = Buffer.from(code.replace(/\s/g, ''));
  if (given.length !== TOTP_DIGITS) return null;
  const key = base32Decode(secret);
  const now = totpStep(at);
  let found: number | null = null;
  for (let step = now - WINDOW; step <= now + WINDOW; step++) {
    const matches = timingSafeEqual(given, Buffer.from(hotp(key, step)));
    if (matches && found === null && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

/** What an authenticator app reads from a QR code or a link (the Key URI Format most apps follow). */
export function otpauthUri(issuer: string, account: string, secret: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  // Spaces as %20, not URLSearchParams' `+`, which some apps show as it is.
  const query = Object.entries({ secret, issuer, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_STEP_SECONDS })
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `otpauth://totp/${label}?${query}`;
}
