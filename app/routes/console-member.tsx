import { randomUUID } from 'node:crypto';
import { data, Link, useActionData, useLoaderData } from 'react-router';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { memberAction, memberIdOf, type MemberIntent as Intent, type MemberReply as Reply } from '#server/http/console-member.server.ts';
import type { Route } from './+types/console-member';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import type { Language } from '#common/languages.ts';
import { BAN_REASONS, GROUND_KEYS } from '#common/reports.ts';
import { GroundField } from '../components/ConsoleQueue.tsx';
import { useRouteData } from '../features/console/route-data.ts';
import { ActionForm, ReasonInput, RefundForm } from '../features/console/MemberActions.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.member.title', noindex: true });
}

/** The member's overview (its opening is audited) and a fresh key for the credit and refund forms, so that a resent form books once. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const id = memberIdOf(params);
  const member = await orForbidden(ctx.services.console.member(staff, id, { ip: ctx.clientAddress }).catch((e: { status?: number }) => {
    if (e.status === 404) throw data(null, { status: 404 });
    throw e;
  }));
  return { member, key: randomUUID() };
}

/** The page's actions (server/http/console-member.server.ts): each asks first, then runs once confirmed. */
export async function action({ context, params, request }: Route.ActionArgs) {
  return memberAction(context.get(requestContext), params, request);
}

type Overview = Awaited<ReturnType<typeof loader>>['member'];

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section className="col-12 col-xl-6" aria-labelledby={`member-${id}`} data-testid={`member-${id}`}>
      <div className="card h-100"><div className="card-body">
        <h2 className="h5 card-title" id={`member-${id}`}>{title}</h2>
        {children}
      </div></div>
    </section>
  );
}

function Facts({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="row mb-0 small">
      {rows.map(([term, value]) => [
        <dt key={`${term}-t`} className="col-5 text-body-secondary fw-normal">{term}</dt>,
        <dd key={`${term}-d`} className="col-7 mb-1 text-break">{value}</dd>,
      ])}
    </dl>
  );
}

const at = (iso: string | null, lang: Language) => (iso ? formatDateTime(iso, lang) : '–');

