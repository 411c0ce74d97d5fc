import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formFields, idOf, openedAt, pageOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-appeals';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ACCESS_KEYS, ClaimButton, ConfirmDecision, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.appeals', noindex: true });
}

/** Open appeals of others' decisions, oldest first; `open` shows the one the moderator holds. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.appealQueue(staff, pageOf(request)));
  const openId = idOf(new URL(request.url).searchParams.get('open'));
  const opened = items.find((i) => i.id === openId && i.claimed_by === staff.staffId) ?? null;
  return { items, page, hasMore, opened, me: staff.staffId };
}

const OUTCOMES = ['reversed', 'confirmed'] as const;
type Reply = { error?: string; done?: (typeof OUTCOMES)[number]; confirm?: Record<string, string> };

/** `claim` holds an appeal and opens it; `decide` confirms first, then reverses or confirms the decision. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const fail = (error: unknown) => data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
  const id = idOf(form.id);
  const outcome = OUTCOMES.find((o) => o === form.outcome);
  if (id === null || (form.intent !== 'claim' && (!outcome || !/^\d{1,10}$/.test(form.member ?? '')))) {
    return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
  }
  if (form.intent === 'claim') {
    try {
      await ctx.services.console.claimAppeal(staff, id, { ip: ctx.clientAddress });
    } catch (error) {
      return fail(error);
    }
    throw redirect(openedAt('appeals', request, id));
  }
  if (!outcome) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
  if (form.confirm !== '1') return { confirm: { intent: 'decide', id: String(id), outcome, member: form.member } } satisfies Reply;
  try {
    await ctx.services.console.decideAppeal(staff, id, { outcome }, { ip: ctx.clientAddress });
    return { done: outcome } satisfies Reply;
  } catch (error) {
    return fail(error);
  }
}

export default function ConsoleAppeals() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const busy = useNavigation().state !== 'idle';
  const confirm = reply?.confirm;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_appeals')}</p>
      {reply?.done && <div className="alert alert-success" role="status" data-testid="queue-done">{t(`console.queues.appeal_${reply.done}`)}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{reply.error}</div>}
      {opened && !reply?.done && (
        <section className="card mb-3" aria-labelledby="appeal-opened" data-testid="appeal-opened">
          <div className="card-body">
            <h2 className="h5" id="appeal-opened">
              {t(`statements.restrictions.${opened.restriction}`)}: <Link to={`/console/members/${opened.member_id}`}>#{opened.member_id}</Link>
            </h2>
            <p className="mb-1"><HeldBy by={opened.claimed_by} until={opened.claimed_until} me={me} /></p>
            <dl className="row small mb-2">
              <dt className="col-sm-3">{t('console.queues.ground')}</dt>
              <dd className="col-sm-9">{t(`statements.grounds.${opened.ground}`)}</dd>
              <dt className="col-sm-3">{t('console.queues.appeal_text')}</dt>
              <dd className="col-sm-9 text-break">{opened.text}</dd>
            </dl>
            {confirm ? (
              <ConfirmDecision
                back={`/console/queues/appeals?open=${opened.id}`} fields={confirm}
                text={t(`console.queues.confirm_${confirm.outcome}`, { member: confirm.member })}
              />
            ) : (
              <Form method="post" className="d-flex flex-wrap gap-2" aria-label={t('console.queues.decide')}>
                <input type="hidden" name="intent" value="decide" />
                <input type="hidden" name="id" value={opened.id} />
                <input type="hidden" name="member" value={opened.member_id} />
                {OUTCOMES.map((o) => (
                  <button
                    key={o} type="submit" name="outcome" value={o} accessKey={ACCESS_KEYS[o]} disabled={busy} data-testid={`decide-${o}`}
                    className={`btn btn-sm ${o === 'reversed' ? 'btn-outline-danger' : 'btn-outline-secondary'}`}
                  >
                    {t(`console.queues.outcome_${o}`)}
                  </button>
                ))}
              </Form>
            )}
          </div>
        </section>
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
