import { Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { idField, openedItem, pageOf, queueAction, type QueueReply } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-appeals';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';
import { QueueAlerts, QueueOpenedItem } from '../components/QueueOpenedItem.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.appeals', noindex: true });
}

/** Open appeals of others' decisions, oldest first; `open` shows the one the moderator holds. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.appealQueue(staff, pageOf(request)));
  return { items, page, hasMore, opened: openedItem(request, items, staff, (i) => i.id), me: staff.staffId };
}

const OUTCOMES = ['reversed', 'confirmed'] as const;

/** `claim` holds an appeal and opens it; `decide` confirms first, then reverses or confirms the decision. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return queueAction(ctx, request, {
    queue: 'appeals',
    claimSchema: z.object({ id: idField }),
    claim: (staff, { id }, from) => ctx.services.console.claimAppeal(staff, id, from),
    openAs: ({ id }) => id,
    decideSchema: z.object({ id: idField, outcome: z.enum(OUTCOMES), member: z.string().regex(/^\d{1,10}$/) }),
    decide: async (staff, { id, outcome }, from) => {
      await ctx.services.console.decideAppeal(staff, id, { outcome }, from);
      return outcome;
    },
  });
}

export default function ConsoleAppeals() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as QueueReply<(typeof OUTCOMES)[number]> | undefined;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_appeals')}</p>
      <QueueAlerts done={reply?.done ? t(`console.queues.appeal_${reply.done}`) : null} error={reply?.error} />
      {opened && !reply?.done && (
        <QueueOpenedItem
          testid="appeal-opened" me={me} held={opened} at={{ queue: 'appeals', page, open: opened.id }}
          title={<>{t(`statements.restrictions.${opened.restriction}`)}: <Link to={`/console/members/${opened.member_id}`}>#{opened.member_id}</Link></>}
          facts={[[t('console.queues.ground'), t(`statements.grounds.${opened.ground}`)], [t('console.queues.appeal_text'), opened.text]]}
          fields={{ id: opened.id, member: opened.member_id }} confirm={reply?.confirm}
          confirmText={(c) => t(`console.queues.confirm_${c.outcome}`, { member: c.member })}
        >
          <ActionButtons actions={OUTCOMES} name="outcome" labels="console.queues.outcome_" />
        </QueueOpenedItem>
      )}
      <QueueTable testid="appeal-table" columns={[t('console.queues.member'), t('console.queues.what')]} empty={!items.length}>
        {items.map((a) => (
          <tr key={a.id} data-testid="appeal-row">
            <td className="text-nowrap">{formatDateTime(a.created_at, lang)}</td>
            <td><Link to={`/console/members/${a.member_id}`}>#{a.member_id}</Link> <span className="text-body-secondary small">({t('console.members.site')} {a.site_id})</span></td>
            <td>{t(`statements.restrictions.${a.restriction}`)}</td>
            <td><HeldBy by={a.claimed_by} until={a.claimed_until} me={me} /></td>
            <td><ClaimButton id={a.id} label={t('console.queues.open')} /></td>
          </tr>
        ))}
      </QueueTable>
      <QueuePager page={page} hasMore={hasMore} />
    </>
  );
}
