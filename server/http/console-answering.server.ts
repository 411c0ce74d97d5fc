import { randomUUID } from 'node:crypto';
import { data, redirect } from 'react-router';
import { figuresQuerySchema } from '../staff/answering.ts';
import { isAppError } from '../infra/errors.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from './console-pages.server.ts';
import { formFields, idOf, pageOf } from './console-queues.server.ts';
import type { RequestContext } from './context.ts';

/** The workspace's address with a conversation open (and the page of the list it was opened from). */
const openAt = (request: Request, id: number, extra = '') => {
  const page = pageOf(request);
  return `/console/fictional?${page > 1 ? `page=${page}&` : ''}open=${id}${extra}`;
};

/**
 * The answering workspace's data: the response-time figures of the period asked for (a period the use case refuses
 * shows its message and the last seven days instead), a page of waiting conversations and the one `?open=` names when
 * the staff member holds it.
 */
export async function answeringPage(ctx: RequestContext, request: Request) {
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const search = new URL(request.url).searchParams;
  const period = figuresQuerySchema.safeParse({ from: search.get('from') || undefined, to: search.get('to') || undefined });
  let error: string | null = period.success ? null : ctx.translator.t(lang, 'errors.invalid_period');
  const figures = await orForbidden(ctx.services.answering.figures(staff, period.success ? period.data : {})).catch(async (e: unknown) => {
    error = consoleErrorText(ctx, lang, e, []).message;
    return orForbidden(ctx.services.answering.figures(staff, {}));
  });
  const queue = await orForbidden(ctx.services.answering.queue(staff, pageOf(request)));
  const open = idOf(search.get('open'));
  const opened = open === null ? null : await ctx.services.answering.conversation(staff, open).catch((e: unknown) => {
    if (isAppError(e) && [403, 404, 409].includes(e.status)) return null;
    throw e;
  });
  return { figures, queue, opened, sent: search.get('sent') === '1', error, me: staff.staffId, key: randomUUID() };
}

/**
 * The workspace's posts: `claim` holds a conversation and opens it; `answer` sends the text as the fictional profile
 * and shows the conversation again with it. Bad input and refusals answer with the refusal's status (403, 404, 409
 * for another's claim, 400) and a translated message, and change nothing.
 */
export async function answeringAction(ctx: RequestContext, request: Request) {
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const from = { ip: ctx.clientAddress };
  const id = idOf(form.id);
  if (id === null || (form.intent !== 'claim' && form.intent !== 'answer')) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') }, 400);
  try {
    if (form.intent === 'claim') {
      await ctx.services.answering.claim(staff, id, from);
      throw redirect(openAt(request, id));
    }
    await ctx.services.answering.answer(staff, id, { text: form.text ?? '', idempotencyKey: form.key ?? '' }, from);
    throw redirect(openAt(request, id, '&sent=1'));
  } catch (error) {
    if (error instanceof Response) throw error;
    const refusal = consoleErrorText(ctx, lang, error, []);
    return data({ error: refusal.message }, isAppError(error) ? error.status : 400);
  }
}
