import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { z } from 'zod';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formFields, idOf, openedAt, pageOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-photos';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ACCESS_KEYS, ClaimButton, ConfirmDecision, HeldBy, QueuePager } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.photos', noindex: true });
}

/**
 * Profile and chat photos no moderator has looked at, oldest first, 50 a page, shown through the moderators' file
 * endpoint; `open` (kind-id) is the photo the moderator holds, the only one they can decide.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const queue = await orForbidden(ctx.services.console.photoQueue(staff, pageOf(request)));
  return { photos: queue.items, page: queue.page, hasMore: queue.has_more, open: new URL(request.url).searchParams.get('open'), me: staff.staffId };
}

const decideSchema = z.object({
  kind: z.enum(['profile', 'chat']),
  id: z.string().transform(idOf).pipe(z.number()),
  decision: z.enum(['approve', 'reject']),
  member: z.string().regex(/^\d{1,10}$/),
});

type Reply = { error?: string; done?: 'approve' | 'reject'; confirm?: Record<string, string> };

/** Approve or reject, after a confirmation that says what will happen. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  if (form.intent === 'claim') {
    const [kind, id] = [form.id?.split('-')[0], idOf(form.id?.split('-')[1])];
    if ((kind !== 'profile' && kind !== 'chat') || id === null) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
    try {
      await ctx.services.console.claimPhoto(staff, { kind, id }, { ip: ctx.clientAddress });
    } catch (error) {
      return data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
    }
    throw redirect(openedAt('photos', request, `${kind}-${id}`));
  }
  const parsed = decideSchema.safeParse(form);
  if (!parsed.success) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
  const { kind, id, decision, member } = parsed.data;
  if (form.confirm !== '1') return { confirm: { kind, id: String(id), decision, member } } satisfies Reply;
  try {
    await ctx.services.console.moderatePhoto(staff, { kind, id, decision }, { ip: ctx.clientAddress });
    return { done: decision } satisfies Reply;
  } catch (error) {
    return data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
  }
}

export default function ConsolePhotos() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { photos, page, hasMore, open, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const busy = useNavigation().state !== 'idle';
  const confirm = reply?.confirm;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_photos')}</p>
      {reply?.done && <div className="alert alert-success" role="status" data-testid="queue-done">{t(`console.queues.photo_${reply.done}d`)}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{reply.error}</div>}
      {confirm && (
        <ConfirmDecision
          back={`/console/queues/photos?${page > 1 ? `page=${page}&` : ''}open=${confirm.kind}-${confirm.id}`} fields={confirm}
          text={t(`console.queues.confirm_${confirm.decision}`, { member: confirm.member })}
        />
      )}
      {photos.length ? (
        <ul className="row row-cols-2 row-cols-sm-3 row-cols-lg-6 g-3 list-unstyled" data-testid="photo-queue">
          {photos.map((p) => {
            const mine = p.claimed_by === me && open === `${p.kind}-${p.id}`;
            return (
              <li key={`${p.kind}-${p.id}`} className="col" data-testid="photo-item" data-photo={`${p.kind}-${p.id}`}>
                <figure className={`card h-100 mb-0${mine ? ' border-primary' : ''}`}>
                  <img
                    src={`/api/moderation.php?file=${encodeURIComponent(p.thumb_filename)}`} className="card-img-top object-fit-cover" width={200} height={200}
                    alt={t('console.queues.photo_alt', { id: p.id, member: p.member_id })} loading="lazy"
                  />
                  <figcaption className="card-body p-2 small">
                    <div>{t(p.kind === 'chat' ? 'console.queues.chat_photo' : 'console.queues.profile_photo')}{p.is_private ? ` · ${t('console.queues.private')}` : ''}</div>
                    <div className="text-body-secondary">#{p.member_id} · {formatDateTime(p.created_at, lang)}</div>
                    <div className="my-1"><HeldBy by={p.claimed_by} until={p.claimed_until} me={me} /></div>
                    {mine && !confirm ? (
                      <Form method="post" className="d-flex flex-wrap gap-1 mt-1">
                        <input type="hidden" name="kind" value={p.kind} />
                        <input type="hidden" name="id" value={p.id} />
                        <input type="hidden" name="member" value={p.member_id} />
                        {(['approve', 'reject'] as const).map((d) => (
                          <button
                            key={d} type="submit" name="decision" value={d} disabled={busy} data-testid={`photo-${d}`} accessKey={ACCESS_KEYS[d]}
                            className={`btn btn-sm ${d === 'approve' ? 'btn-outline-success' : 'btn-outline-danger'}`}
                          >
                            {t(`console.queues.${d}`)}
                          </button>
                        ))}
                      </Form>
                    ) : !mine && <ClaimButton id={`${p.kind}-${p.id}`} label={t('console.queues.open')} />}
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
