import { createHash, randomBytes } from 'node:crypto';
import { base32Encode } from './totp.ts';

/**
 * Session tokens, API tokens and recovery codes are long random strings, so a SHA-256 of each is enough at rest
 * (nothing to guess from it); the clear value is shown or set once and never kept.
 */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export const RECOVERY_CODE_COUNT = 10;

/** 80 random bits in base32, as four groups of four characters joined by hyphens: easy to copy by hand, too many to guess. */
export function generateRecoveryCode(): string {
  return base32Encode(randomBytes(10)).match(/.{4}/g)!.join('-');
}

/** How a recovery code is compared: case, spaces and dashes as typed do not matter. */
export const normalizeRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

/** A generated password for a new staff member, who signs in with it and a second factor: 144 random bits. */
export const generateStaffPassword = () => randomBytes(18).toString('base64url');

/** A console session's token (the cookie's value) or an API token; API tokens carry a prefix that secret scanners can find. */
export const generateToken = (prefix = '') => prefix + randomBytes(32).toString('base64url');
