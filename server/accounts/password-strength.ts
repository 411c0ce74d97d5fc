import type { Match, ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * How guessable a password is, by zxcvbn-ts (docs/decisions/047): it finds the cheapest way to build
 * the password from dictionary words (common passwords, words, names and Wikipedia's words in our
 * languages, and the site's and the member's own words), keyboard patterns, repeats, sequences and
 * dates, and counts the guesses an attacker who knows those would need. Server only: the dictionaries
 * take about 25 MB of packages and 70 MB of memory, loaded on the first check.
 */

/**
 * The estimator reads the first 64 UTF-16 units. Its dictionary matcher walks every substring up to
 * the longest dictionary word, again for the reversed password and for each l33t reading, so the time
 * grows with the length; 64 is NIST's shortest allowed maximum, so a password this long is judged on
 * what most passwords are whole. A longer one is judged on its start: that may underrate it, never
 * overrate it.
 */
export const ESTIMATED_UNITS = 64;
/** Readings of l33t substitutions tried (the package's default, 100, makes a 64-character run of 1s or @s take seconds). */
const L33T_READINGS = 8;
/** zxcvbn's score 3: at least 10^8 guesses, which is what it calls safely unguessable online and protects a slow hash offline. */
export const MIN_SCORE = 3;

export type Weakness = 'site' | 'personal' | 'common' | 'pattern';
export interface Strength { score: number; guessesLog10: number; weakness: Weakness | null }

// Languages with a zxcvbn-ts dictionary; Danish, Norwegian and Swedish have none (English and the
// common list of passwords still apply to them).
const packs = () => Promise.all([
  import('@zxcvbn-ts/language-common'),
  import('@zxcvbn-ts/language-en'),
  import('@zxcvbn-ts/language-nl-be'),
  import('@zxcvbn-ts/language-de'),
  import('@zxcvbn-ts/language-it'),
  import('@zxcvbn-ts/language-fr'),
  import('@zxcvbn-ts/language-es-es'),
  import('@zxcvbn-ts/language-pl'),
  import('@zxcvbn-ts/language-fi'),
]);

/** The lists the English, French and Spanish packs keep for word sequences ("one two three", "may june"). */
const SEQUENCES = new Set([
  'cardinalNumbers', 'ordinalNumbers', 'daysOfWeek', 'months', 'seasons', 'timePeriods', 'rainbowColors', 'directions',
  'intermediateDirections', 'sizeProgression', 'militaryAlphabet', 'planets', 'zodiacSigns', 'chineseZodiac',
]);
/** The one dictionary of every other word. */
export const WORDS = 'words';

/** Which list a pack's dictionary is, whatever the pack calls it ("commonWords-fr", "maleFirstnames", "lastnames"). */
function kindOf(name: string): string {
  if (/firstnames|lastnames/i.test(name)) return 'names';
  return name.replace(/-[a-z]{2}(-[a-z]{2})?$/, '');
}

export interface MergedDictionaries {
  /** Every word but the sequences', by rank: its best place in the list of its kind (passwords, words, names, Wikipedia's words) across our languages. */
  words: Record<string, number>;
  longest: number;
  /** The word-sequence lists, one language after the other, so a sequence stays in order. */
  sequences: Record<string, string[]>;
}

/**
 * One dictionary instead of one per kind and language (about 80). The matcher looks every substring up
 * in every dictionary, and the scorer keeps a word's lowest rank anyway, so a word's rank is its best
 * place in the lists of its kind, interleaved by rank across languages: about its rank in its own
 * language times the number of languages, as for an attacker who does not know the member's language.
 * Built in one pass into an object without a prototype (the package's own dictionaries are plain
 * objects, where a substring such as "constructor" finds Object's properties).
 */
export function mergeDictionaries(dictionaries: Record<string, (string | number)[]>[]): MergedDictionaries {
  const byKind = new Map<string, (string | number)[][]>();
  for (const dictionary of dictionaries) {
    for (const [name, list] of Object.entries(dictionary)) {
      const kind = kindOf(name);
      byKind.set(kind, [...(byKind.get(kind) ?? []), list]);
    }
  }
  const words: Record<string, number> = Object.create(null);
  const sequences: Record<string, string[]> = {};
  let longest = 0;
  for (const [kind, lists] of byKind) {
    if (SEQUENCES.has(kind)) {
      sequences[kind] = [...new Set(lists.flat().map(String))];
      continue;
    }
    const deepest = lists.reduce((n, list) => Math.max(n, list.length), 0);
    let place = 0;
    for (let rank = 0; rank < deepest; rank++) {
      for (const list of lists) {
        if (rank >= list.length) continue;
        const word = String(list[rank]);
        place++;
        const known = words[word];
        if (known === undefined || place < known) words[word] = place;
        if (word.length > longest) longest = word.length;
      }
    }
  }
  return { words, longest, sequences };
}

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Built once per process, on first use: about 1.5 s of CPU on a busy machine of ours (0.4 s on a quiet
 * one), most of it the object of about 490,000 words.
 */
export function passwordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory, Options }, [common, ...languages]] = await Promise.all([import('@zxcvbn-ts/core'), packs()]);
    const { words, longest, sequences } = mergeDictionaries([common.dictionary, ...languages.map((pack) => pack.dictionary)]);
    const zxcvbn = new ZxcvbnFactory({
      dictionary: sequences,
      graphs: common.adjacencyGraphs,
      maxLength: ESTIMATED_UNITS,
      l33tMaxSubstitutions: L33T_READINGS,
    });
    // The factory would build its own ranked copy of a word list (a second pass over half a million
    // words); the ranked one goes straight into its options, which every matcher reads.
    const options: unknown = (zxcvbn as unknown as { options?: unknown }).options;
    if (!(options instanceof Options)) throw new Error('@zxcvbn-ts/core no longer keeps its Options in the factory: see password-strength.ts');
    options.rankedDictionaries[WORDS] = words;
    options.rankedDictionariesMaxWordSize[WORDS] = longest;
    return zxcvbn;
  })();
  estimator.catch(() => { estimator = undefined; });
  return estimator;
}

/**
 * The strength of a (normalised) password, and when it is below MIN_SCORE, what makes it weak: the
 * site's words, the member's own (name, e-mail address, date of birth), common passwords and words,
 * or only patterns (keyboard rows, repeats, sequences, dates, too few characters). `site` and
 * `member` are lower-case words; the estimator matches them like dictionary words (also reversed and
 * in l33t).
 */
export async function estimateStrength(password: string, inputs: { site: string[]; member: string[] }): Promise<Strength> {
  const zxcvbn = await passwordEstimator();
  const result = zxcvbn.check(password, [...inputs.site, ...inputs.member]);
  if (result.score >= MIN_SCORE) return { score: result.score, guessesLog10: result.guessesLog10, weakness: null };
  const site = new Set(inputs.site);
  const words = result.sequence.filter((m: Match) => m.pattern === 'dictionary' || m.pattern === 'wordSequence');
  const own = words.filter((m) => m.dictionaryName === 'userInputs');
  const weakness: Weakness = own.some((m) => site.has(m.matchedWord)) ? 'site'
    : own.length ? 'personal'
      : words.length ? 'common'
        : 'pattern';
  return { score: result.score, guessesLog10: result.guessesLog10, weakness };
}
