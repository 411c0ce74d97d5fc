import { data } from 'react-router';
import { z } from 'zod';
import { formatMoney } from '#common/i18n-format.ts';
import type { Language } from '#common/languages.ts';
import { moneyUnits, parseMoneyAmount } from '#common/refunds.ts';
import { BAN_REASONS, GROUND_KEYS, type BanReason, type Ground } from '#common/reports.ts';
import type { StaffActor } from '../actor.ts';
import { consoleErrorText, consoleLanguage, requireConsoleStaff } from './console-pages.server.ts';
import { formFields } from './console-queues.server.ts';
import type { RequestContext } from './context.ts';

/** The member a console address names (/console/members/:id), or the page's 404. */
export const memberIdOf = (params: { id?: string }) => {
  const id = Number(params.id);
  if (!/^\d{1,10}$/.test(params.id ?? '') || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw data(null, { status: 404 });
  return id;
};

const ACTIONS = [
  'adjust_credits', 'end_sessions', 'resend_activation', 'send_password_reset', 'ban', 'unban', 'suspend', 'end_suspension', 'refund', 'mark_fictional', 'unmark_fictional',
] as const;
export type MemberIntent = (typeof ACTIONS)[number];

/** What a refund's confirmation says: the part, the order's whole amount and the credits it takes back. */
export interface RefundFacts { order: string; part: number; total: number; refunded: number; currency: string; credits: number }

export type MemberReply = { intent: MemberIntent; error?: string; done?: string; confirm?: Record<string, string>; refund?: RefundFacts };

const key = z.string().min(16).max(100);
const reasonSchema = z.string().trim().min(3).max(500);
const adjustSchema = z.object({ credits: z.coerce.number().int().min(-10_000).max(10_000).refine((n) => n !== 0), reason: reasonSchema, key });
const banSchema = z.object({ ban: z.enum(BAN_REASONS), reason: reasonSchema });
const refundSchema = z.object({ order: z.string().min(1).max(100), amount: z.string().max(20).optional(), reason: reasonSchema, key });
const suspendSchema = z.object({ days: z.coerce.number().int().min(1).max(365), ground: z.enum(GROUND_KEYS), reason: reasonSchema });
const reasonOnly = z.object({ reason: reasonSchema });
/** Actions that ask for nothing but the confirmation. */
const BARE: readonly MemberIntent[] = ['end_sessions', 'resend_activation', 'send_password_reset'];

type Parsed = { fields: Record<string, string> } | { error: string };

/** The action's fields, checked before anything is asked; the refusal names the field that is wrong. */
function parse(intent: MemberIntent, form: Record<string, string>): Parsed {
  if (BARE.includes(intent)) return { fields: {} };
  const schema = intent === 'adjust_credits' ? adjustSchema : intent === 'suspend' ? suspendSchema : intent === 'ban' ? banSchema : intent === 'refund' ? refundSchema : reasonOnly;
  const parsed = schema.safeParse(form);
  if (parsed.success) return { fields: Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])) };
  const field = parsed.error.issues[0].path[0];
  if (intent === 'adjust_credits' && field === 'credits') return { error: 'errors.adjustment_credits' };
  if (intent === 'suspend' && field === 'days') return { error: 'errors.suspension_days' };
  if (field === 'reason') return { error: 'errors.reason_required' };
  return { error: field === 'amount' ? 'errors.refund_amount_not_cents' : 'errors.invalid_input' };
}

/** The refund's amount as typed (in the order's currency): null for all that is left. */
function refundAmount(fields: Record<string, string>): number | null {
  if (!fields.amount?.trim()) return null;
  const cents = parseMoneyAmount(fields.amount);
  // Not whole cents: the use case refuses it with its own message.
  return cents ?? Number.NaN;
}

