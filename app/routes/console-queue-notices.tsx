import { Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { NOTICE_REFERENCE } from '#common/notices.ts';
import { ACTIONS_FOR, GROUND_KEYS, REPORT_ACTIONS } from '#common/reports.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { openedItem, pageOf, queueAction, type QueueReply } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-notices';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';
import { QueueAlerts, QueueOpenedItem } from '../components/QueueOpenedItem.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.notices', noindex: true });
}

/** DSA notices not decided yet, oldest first; `open` shows the one the moderator holds, with the decision form. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.noticeQueue(staff, pageOf(request)));
  return { items, page, hasMore, opened: openedItem(request, items, staff, (i) => i.reference), me: staff.staffId };
}

const reference = z.string().regex(NOTICE_REFERENCE);

/** `claim` holds a notice and opens it; `decide` confirms first, then decides (the notifier reads `decision`). */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return queueAction(ctx, request, {
    queue: 'notices',
    claimSchema: z.object({ reference }),
    claim: (staff, item, from) => ctx.services.console.claimNotice(staff, item.reference, from),
    openAs: (item) => item.reference,
    decideSchema: z.object({
      reference,
      action: z.enum(REPORT_ACTIONS),
      ground: z.enum(GROUND_KEYS),
      facts: z.string().trim().max(3000).default(''),
      decision: z.string().trim().min(1, 'console.queues.decision_required').max(3000),
    }),
    decide: async (staff, { reference: ref, ...input }, from) => {
      await ctx.services.console.decideNotice(staff, ref, input, from);
      return true as const;
    },
  });
}

export default function ConsoleNotices() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as QueueReply<true> | undefined;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_notices')}</p>
      <QueueAlerts done={reply?.done ? t('console.queues.notice_decided') : null} error={reply?.error} />
      {opened && !reply?.done && (
        <QueueOpenedItem
          testid="notice-opened" me={me} held={opened} at={{ queue: 'notices', page, open: opened.reference }}
          title={`${opened.reference}: ${t(`complaints.kinds.${opened.kind}`)}`}
          facts={[
            [t('console.queues.content'), opened.kind === 'profile' && /^\d+$/.test(opened.content)
              ? <Link to={`/console/members/${opened.content}`}>#{opened.content}</Link>
              : opened.content],
            [t('console.queues.reason'), t(`complaints.reasons.${opened.reason}`)],
            [t('console.queues.report_text'), opened.explanation || t('console.queues.none')],
          ]}
          fields={{ reference: opened.reference }} confirm={reply?.confirm}
          confirmText={(c) => (c.action === 'dismiss'
            ? t('console.queues.confirm_notice_dismiss')
            : t('console.queues.confirm_notice_restrict', { action: t(`console.queues.action_${c.action}`) }))}
        >
          <GroundField id="notice-ground" grounds={GROUND_KEYS} defaultValue="terms_general" />
          <div className="mb-2">
            <label htmlFor="notice-decision" className="form-label">{t('console.queues.decision')}</label>
            <textarea id="notice-decision" name="decision" className="form-control form-control-sm" rows={2} maxLength={3000} required />
          </div>
          <FactsField id="notice-facts" />
          <ActionButtons actions={opened.kind === 'other' ? ['dismiss'] : ACTIONS_FOR[opened.kind]} />
        </QueueOpenedItem>
      )}
      <QueueTable testid="notice-table" columns={[t('console.queues.reference'), t('console.queues.what'), t('console.queues.reason')]} empty={!items.length}>
        {items.map((n) => (
          <tr key={n.reference} data-testid="notice-row">
            <td className="text-nowrap">{formatDateTime(n.created_at, lang)}</td>
            <td className="text-nowrap">{n.reference} <span className="text-body-secondary small">({t('console.members.site')} {n.site_id})</span></td>
            <td>{t(`complaints.kinds.${n.kind}`)}</td>
            <td>{t(`complaints.reasons.${n.reason}`)}</td>
            <td><HeldBy by={n.claimed_by} until={n.claimed_until} me={me} /></td>
            <td><ClaimButton id={n.reference} field="reference" label={t('console.queues.open')} /></td>
          </tr>
        ))}
      </QueueTable>
      <QueuePager page={page} hasMore={hasMore} />
    </>
  );
}
