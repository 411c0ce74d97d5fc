import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { ACTIONS_FOR, GROUND_KEYS, REPORT_ACTIONS } from '#common/reports.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formFields, GROUND_FOR_REASON, idOf, openedAt, pageOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-reports';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, ConfirmDecision, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.reports', noindex: true });
}

/** Open reports, oldest first; `open` shows the one the moderator holds, with the decision form. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, counts, page, has_more: hasMore } = await orForbidden(ctx.services.console.reportQueue(staff, pageOf(request)));
  const openId = idOf(new URL(request.url).searchParams.get('open'));
  const found = items.find((i) => i.id === openId && i.claimed_by === staff.staffId);
  const opened = found ? { ...found, suggested: GROUND_FOR_REASON[found.reason] } : null;
  return { items, counts, page, hasMore, opened, me: staff.staffId };
}

const decideSchema = z.object({
  id: z.string().transform(idOf).pipe(z.number()),
  action: z.enum(REPORT_ACTIONS),
  ground: z.enum(GROUND_KEYS),
  facts: z.string().trim().max(3000).default(''),
  member: z.string().regex(/^\d{1,10}$/),
});

type Reply = { error?: string; done?: number | 'dismissed'; confirm?: Record<string, string> };

/**
 * `claim` holds a report for ten minutes and opens it; `decide` says first what will happen (no `confirm`), then
 * decides with `confirm=1`. Without JavaScript too.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const fail = (error: unknown) => data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
  if (form.intent === 'claim') {
    const id = idOf(form.id);
    if (id === null) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
    try {
      await ctx.services.console.claimReport(staff, id, { ip: ctx.clientAddress });
    } catch (error) {
      return fail(error);
    }
    throw redirect(openedAt('reports', request, id));
  }
  const parsed = decideSchema.safeParse(form);
  if (form.intent !== 'decide' || !parsed.success) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
  const { id, action: decision, ground, facts, member } = parsed.data;
  if (form.confirm !== '1') return { confirm: { intent: 'decide', id: String(id), action: decision, ground, facts, member } } satisfies Reply;
  try {
    const result = await ctx.services.console.decideReport(staff, id, { action: decision, ground, facts }, { ip: ctx.clientAddress });
    return { done: result.decision_id ?? 'dismissed' } satisfies Reply;
  } catch (error) {
    return fail(error);
  }
}

export default function ConsoleReports() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const confirm = reply?.confirm;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_reports')}</p>
      {reply?.done !== undefined && (
        <div className="alert alert-success" role="status" data-testid="queue-done" data-decision={reply.done === 'dismissed' ? undefined : reply.done}>
          {reply.done === 'dismissed' ? t('console.queues.dismissed') : t('console.queues.statement_sent', { id: reply.done })}
        </div>
      )}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{reply.error}</div>}
      {opened && reply?.done === undefined && (
        <section className="card mb-3" aria-labelledby="report-opened" data-testid="report-opened">
          <div className="card-body">
            <h2 className="h5" id="report-opened">
              {t(`reports.kinds.${opened.kind}`)}: <Link to={`/console/members/${opened.reported_id}`}>{opened.reported_name ?? t('console.queues.member')} #{opened.reported_id}</Link>
            </h2>
            <p className="mb-1"><HeldBy by={opened.claimed_by} until={opened.claimed_until} me={me} /></p>
            <dl className="row small mb-2">
              <dt className="col-sm-3">{t('console.queues.reason')}</dt>
              <dd className="col-sm-9">{t(`reports.reasons.${opened.reason}`)}</dd>
              <dt className="col-sm-3">{t('console.queues.report_text')}</dt>
              <dd className="col-sm-9 text-break">{opened.text || t('console.queues.none')}</dd>
              {opened.content_id !== null && <><dt className="col-sm-3">{t('console.queues.content')}</dt><dd className="col-sm-9">#{opened.content_id}</dd></>}
            </dl>
            {confirm ? (
              <ConfirmDecision
                back={`/console/queues/reports?open=${opened.id}`} fields={confirm}
                text={confirm.action === 'dismiss'
                  ? t('console.queues.confirm_dismiss')
                  : t('console.queues.confirm_restrict', { action: t(`console.queues.action_${confirm.action}`), member: confirm.member })}
              />
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="decide" />
                <input type="hidden" name="id" value={opened.id} />
                <input type="hidden" name="member" value={opened.reported_id} />
                <GroundField id="report-ground" grounds={GROUND_KEYS} defaultValue={opened.suggested} />
                <FactsField id="report-facts" />
                <ActionButtons actions={ACTIONS_FOR[opened.kind]} />
              </Form>
            )}
          </div>
        </section>
      )}
      <QueueTable testid="report-table" columns={[t('console.queues.member'), t('console.queues.what'), t('console.queues.reason')]} empty={!items.length}>
        {items.map((r) => (
          <tr key={r.id} data-testid="report-row">
            <td className="text-nowrap">{formatDateTime(r.created_at, lang)}</td>
            <td><Link to={`/console/members/${r.reported_id}`}>{r.reported_name ?? ''} #{r.reported_id}</Link> <span className="text-body-secondary small">({t('console.members.site')} {r.site_id})</span></td>
            <td>{t(`reports.kinds.${r.kind}`)}</td>
            <td>{t(`reports.reasons.${r.reason}`)}</td>
            <td><HeldBy by={r.claimed_by} until={r.claimed_until} me={me} /></td>
            <td><ClaimButton id={r.id} label={t('console.queues.open')} /></td>
          </tr>
        ))}
      </QueueTable>
      <QueuePager page={page} hasMore={hasMore} />
    </>
  );
}
