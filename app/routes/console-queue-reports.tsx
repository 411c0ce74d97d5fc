import { Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { ACTIONS_FOR, GROUND_KEYS, REPORT_ACTIONS } from '#common/reports.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { GROUND_FOR_REASON, idField, openedItem, pageOf, queueAction, type QueueReply } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-reports';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';
import { QueueAlerts, QueueOpenedItem } from '../components/QueueOpenedItem.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.reports', noindex: true });
}

/** Open reports, oldest first; `open` shows the one the moderator holds, with the decision form. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.reportQueue(staff, pageOf(request)));
  const found = openedItem(request, items, staff, (i) => i.id);
  const opened = found ? { ...found, suggested: GROUND_FOR_REASON[found.reason] } : null;
  return { items, page, hasMore, opened, me: staff.staffId };
}

/** `claim` holds a report for ten minutes and opens it; `decide` says first what will happen, then decides. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return queueAction(ctx, request, {
    queue: 'reports',
    claimSchema: z.object({ id: idField }),
    claim: (staff, { id }, from) => ctx.services.console.claimReport(staff, id, from),
    openAs: ({ id }) => id,
    decideSchema: z.object({
      id: idField,
      action: z.enum(REPORT_ACTIONS),
      ground: z.enum(GROUND_KEYS),
      facts: z.string().trim().max(3000).default(''),
      member: z.string().regex(/^\d{1,10}$/),
    }),
    decide: async (staff, { id, action: decision, ground, facts }, from) =>
      (await ctx.services.console.decideReport(staff, id, { action: decision, ground, facts }, from)).decision_id ?? ('dismissed' as const),
  });
}

export default function ConsoleReports() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as QueueReply<number | 'dismissed'> | undefined;
  const done = reply?.done;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_reports')}</p>
      <QueueAlerts
        done={done === undefined ? null : done === 'dismissed' ? t('console.queues.dismissed') : t('console.queues.statement_sent', { id: done })}
        decision={done === 'dismissed' ? null : done} error={reply?.error}
      />
      {opened && done === undefined && (
        <QueueOpenedItem
          testid="report-opened" me={me} held={opened} at={{ queue: 'reports', page, open: opened.id }}
          title={<>{t(`reports.kinds.${opened.kind}`)}: <Link to={`/console/members/${opened.reported_id}`}>{opened.reported_name ?? t('console.queues.member')} #{opened.reported_id}</Link></>}
          facts={[
            [t('console.queues.reason'), t(`reports.reasons.${opened.reason}`)],
            [t('console.queues.report_text'), opened.text || t('console.queues.none')],
            ...(opened.content_id === null ? [] : [[t('console.queues.content'), `#${opened.content_id}`] as [string, string]]),
          ]}
          fields={{ id: opened.id, member: opened.reported_id }} confirm={reply?.confirm}
          confirmText={(c) => (c.action === 'dismiss'
            ? t('console.queues.confirm_dismiss')
            : t('console.queues.confirm_restrict', { action: t(`console.queues.action_${c.action}`), member: c.member }))}
        >
          <GroundField id="report-ground" grounds={GROUND_KEYS} defaultValue={opened.suggested} />
          <FactsField id="report-facts" />
          <ActionButtons actions={ACTIONS_FOR[opened.kind]} />
        </QueueOpenedItem>
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
