import { z } from 'zod';
import { MAX_ID, textSchema } from './input.ts';

// Without zod, for the browser's pages (docs/decisions/024): the history limit and prices.
export { CHAT_HISTORY_LIMIT, chatCosts } from './chat-prices.ts';

/** A member's word filter: at most this many entries of at most WORD_FILTER_ENTRY_MAX characters. */
export const WORD_FILTER_MAX = 50;
export const WORD_FILTER_ENTRY_MAX = 40;

const filterEntry = textSchema({ min: 2, max: WORD_FILTER_ENTRY_MAX, tooShort: 'errors.word_filter_entry_short', tooLong: 'errors.word_filter_entry_long' });

/** The word filter as the settings page sends it: entries trimmed, lower-cased and without repeats. */
export const wordFilterSchema = z
  .array(filterEntry)
  .max(WORD_FILTER_MAX, 'errors.word_filter_limit')
  .transform((words) => [...new Set(words.map((w) => w.toLowerCase()))]);

/**
 * The settings page's word filter form: the words it shows, a word to add and (from a word's ×
 * button) a word to remove; what it saves is checked by wordFilterSchema.
 */
export const wordFilterFormSchema = z
  .object({
    word_filter: z.array(z.string({ error: 'errors.invalid_input' }), { error: 'errors.invalid_input' }),
    word: z.string({ error: 'errors.invalid_input' }).optional(),
    remove: z.string({ error: 'errors.invalid_input' }).optional(),
  })
  .transform((v) => ({
    word_filter: v.remove === undefined
      ? [...v.word_filter, ...(v.word?.trim() ? [v.word] : [])]
      : v.word_filter.filter((w) => w.trim().toLowerCase() !== v.remove?.trim().toLowerCase()),
  }))
  .pipe(z.object({ word_filter: wordFilterSchema }));

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a text contains one of the filter's words or phrases as a whole word (any case, any
 * script): "ass" matches "Ass!" but not "class".
 */
export function matchesWordFilter(text: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  return pattern.test(text.normalize('NFC'));
}

/** POST /api/gift.php */
export const giftSchema = z.object({ gift_id: z.number().int().positive().max(MAX_ID) });
