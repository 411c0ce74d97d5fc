import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { GROUND_KEYS, type Ground } from '#common/reports.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formFields, idOf, openedAt, pageOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-texts';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, ConfirmDecision, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.texts', noindex: true });
}

/** New and changed names and about-me texts, oldest first, a page at a time; `open` shows the one the moderator holds. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const queue = await orForbidden(ctx.services.console.textQueue(staff, pageOf(request)));
  const openId = idOf(new URL(request.url).searchParams.get('open'));
  const opened = queue.items.find((i) => i.id === openId && i.claimed_by === staff.staffId) ?? null;
  return { items: queue.items, page: queue.page, hasMore: queue.has_more, opened, me: staff.staffId };
}

const ACTIONS = ['approve', 'remove'] as const;
type Reply = { error?: string; done?: { status: 'approved' | 'removed'; decision: number | null }; confirm?: Record<string, string> };

/** `claim` holds an item and opens it; `decide` says what will happen first, then approves or removes. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const invalid = () => data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
  const fail = (error: unknown) => data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
  const id = idOf(form.id);
  if (id === null) return invalid();
  if (form.intent === 'claim') {
    try {
      await ctx.services.console.claimText(staff, id, { ip: ctx.clientAddress });
    } catch (error) {
      return fail(error);
    }
    throw redirect(openedAt('texts', request, id));
  }
  const act = ACTIONS.find((a) => a === form.action);
  const ground = GROUND_KEYS.find((g) => g === form.ground);
  const field = form.field === 'name' || form.field === 'about' ? form.field : null;
  if (form.intent !== 'decide' || !act || !ground || !field || idOf(form.member) === null) return invalid();
  if (form.confirm !== '1') {
    return { confirm: { intent: 'decide', id: String(id), action: act, ground, field, member: form.member, facts: form.facts ?? '' } } satisfies Reply;
  }
  try {
    const done = await ctx.services.console.decideText(staff, id, { action: act, ground: ground as Ground, facts: form.facts ?? '' }, { ip: ctx.clientAddress });
    return { done: { status: done.status, decision: done.decision_id } } satisfies Reply;
  } catch (error) {
    return fail(error);
  }
}

export default function ConsoleTexts() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const confirm = reply?.confirm;
  const here = `/console/queues/texts${page > 1 ? `?page=${page}&` : '?'}`;
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_texts')}</p>
      {reply?.done && (
        <div className="alert alert-success" role="status" data-testid="queue-done" data-decision={reply.done.decision ?? undefined}>
          {reply.done.decision ? t('console.queues.statement_sent', { id: reply.done.decision }) : t('console.queues.text_approved')}
        </div>
      )}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{reply.error}</div>}
      {opened && !reply?.done && (
        <section className="card mb-3" aria-labelledby="text-opened" data-testid="text-opened">
          <div className="card-body">
            <h2 className="h5" id="text-opened">
              {t(`console.queues.field_${opened.field}`)}: <Link to={`/console/members/${opened.member_id}`}>#{opened.member_id}</Link>
            </h2>
            <p className="mb-1"><HeldBy by={opened.claimed_by} until={opened.claimed_until} me={me} /></p>
            <dl className="row small mb-2">
              <dt className="col-sm-3">{t('console.queues.old_text')}</dt>
              <dd className="col-sm-9 text-break" data-testid="text-old">{opened.old_text ?? t('console.queues.new_member')}</dd>
              <dt className="col-sm-3">{t('console.queues.new_text')}</dt>
              <dd className="col-sm-9 text-break" data-testid="text-new">{opened.new_text}</dd>
            </dl>
            {confirm ? (
              <ConfirmDecision
                back={`${here}open=${opened.id}`} fields={confirm}
                text={t(`console.queues.confirm_text_${confirm.action === 'approve' ? 'approve' : `remove_${confirm.field}`}`, { member: confirm.member })}
              />
            ) : (
              <Form method="post" aria-label={t('console.queues.decide')}>
                <input type="hidden" name="intent" value="decide" />
                <input type="hidden" name="id" value={opened.id} />
                <input type="hidden" name="field" value={opened.field} />
                <input type="hidden" name="member" value={opened.member_id} />
                <GroundField id="text-ground" grounds={GROUND_KEYS} defaultValue="terms_general" />
                <FactsField id="text-facts" />
                <ActionButtons actions={ACTIONS} />
              </Form>
            )}
          </div>
        </section>
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