export default function ConsoleMember() {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const { member: m, key } = useLoaderData<typeof loader>() as { member: Overview; key: string };
  const reply = useActionData<typeof action>() as Reply | undefined;
  const confirmFor = (intent: Intent) => (reply?.intent === intent ? reply.confirm : undefined);
  const { roles } = useRouteData();
  const may = (role: string) => roles.some((r) => r === role || r === 'admin');
  const a = m.account;
  const refundable = m.orders.filter((o) => o.status === 'completed' && !o.refundedAt && o.refundedCents < o.amountCents);
  const reportList = (rows: Overview['reports']['about']) => (rows.length
    ? <ul className="list-unstyled mb-0">{rows.map((r) => (
      <li key={r.id}><Link to={`/console/members/${r.otherId}`}>#{r.otherId}</Link> · {t(`reports.reasons.${r.reason}`)} · {t(`reports.statuses.${r.status}`)} · {at(r.createdAt, lang)}</li>
    ))}</ul>
    : t('console.member.none'));
  return (
    <>
      <p className="mb-1"><Link to="/console/members">{t('console.member.back')}</Link></p>
      <h1 className="h3">{m.profile?.name ?? t('console.members.no_profile')} <small className="text-body-secondary">#{a.id}</small></h1>
      {reply?.done && <div className="alert alert-success" role="status" data-testid="member-action-done">{reply.done}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="member-action-error">{reply.error}</div>}
      <div className="row g-3">
        <Section id="account" title={t('console.member.account')}>
          <Facts rows={[
            [t('console.members.email'), a.email], [t('console.members.site'), a.siteId], [t('console.members.status'), t(`console.members.status_${a.status}`)],
            [t('console.member.language'), a.language], [t('console.member.credits'), a.credits], [t('console.member.premium'), a.paidUser ? t('console.member.yes') : t('console.member.no')],
            [t('console.members.signed_up'), at(a.signupDate, lang)], [t('console.member.activated'), at(a.activatedAt, lang)],
            [t('console.member.last_active'), at(a.lastActiveAt, lang)], [t('console.member.invisible'), a.invisible ? t('console.member.yes') : t('console.member.no')],
          ]} />
        </Section>
        <Section id="profile" title={t('console.member.profile')}>
          {m.profile ? (
            <Facts rows={[
              [t('console.members.name'), m.profile.name], [t('console.member.birth_date'), m.profile.birthDate],
              [t('console.member.country'), `${m.profile.country}${m.profile.region ? ` · ${m.profile.region}` : ''}`],
              [t('console.member.profile_status'), t(`console.member.profile_${m.profile.status}`)],
              [t('console.member.fictional'), m.profile.fictional ? t('console.member.yes') : t('console.member.no')],
              [t('console.member.about'), m.profile.about || '–'], [t('console.member.photos'), t('console.member.photo_count', { count: m.photos.length })],
            ]} />
          ) : <p className="mb-0">{t('console.members.no_profile')}</p>}
        </Section>
        <Section id="actions" title={t('console.member.actions')}>
          <ActionForm intent="adjust_credits" label={t('console.member.adjust')} confirm={confirmFor('adjust_credits')}>
            <input type="hidden" name="key" value={key} />
            <div>
              <label htmlFor="adjust-credits" className="form-label small">{t('console.member.credits_change')}</label>
              <input id="adjust-credits" name="credits" type="number" min={-10000} max={10000} step={1} required className="form-control form-control-sm" />
            </div>
            <ReasonInput id="adjust-reason" />
          </ActionForm>
          <ActionForm intent="end_sessions" label={t('console.member.end_sessions')} confirm={confirmFor('end_sessions')} />
          {a.status === 'not_confirmed' && <ActionForm intent="resend_activation" label={t('console.member.resend_activation')} confirm={confirmFor('resend_activation')} />}
          {a.status !== 'deleted' && <ActionForm intent="send_password_reset" label={t('console.member.send_password_reset')} confirm={confirmFor('send_password_reset')} />}
        </Section>
        <Section id="moderation" title={t('console.member.moderation')}>
          {may('moderator') && !m.ban && (
            <ActionForm intent="ban" label={t('console.member.ban_action')} confirm={confirmFor('ban')}>
              <div>
                <label htmlFor="ban-reason" className="form-label small">{t('console.member.ban_category')}</label>
                <select id="ban-reason" name="ban" className="form-select form-select-sm" required>
                  {BAN_REASONS.map((r) => <option key={r} value={r}>{t(`console.ban_reasons.${r}`)}</option>)}
                </select>
              </div>
              <ReasonInput id="ban-facts" label={t('console.member.facts')} />
            </ActionForm>
          )}
          {may('moderator') && m.profile && (
            <ActionForm
              intent={m.profile.fictional ? 'unmark_fictional' : 'mark_fictional'}
              label={t(m.profile.fictional ? 'console.member.unmark_fictional' : 'console.member.mark_fictional')}
              confirm={confirmFor(m.profile.fictional ? 'unmark_fictional' : 'mark_fictional')}
            >
              <ReasonInput id="fictional-reason" />
            </ActionForm>
          )}
          {may('moderator') && m.ban && (
            <ActionForm intent="unban" label={t('console.member.unban_action')} confirm={confirmFor('unban')}>
              <ReasonInput id="unban-reason" />
            </ActionForm>
          )}
          {may('moderator') && !m.ban && a.status !== 'deleted' && (
            <ActionForm intent="suspend" label={t('console.member.suspend_action')} confirm={confirmFor('suspend')}>
              <div>
                <label htmlFor="suspend-days" className="form-label small">{t('console.member.suspension_days')}</label>
                <input id="suspend-days" name="days" type="number" min={1} max={365} step={1} required className="form-control form-control-sm" />
              </div>
              <GroundField id="suspend-ground" grounds={GROUND_KEYS} defaultValue="terms_general" />
              <ReasonInput id="suspend-facts" label={t('console.member.facts')} />
            </ActionForm>
          )}
          {may('moderator') && a.suspendedUntil && (
            <ActionForm intent="end_suspension" label={t('console.member.end_suspension_action')} confirm={confirmFor('end_suspension')}>
              <ReasonInput id="end-suspension-reason" />
            </ActionForm>
          )}
          <Facts rows={[
            [t('console.member.suspended_until'), at(a.suspendedUntil, lang)],
            [t('console.member.ban'), m.ban ? `${t(`console.ban_reasons.${m.ban.reason}`)} · ${at(m.ban.createdAt, lang)}${m.ban.note ? ` · ${m.ban.note}` : ''}` : t('console.member.none')],
            [t('console.member.reports_about'), reportList(m.reports.about)],
            [t('console.member.reports_by'), reportList(m.reports.by)],
            [t('console.member.open_flags'), m.flags.length ? m.flags.map((f) => `${t(`console.flags.kind_${f.kind}`)} (${f.hits})`).join(', ') : t('console.member.none')],
          ]} />
        </Section>
        <Section id="sessions" title={t('console.member.sessions')}>
          {m.sessions.length ? (
            <ul className="list-unstyled small mb-0">
              {m.sessions.map((s) => <li key={s.createdAt + s.lastUsedAt}>{at(s.lastUsedAt, lang)} · <span className="text-body-secondary">{s.userAgent || '–'}</span></li>)}
            </ul>
          ) : <p className="mb-0 small">{t('console.member.none')}</p>}
        </Section>
        <Section id="activity" title={t('console.member.activity')}>
          <Facts rows={[
            [t('console.member.likes'), t('console.member.likes_counts', { given: m.likes.given, received: m.likes.received })],
            [t('console.member.conversations'), t('console.member.conversation_counts', { count: m.conversations.count, sent: m.conversations.messagesSent })],
            [t('console.member.spend_cap'), m.spendCap?.credits ? `${m.spendCap.credits} / ${t(`console.member.per_${m.spendCap.period}`)}` : t('console.member.none')],
          ]} />
          {m.conversations.latest.length > 0 && (
            <ul className="list-unstyled small mt-2 mb-0" aria-label={t('console.member.conversations')}>
              {m.conversations.latest.map((c) => (
                <li key={c.id}>
                  <Link to={`/console/members/${c.otherId}`}>#{c.otherId}</Link> · {t('console.member.sent_received', { sent: c.sent, received: c.received })}
                  {c.reported && <> · <Link to={`/console/members/${a.id}/conversations/${c.id}`} data-testid="read-conversation">{t('console.member.read_conversation')}</Link></>}
                </li>
              ))}
            </ul>
          )}
        </Section>
        <Section id="orders" title={t('console.member.orders')}>
          {m.orders.length ? (
            <div className="table-responsive"><table className="table table-sm mb-0 small">
              <caption className="visually-hidden">{t('console.member.orders')}</caption>
              <thead><tr><th scope="col">{t('console.member.order')}</th><th scope="col">{t('console.member.amount')}</th><th scope="col">{t('console.members.status')}</th><th scope="col">{t('console.member.when')}</th></tr></thead>
              <tbody>{m.orders.map((o) => (
                <tr key={o.id}><td className="text-break">{o.id}</td><td>{formatMoney(o.amountCents, o.currency, lang)} · {o.credits}</td><td>{o.status}{o.refundedAt ? ` · ${t('console.member.refunded')}` : o.refundedCents > 0 ? ` · ${t('console.member.refunded_part', { amount: formatMoney(o.refundedCents, o.currency, lang) })}` : ''}</td><td className="text-nowrap">{at(o.createdAt, lang)}</td></tr>
              ))}</tbody>
            </table></div>
          ) : <p className="mb-0 small">{t('console.member.none')}</p>}
          {may('finance') && refundable.length > 0 && (
            <RefundForm orders={refundable} formKey={key} confirm={confirmFor('refund')} facts={reply?.refund} />
          )}
        </Section>
        <Section id="ledger" title={t('console.member.ledger')}>
          {m.ledger.length ? (
            <div className="table-responsive"><table className="table table-sm mb-0 small" data-testid="member-ledger-table">
              <caption className="visually-hidden">{t('console.member.ledger')}</caption>
              <thead><tr><th scope="col">{t('console.member.when')}</th><th scope="col">{t('console.member.change')}</th><th scope="col">{t('console.member.balance')}</th><th scope="col">{t('console.member.reason')}</th></tr></thead>
              <tbody>{m.ledger.map((l) => (
                <tr key={l.id}><td className="text-nowrap">{at(l.createdAt, lang)}</td><td>{l.delta > 0 ? `+${l.delta}` : l.delta}</td><td>{l.balanceAfter}</td><td>{t(`transactions.reason_${l.reason}`)}</td></tr>
              ))}</tbody>
            </table></div>
          ) : <p className="mb-0 small">{t('console.member.none')}</p>}
        </Section>
      </div>
    </>
  );
}
