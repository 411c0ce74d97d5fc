import type { SubmissionResult } from '@conform-to/react';
import { data } from 'react-router';
import type { z } from 'zod';
import { parseForm } from '#common/forms.ts';
import { AppError, isAppError } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { RequestContext } from './context.ts';
import { appErrorText } from './error-text.ts';
import { limitWait } from './helpers.ts';

/** What a page action answers a form: Conform's submission result, and what the use case gave on success. */
export interface FormReply<Done = undefined> {
  /** Which of the page's forms was sent (pages with several post one `intent` field). */
  intent?: string;
  result: SubmissionResult<string[]>;
  /** The use case ran (Conform's result of a form it resets carries no status of its own). */
  ok?: true;
  done?: Done;
  /** The code of the rule the use case refused with (e.g. reset_link_invalid), for pages that show more than the message. */
  code?: string;
}

export interface FormOptions {
  intent?: string;
  /** Limits counted per client address before the work, as the JSON endpoint counts them. */
  limits?: RateLimiter | RateLimiter[];
  /** Empty the form after success (a password change); by default the values stay. */
  resetForm?: boolean;
  /** Headers of the answer (the Set-Cookie of a cookie jar the work writes to). */
  headers?: Headers;
}

/** Field names of values that never travel back in a reply (Conform echoes the others so a page without JavaScript keeps them). */
const secret = (name: string) => /password|token/.test(name);

/**
 * One page action for one form: parses the form data with the shared schema (the one the JSON
 * endpoint checks), counts the endpoint's rate limits, runs the use case and answers field errors
 * and a form error in the member's language. A Response from the work (a redirect) goes out as is.
 * Without JavaScript the same answer renders the page again with the errors beside their fields.
 */
export async function submitForm<S extends z.ZodType, T>(
  ctx: RequestContext, formData: FormData, schema: S, work: (value: z.output<S>) => Promise<T>, options: FormOptions = {},
) {
  const translate = (key: string, params: Record<string, unknown>) => ctx.translator.t(ctx.lang, key, params);
  const submission = parseForm(formData, schema, translate);
  const hideFields = [...formData.keys()].filter(secret);
  const reply = (result: SubmissionResult<string[]>, status: number, extra: { ok?: true; done?: Exclude<T, Response>; code?: string } = {}) =>
    data<FormReply<Exclude<T, Response>>>({ intent: options.intent, result, ...extra }, { status, headers: options.headers });
  if (submission.status !== 'success') return reply(submission.reply({ hideFields }), 400);
  try {
    if (options.limits) {
      const wait = await limitWait(options.limits, ctx.clientIp);
      if (wait > 0) throw new AppError(429, 'too_many_requests', { count: Math.ceil(wait / 60) });
    }
    const done = await work(submission.value);
    if (done instanceof Response) return done;
    return reply(submission.reply({ resetForm: options.resetForm, hideFields }), 200, { ok: true, done: done as Exclude<T, Response> });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const { message, details } = appErrorText(ctx.translator, ctx.lang, error);
    const fieldErrors: Record<string, string[]> = {};
    // The service names a list's item ("interests.2"); the form shows it at the list.
    for (const [field, text] of Object.entries(details)) fieldErrors[field.split('.')[0]] ??= [text];
    const formErrors = Object.keys(fieldErrors).length ? [] : [message];
    return reply(submission.reply({ fieldErrors, formErrors, hideFields }), error.status, { code: error.code });
  }
}

/** The `intent` field of a page with several forms. */
export function formIntent(formData: FormData): string {
  const intent = formData.get('intent');
  return typeof intent === 'string' ? intent : '';
}
