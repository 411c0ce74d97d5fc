import { data, redirect } from 'react-router';
import { z } from 'zod';
import type { ReportReason, Ground } from '#common/reports.ts';
import type { StaffActor } from '../actor.ts';
import type { StaffRequest } from '../support/member-support.ts';
import { consoleErrorText, consoleLanguage, requireConsoleStaff } from './console-pages.server.ts';
import type { RequestContext } from './context.ts';

/** The ground a report's reason suggests, preselected in the decision form (the moderator may pick another). */
export const GROUND_FOR_REASON: Record<ReportReason, Ground> = {
  fake: 'terms_fake_profile', scam: 'terms_scam', harassment: 'terms_harassment', sexual: 'terms_sexual_content',
  minor: 'terms_minor', hate: 'terms_hate', spam: 'terms_spam', other: 'terms_general',
};

/** A posted form's text fields. */
export async function formFields(request: Request): Promise<Record<string, string>> {
  return Object.fromEntries([...(await request.formData()).entries()].filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** A positive 32-bit id from a form or query value, or null. */
export const idOf = (value: string | null | undefined) => (value && /^\d{1,10}$/.test(value) && Number(value) <= 2_147_483_647 && Number(value) > 0 ? Number(value) : null);

/** The queue page a console address asks for (?page=n, from 1); the first page otherwise. */
export const pageOf = (request: Request) => idOf(new URL(request.url).searchParams.get('page')) ?? 1;

/** Where an item opened from page `page` of a queue is shown: that page, with the item open. */
export const openedAt = (queue: string, request: Request, open: string | number) => {
  const page = pageOf(request);
  return `/console/queues/${queue}?${page > 1 ? `page=${page}&` : ''}open=${encodeURIComponent(String(open))}`;
};

/** A form field holding a positive 32-bit id, as a number. */
export const idField = z.string().transform(idOf).pipe(z.number());

/** A queue page's answer to a post: what failed, what was decided, or the confirmation asked for first. */
export interface QueueReply<Done> { error?: string; done?: Done; confirm?: Record<string, string> }

/**
 * What one queue's page does with a claim and a decision; the flow around them is `queueAction`'s. A schema's own
 * message that is a translation key (`console.…`) says what is missing; any other mistake is invalid input.
 */
export interface QueueActions<Claim, Decision, Done> {
  /** The queue's name in its address, /console/queues/<queue>. */
  queue: string;
  claimSchema: z.ZodType<Claim, Record<string, string>>;
  claim(staff: StaffActor, item: Claim, from: StaffRequest): Promise<unknown>;
  /** How the address names the claimed item (`?open=`). */
  openAs(item: Claim): string | number;
  decideSchema: z.ZodType<Decision, Record<string, string>>;
  decide(staff: StaffActor, decision: Decision, from: StaffRequest): Promise<Done>;
}

/**
 * A queue page's action, the same on every queue (decision 060): `claim` holds the item and opens it (a redirect to
 * `?open=`); `decide` without `confirm=1` answers what will happen, the same fields to post again; with it, decides.
 * Bad input and a use case's refusal answer 400 with a translated message and change nothing.
 */
export async function queueAction<Claim, Decision, Done>(ctx: RequestContext, request: Request, spec: QueueActions<Claim, Decision, Done>) {
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const from = { ip: ctx.clientAddress };
  const refused = (key: string) => data({ error: ctx.translator.t(lang, key) } satisfies QueueReply<Done>, 400);
  const failed = (error: unknown) => data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies QueueReply<Done>, 400);
  if (form.intent === 'claim') {
    const item = spec.claimSchema.safeParse(form);
    if (!item.success) return refused('errors.invalid_input');
    try {
      await spec.claim(staff, item.data, from);
    } catch (error) {
      return failed(error);
    }
    throw redirect(openedAt(spec.queue, request, spec.openAs(item.data)));
  }
  const decision = spec.decideSchema.safeParse(form);
  if (form.intent !== 'decide' || !decision.success) {
    return refused(decision.error?.issues.find((i) => i.message.startsWith('console.'))?.message ?? 'errors.invalid_input');
  }
  if (form.confirm !== '1') {
    const fields = Object.entries(decision.data as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
    return { confirm: { intent: 'decide', ...Object.fromEntries(fields) } } satisfies QueueReply<Done>;
  }
  try {
    return { done: await spec.decide(staff, decision.data, from) } satisfies QueueReply<Done>;
  } catch (error) {
    return failed(error);
  }
}

/** The item of a queue's page that `?open=` names, shown only to the moderator who holds it. */
export function openedItem<T extends { claimed_by: number | null }>(request: Request, items: T[], staff: StaffActor, key: (item: T) => string | number) {
  const open = new URL(request.url).searchParams.get('open');
  return items.find((i) => open !== null && String(key(i)) === open && i.claimed_by === staff.staffId) ?? null;
}
