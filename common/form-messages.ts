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

/** One message per field: the first issue is the most useful (see textSchema). */
export function issueMessages(issues: ReadonlyArray<{ message: string }>, translate: (key: string, params: Record<string, unknown>) => string): string[] {
  return issues.slice(0, 1).map((issue) => translate(messageKey(issue.message), MESSAGE_PARAMS));
}
