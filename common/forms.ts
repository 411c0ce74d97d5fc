import { parseWithZod } from '@conform-to/zod/v4';
import { configureCoercion } from '@conform-to/zod/v4/future';
import type { z } from 'zod';
import { WORD_FILTER_MAX } from './chat.ts';
import { MIN_AGE } from './constants.ts';

/**
 * Schema messages are i18n keys (common/schemas.ts). The browser and a page action turn a field's
 * issues into text the same way: a message that is no key of ours (zod's own, for a value of the
 * wrong type) reads as "invalid input", and the numbers a message may name are the rules' own.
 */
export const MESSAGE_PARAMS = { min_age: MIN_AGE, max: WORD_FILTER_MAX } as const;

export function messageKey(message: string): string {
  return message.startsWith('errors.') ? message : 'errors.invalid_input';
}

type Translate = (key: string, params: Record<string, unknown>) => string;

/** One message per field: the first issue is the most useful (see textSchema). */
export function issueMessages(issues: ReadonlyArray<{ message: string }>, translate: Translate): string[] {
  return issues.slice(0, 1).map((issue) => translate(messageKey(issue.message), MESSAGE_PARAMS));
}

// The shared schemas were written for JSON, where an empty field is "": an empty input stays "" (so
// "about me" may be empty and a required field names its own message), while lists and check boxes
// still get their shape (one ticked box is a list of one, none an empty list).
const { coerceFormValue } = configureCoercion({ stripEmptyString: (value) => value });

/** Form data checked by a shared schema, in the browser (before sending) and in the page action alike. */
export function parseForm<S extends z.ZodType>(formData: FormData, schema: S, translate: Translate) {
  return parseWithZod(formData, {
    schema: coerceFormValue(schema) as unknown as S,
    disableAutoCoercion: true,
    formatError: (issues: ReadonlyArray<{ message: string }>) => issueMessages(issues, translate),
  });
}