/** Runs the confirmed action; the text that says what was done. */
async function run(ctx: RequestContext, staff: StaffActor, lang: Language, id: number, intent: MemberIntent, fields: Record<string, string>): Promise<string> {
  const from = { ip: ctx.clientAddress };
  const use = ctx.services.console;
  const t = (k: string, params?: Record<string, string | number>) => ctx.translator.t(lang, k, params);
  switch (intent) {
    case 'adjust_credits': {
      const booked = await use.adjustCredits(staff, id, { credits: Number(fields.credits), reason: fields.reason, idempotencyKey: fields.key }, from);
      return t('console.member.adjusted', { count: booked.credits, balance: booked.balance });
    }
    case 'end_sessions': return t('console.member.sessions_ended', { count: (await use.endSessions(staff, id, from)).ended });
    case 'suspend': {
      const { until } = await use.suspendMember(staff, id, { days: Number(fields.days), ground: fields.ground as Ground, facts: fields.reason }, from);
      return t('console.member.done_suspend', { until });
    }
    case 'refund': {
      const done = await use.refundOrder(staff, fields.order, { reason: fields.reason, amountCents: refundAmount(fields), idempotencyKey: fields.key }, from);
      return t(done.whole ? 'console.member.done_refund_whole' : 'console.member.done_refund_part', {
        amount: formatMoney(done.amountCents, done.currency, lang), count: done.creditsTaken,
      });
    }
    case 'end_suspension': await use.endSuspension(staff, id, fields.reason, from); break;
    case 'ban': await use.banMember(staff, id, { reason: fields.ban as BanReason, note: fields.reason }, from); break;
    case 'unban': await use.unbanMember(staff, id, fields.reason, from); break;
    case 'mark_fictional': case 'unmark_fictional':
      await use.setFictional(staff, id, { fictional: intent === 'mark_fictional', reason: fields.reason }, from);
      break;
    case 'resend_activation': await use.resendActivation(staff, id, from); break;
    default: await use.sendPasswordReset(staff, id, from);
  }
  return t(`console.member.done_${intent}`);
}

/**
 * The member page's actions. Each asks first: the form posts without `confirm`, the page says what will happen and
 * offers the same form with `confirm=1`; only that one calls the use case. A refund's question is the use case's own
 * preview, so it names the exact part, the order's amount and the credits, and is refused as the refund would be.
 * It works without JavaScript, like the rest of the console.
 */
export async function memberAction(ctx: RequestContext, params: { id?: string }, request: Request) {
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const id = memberIdOf(params);
  const form = await formFields(request);
  const intent = ACTIONS.find((a) => a === form.intent);
  if (!intent) return data({ intent: 'end_sessions', error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies MemberReply, 400);
  const parsed = parse(intent, form);
  if ('error' in parsed) return data({ intent, error: ctx.translator.t(lang, parsed.error) } satisfies MemberReply, 400);
  const { fields } = parsed;
  try {
    if (form.confirm === '1') return { intent, done: await run(ctx, staff, lang, id, intent, fields) } satisfies MemberReply;
    if (intent !== 'refund') return { intent, confirm: fields } satisfies MemberReply;
    const plan = await ctx.services.console.refundPreview(staff, fields.order, refundAmount(fields));
    // Only this member's orders are refunded from their page.
    if (plan.memberId !== id) return data({ intent, error: ctx.translator.t(lang, 'errors.not_found') } satisfies MemberReply, 404);
    const refund: RefundFacts = {
      order: plan.orderId, part: plan.partCents, total: plan.amountCents, refunded: plan.refundedCents, currency: plan.currency, credits: plan.credits,
    };
    // The confirmation carries the exact part, so that "all that is left" cannot grow into more between the two steps.
    return { intent, confirm: { ...fields, amount: moneyUnits(plan.partCents) }, refund } satisfies MemberReply;
  } catch (error) {
    return data({ intent, error: consoleErrorText(ctx, lang, error, []).message } satisfies MemberReply, 400);
  }
}
