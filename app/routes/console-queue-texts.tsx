import { Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { GROUND_KEYS } from '#common/reports.ts';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { idField, openedItem, pageOf, queueAction, type QueueReply } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-texts';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';
import { QueueAlerts, QueueOpenedItem } from '../components/QueueOpenedItem.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.texts', noindex: true });
}

/** New and changed names and about-me texts, oldest first, a page at a time; `open` shows the one the moderator holds. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.textQueue(staff, pageOf(request)));
  return { items, page, hasMore, opened: openedItem(request, items, staff, (i) => i.id), me: staff.staffId };
}

const ACTIONS = ['approve', 'remove'] as const;

/** `claim` holds an item and opens it; `decide` says what will happen first, then approves or removes. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return queueAction(ctx, request, {
    queue: 'texts',
    claimSchema: z.object({ id: idField }),
    claim: (staff, { id }, from) => ctx.services.console.claimText(staff, id, from),
    openAs: ({ id }) => id,
    decideSchema: z.object({
      id: idField,
      action: z.enum(ACTIONS),
      ground: z.enum(GROUND_KEYS),
      field: z.enum(['name', 'about']),
      member: idField,
      facts: z.string().default(''),
    }),
    decide: async (staff, { id, action: act, ground, facts }, from) => {
      const done = await ctx.services.console.decideText(staff, id, { action: act, ground, facts }, from);
      return { status: done.status, decision: done.decision_id };
    },
  });
}

export default function ConsoleTexts() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as QueueReply<{ status: string; decision: number | null }> | undefined;
  const done = reply?.done;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_texts')}</p>
      <QueueAlerts
        done={done ? (done.decision ? t('console.queues.statement_sent', { id: done.decision }) : t('console.queues.text_approved')) : null}
        decision={done?.decision} error={reply?.error}
      />
      {opened && !done && (
        <QueueOpenedItem
          testid="text-opened" me={me} held={opened} at={{ queue: 'texts', page, open: opened.id }}
          title={<>{t(`console.queues.field_${opened.field}`)}: <Link to={`/console/members/${opened.member_id}`}>#{opened.member_id}</Link></>}
          facts={[
            [t('console.queues.old_text'), opened.old_text ?? t('console.queues.new_member'), 'text-old'],
            [t('console.queues.new_text'), opened.new_text, 'text-new'],
          ]}
          fields={{ id: opened.id, field: opened.field, member: opened.member_id }} confirm={reply?.confirm}
          confirmText={(c) => t(`console.queues.confirm_text_${c.action === 'approve' ? 'approve' : `remove_${c.field}`}`, { member: c.member })}
        >
          <GroundField id="text-ground" grounds={GROUND_KEYS} defaultValue="terms_general" />
          <FactsField id="text-facts" />
          <ActionButtons actions={ACTIONS} />
        </QueueOpenedItem>
      )}
      <QueueTable testid="text-table" columns={[t('console.queues.member'), t('console.queues.what'), t('console.queues.new_text')]} empty={!items.length}>
        {items.map((i) => (
          <tr key={i.id} data-testid="text-row">
            <td className="text-nowrap">{formatDateTime(i.created_at, lang)}</td>
            <td><Link to={`/console/members/${i.member_id}`}>#{i.member_id}</Link> <span className="text-body-secondary small">({t('console.members.site')} {i.site_id})</span></td>
            <td>{t(`console.queues.field_${i.field}`)}</td>
            <td className="text-break">{i.new_text.length > 80 ? `${i.new_text.slice(0, 80)}…` : i.new_text}</td>
            <td><HeldBy by={i.claimed_by} until={i.claimed_until} me={me} /></td>
            <td><ClaimButton id={i.id} label={t('console.queues.open')} /></td>
          </tr>
        ))}
      </QueueTable>
      <QueuePager page={page} hasMore={hasMore} />
    </>
  );
}
