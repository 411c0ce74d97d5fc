import { z } from 'zod';
import { toId } from './ids.ts';

// Without zod, for the browser's pages (docs/decisions/024): ids and references.
export { CANONICAL_ID, isReference, MAX_ID, REFERENCE, toId } from './ids.ts';

/**
 * The two rules every request field follows, shared by the browser forms and the server: ids and
 * free text. One place per rule, so an endpoint cannot forget a case the database would choke on
 * (a NUL byte, an id beyond PostgreSQL's integer) or one a reader cannot see (bidi overrides,
 * names made of zero-width characters).
 */

/** A positive 32-bit id (1..2147483647) given as a JSON number or a canonical decimal string. */
export function idSchema(message = 'errors.invalid_input') {
  return z.unknown().transform((value, ctx) => {
    const id = toId(value);
    if (id === null) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return id;
  });
}

/*
 * Characters refused in any text: C0 and C1 controls (and DEL); bidi embeddings, overrides and
 * isolates; characters that hide or smuggle text (invisible operators, interlinear annotations,
 * tag characters, Hangul fillers that render as blanks, the Mongolian vowel separator); line and
 * paragraph separators; noncharacters; lone surrogates (which PostgreSQL cannot store).
 */
const HIDDEN = '\\u007F-\\u009F\\u115F\\u1160\\u180E\\u2028\\u2029\\u202A-\\u202E\\u2061-\\u2064\\u2066-\\u2069\\u3164\\uFFA0\\uFFF9-\\uFFFB\\uFFFE\\uFFFF\\u{E0000}-\\u{E007F}';
const FORBIDDEN_SINGLE_LINE = new RegExp(`[\\u0000-\\u001F${HIDDEN}]`, 'u');
/** Multi-line fields keep newlines and tabs. */
const FORBIDDEN_MULTI_LINE = new RegExp(`[\\u0000-\\u0008\\u000B-\\u001F${HIDDEN}]`, 'u');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** What a reader sees: not white space, not a control, format (zero-width, BOM) or combining character. */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{M}\p{Z}]/gu;

/** True when the text has no character the text rule refuses. */
export function hasOnlyAllowedCharacters(value: string, multiline = false): boolean {
  return !LONE_SURROGATE.test(value) && !(multiline ? FORBIDDEN_MULTI_LINE : FORBIDDEN_SINGLE_LINE).test(value);
}

/** The text without the characters the text rule refuses: for text from machines (provider reports) that must not be lost. */
export function withoutRefusedCharacters(value: string, multiline = false): string {
  const forbidden = new RegExp((multiline ? FORBIDDEN_MULTI_LINE : FORBIDDEN_SINGLE_LINE).source, 'gu');
  return value.replace(new RegExp(LONE_SURROGATE.source, 'g'), '').replace(forbidden, '');
}

/** How many characters a reader sees (zero-width characters, spaces and combining marks do not count). */
export function visibleLength(value: string): number {
  return value.match(VISIBLE)?.length ?? 0;
}

export interface TextOptions {
  /** Most characters (after normalising and trimming). */
  max: number;
  tooLong: string;
  /** Fewest visible characters; 0 allows an empty string. */
  min?: number;
  tooShort?: string;
  /** Newlines and tabs are kept (about-me, messages); elsewhere they are refused. */
  multiline?: boolean;
  /** The message for a non-string and for refused characters. */
  invalid?: string;
}

/**
 * A free-text field: NFC-normalised, trimmed (line ends become \n in multi-line fields), refusing
 * control, bidi-override and hiding characters, with a minimum of visible characters.
 */
export function textSchema(options: TextOptions) {
  const invalid = options.invalid ?? 'errors.text_invalid_characters';
  const min = options.min ?? 0;
  return z
    .string({ error: min > 0 ? options.tooShort ?? invalid : invalid })
    .transform((value) => {
      const text = options.multiline ? value.replace(/\r\n?/g, '\n') : value;
      return (LONE_SURROGATE.test(text) ? text : text.normalize('NFC')).trim();
    })
    .superRefine((value, ctx) => {
      // One message per field, the most useful first.
      if (!hasOnlyAllowedCharacters(value, options.multiline)) ctx.addIssue({ code: 'custom', message: invalid });
      else if (value.length > options.max) ctx.addIssue({ code: 'custom', message: options.tooLong });
      else if (min > 0 && visibleLength(value) < min) ctx.addIssue({ code: 'custom', message: options.tooShort ?? invalid });
    });
}
