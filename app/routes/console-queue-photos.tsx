import { Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { idField, openedItem, pageOf, queueAction, type QueueReply } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-photos';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, HeldBy, QueuePager } from '../components/ConsoleQueue.tsx';
import { QueueAlerts, QueueOpenedItem } from '../components/QueueOpenedItem.tsx';
import '../features/console/console.scss';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.photos', noindex: true });
}

const photoKey = (p: { kind: string; id: number }) => `${p.kind}-${p.id}`;

/**
 * Profile and chat photos no moderator has looked at, oldest first, 50 a page, shown through the moderators' file
 * endpoint; `open` (kind-id) is the photo the moderator holds, the only one they can decide.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.photoQueue(staff, pageOf(request)));
  return { items, page, hasMore, opened: openedItem(request, items, staff, photoKey), me: staff.staffId };
}

const DECISIONS = ['approve', 'reject'] as const;
const kind = z.enum(['profile', 'chat']);

/** `claim` holds a photo (`id` is kind-id) and opens it; `decide` approves or rejects it after a confirmation. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  return queueAction(ctx, request, {
    queue: 'photos',
    claimSchema: z.object({ id: z.string() }).transform(({ id }) => ({ kind: id.split('-')[0], id: id.split('-')[1] ?? '' }))
      .pipe(z.object({ kind, id: idField })),
    claim: (staff, item, from) => ctx.services.console.claimPhoto(staff, item, from),
    openAs: (item) => photoKey(item),
    decideSchema: z.object({ kind, id: idField, decision: z.enum(DECISIONS), member: idField }),
    decide: async (staff, { kind: k, id, decision }, from) => {
      await ctx.services.console.moderatePhoto(staff, { kind: k, id, decision }, from);
      return decision;
    },
  });
}

const DONE = { approve: 'console.queues.photo_approved', reject: 'console.queues.photo_rejected' } as const;

export default function ConsolePhotos() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as QueueReply<(typeof DECISIONS)[number]> | undefined;
  const src = (file: string) => `/api/moderation.php?file=${encodeURIComponent(file)}`;
  const what = (p: { kind: string; is_private: boolean }) =>
    `${t(p.kind === 'chat' ? 'console.queues.chat_photo' : 'console.queues.profile_photo')}${p.is_private ? ` · ${t('console.queues.private')}` : ''}`;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_photos')}</p>
      <QueueAlerts done={reply?.done ? t(DONE[reply.done]) : null} error={reply?.error} />
      {opened && !reply?.done && (
        <QueueOpenedItem
          testid="photo-opened" me={me} held={opened} at={{ queue: 'photos', page, open: photoKey(opened) }}
          title={<>{what(opened)}: <Link to={`/console/members/${opened.member_id}`}>#{opened.member_id}</Link></>}
          media={<img src={src(opened.thumb_filename)} className="queue-opened-photo rounded mb-2" width={200} height={200} alt={t('console.queues.photo_alt', { id: opened.id, member: opened.member_id })} />}
          facts={[[t('console.queues.received'), formatDateTime(opened.created_at, lang)]]}
          fields={{ kind: opened.kind, id: opened.id, member: opened.member_id }} confirm={reply?.confirm}
          confirmText={(c) => t(`console.queues.confirm_${c.decision}`, { member: c.member })}
        >
          <ActionButtons actions={DECISIONS} name="decision" labels="console.queues." />
        </QueueOpenedItem>
      )}
      {items.length ? (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled" data-testid="photo-queue">
          {items.map((p) => {
            const mine = opened !== null && photoKey(opened) === photoKey(p);
            return (
              <li key={photoKey(p)} className="col" data-testid="photo-item" data-photo={photoKey(p)}>
                <figure className={`card h-100 mb-0${mine ? ' border-primary' : ''}`}>
                  <img
                    src={src(p.thumb_filename)} className="card-img-top object-fit-cover" width={200} height={200}
                    alt={t('console.queues.photo_alt', { id: p.id, member: p.member_id })} loading="lazy"
                  />
                  <figcaption className="card-body p-2 small">
                    <div>{what(p)}</div>
                    <div className="text-body-secondary">#{p.member_id} · {formatDateTime(p.created_at, lang)}</div>
                    <div className="my-1"><HeldBy by={p.claimed_by} until={p.claimed_until} me={me} /></div>
                    {!mine && <ClaimButton id={photoKey(p)} label={t('console.queues.open')} />}
                  </figcaption>
                </figure>
              </li>
            );
          })}
        </ul>
      ) : <p data-testid="queue-empty">{t('console.queues.empty')}</p>}
      <QueuePager page={page} hasMore={hasMore} />
    </>
  );
}
