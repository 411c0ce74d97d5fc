import { useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import type { Language } from '#common/languages.ts';
import { moneyUnits } from '#common/refunds.ts';
import type { MemberIntent as Intent, RefundFacts } from '#server/http/console-member.server.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { formatMoney } from '../../lib/format.ts';

/**
 * One action's form on a member's console page: it posts the intent (and its fields); the confirmation posts the same
 * with confirm=1. `question` replaces the confirmation's usual text (a refund's names the exact part).
 */
export function ActionForm({ intent, label, confirm, question, children }: {
  intent: Intent; label: string; confirm?: Record<string, string>; question?: string; children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  if (confirm) {
    return (
      <Form method="post" className="alert alert-warning" role="alertdialog" aria-labelledby={`confirm-${intent}`} data-testid={`confirm-${intent}`}>
        <p id={`confirm-${intent}`} className="mb-2">
          {question ?? t(`console.member.confirm_${intent}`, {
            count: Number(confirm.credits ?? confirm.days ?? 0), reason: confirm.reason ?? '', ban: confirm.ban ? t(`console.ban_reasons.${confirm.ban}`) : '',
            ground: confirm.ground ? t(`statements.grounds.${confirm.ground}`) : '',
          })}
        </p>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirm" value="1" />
        {Object.entries(confirm).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        <div className="d-flex gap-2">
          <button type="submit" className="btn btn-danger btn-sm" disabled={busy} data-testid={`confirm-${intent}-yes`} autoFocus>{t('console.member.confirm')}</button>
          <Link to="." className="btn btn-outline-secondary btn-sm">{t('console.member.cancel')}</Link>
        </div>
      </Form>
    );
  }
  return (
    <Form method="post" className="d-flex flex-wrap gap-2 align-items-end mb-2">
      <input type="hidden" name="intent" value={intent} />
      {children}
      <button type="submit" className="btn btn-outline-primary btn-sm" disabled={busy} data-testid={`action-${intent}`}>{label}</button>
    </Form>
  );
}

/** The reason (or the facts) an action is taken for: the audit log keeps it, and the member reads a ban's facts. */
export function ReasonInput({ id, label }: { id: string; label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="flex-grow-1">
      <label htmlFor={id} className="form-label small">{label ?? t('console.member.reason')}</label>
      <input id={id} name="reason" minLength={3} maxLength={500} required className="form-control form-control-sm" />
    </div>
  );
}

interface RefundableOrder { id: string; amountCents: number; refundedCents: number; currency: string }

/**
 * Refunding an order, whole or a part (finance): the order, the amount in its currency (all that is left unless
 * changed) and the reason. The key is made when the page renders: a resent form refunds once.
 */
export function RefundForm({ orders, formKey, confirm, facts }: { orders: RefundableOrder[]; formKey: string; confirm?: Record<string, string>; facts?: RefundFacts }) {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const [chosen, setChosen] = useState(orders[0]?.id ?? '');
  const order = orders.find((o) => o.id === chosen) ?? orders[0];
  const money = (cents: number, currency: string) => formatMoney(cents, currency, lang);
  const question = facts && [
    t('console.member.confirm_refund', {
      amount: money(facts.part, facts.currency), total: money(facts.total, facts.currency), order: facts.order, count: facts.credits, reason: confirm?.reason ?? '',
    }),
    facts.refunded > 0 ? t('console.member.refunded_before', { amount: money(facts.refunded, facts.currency) }) : '',
  ].filter(Boolean).join(' ');
  if (!order) return null;
  const left = order.amountCents - order.refundedCents;
  return (
    <ActionForm intent="refund" label={t('console.member.refund_action')} confirm={confirm} question={question}>
      <input type="hidden" name="key" value={formKey} />
      <p id="refund-left" className="w-100 small text-body-secondary mt-2 mb-0" data-testid="refund-left">
        {t('console.member.refund_left', { amount: money(left, order.currency), total: money(order.amountCents, order.currency) })}
      </p>
      <div>
        <label htmlFor="refund-order" className="form-label small">{t('console.member.order')}</label>
        <select id="refund-order" name="order" className="form-select form-select-sm" required value={chosen} onChange={(e) => setChosen(e.target.value)}>
          {orders.map((o) => <option key={o.id} value={o.id}>{o.id} · {money(o.amountCents, o.currency)}</option>)}
        </select>
      </div>
      <div>
        <label htmlFor="refund-amount" className="form-label small">{t('console.member.refund_amount', { currency: order.currency })}</label>
        {/* Keyed by the order: choosing another one puts all that is left of it in the field. */}
        <input
          key={order.id} id="refund-amount" name="amount" inputMode="decimal" pattern="\d{1,9}([.,]\d{1,2})?" defaultValue={moneyUnits(left)}
          className="form-control form-control-sm" size={8} aria-describedby="refund-left"
        />
      </div>
      <ReasonInput id="refund-reason" />
    </ActionForm>
  );
}
