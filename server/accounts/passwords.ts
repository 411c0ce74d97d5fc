import { hash, verify } from '@node-rs/argon2';
import { normalizePassword } from '#common/passwords.ts';

// Algorithm is a const enum, which isolated modules cannot import: 2 is Argon2id.
const ARGON2ID = 2;

/** OWASP's argon2id parameters: 19 MiB memory, 2 iterations, 1 lane. */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** The hash of the password's normalised form (normalizePassword), the form the rules checked. */
export function hashPassword(password: string): Promise<string> {
  return hash(normalizePassword(password), OPTIONS);
}

async function verifies(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * Whether the password is the one of the hash: its normalised form first; then, only when normalising
 * changed it, the password as typed, because hashes made before passwords were normalised are of the
 * typed form (a member who typed a full-width letter or a zero-width space then still gets in, with
 * exactly what they typed). Unknown addresses verify against the dummy hash through here too, so a
 * second try costs the same whether the account exists or not.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const normalized = normalizePassword(password);
  if (await verifies(passwordHash, normalized)) return true;
  return normalized !== password && verifies(passwordHash, password);
}

/** Verified against when the e-mail is unknown, so a login takes as long whether or not the account exists. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-for-timing');
  return dummyHash;
}
