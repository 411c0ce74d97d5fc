import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { NOTICE_REFERENCE } from '#common/notices.ts';
import { ACTIONS_FOR, GROUND_KEYS, REPORT_ACTIONS } from '#common/reports.ts';
import { consoleErrorText, consoleLanguage, orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { formFields, openedAt, pageOf } from '#server/http/console-queues.server.ts';
import type { Route } from './+types/console-queue-notices';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import { ActionButtons, ClaimButton, ConfirmDecision, FactsField, GroundField, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.queues.notices', noindex: true });
}

/** DSA notices not decided yet, oldest first; `open` shows the one the moderator holds, with the decision form. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const { items, page, has_more: hasMore } = await orForbidden(ctx.services.console.noticeQueue(staff, pageOf(request)));
  const open = new URL(request.url).searchParams.get('open');
  const opened = items.find((i) => i.reference === open && i.claimed_by === staff.staffId) ?? null;
  return { items, page, hasMore, opened, me: staff.staffId };
}

const decideSchema = z.object({
  reference: z.string().regex(NOTICE_REFERENCE),
  action: z.enum(REPORT_ACTIONS),
  ground: z.enum(GROUND_KEYS),
  facts: z.string().trim().max(3000).default(''),
  decision: z.string().trim().min(1).max(3000),
});

type Reply = { error?: string; done?: true; confirm?: Record<string, string> };

/** `claim` holds a notice and opens it; `decide` confirms first, then decides (the notifier reads `decision`). */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const lang = await consoleLanguage(ctx);
  const form = await formFields(request);
  const fail = (error: unknown) => data({ error: consoleErrorText(ctx, lang, error, []).message } satisfies Reply, 400);
  if (form.intent === 'claim') {
    if (!NOTICE_REFERENCE.test(form.reference ?? '')) return data({ error: ctx.translator.t(lang, 'errors.invalid_input') } satisfies Reply, 400);
    try {
      await ctx.services.console.claimNotice(staff, form.reference, { ip: ctx.clientAddress });
    } catch (error) {
      return fail(error);
    }
    throw redirect(openedAt('notices', request, form.reference));
  }
  const parsed = decideSchema.safeParse(form);
  if (form.intent !== 'decide' || !parsed.success) {
    const missing = parsed.error?.issues.some((i) => i.path[0] === 'decision');
    return data({ error: ctx.translator.t(lang, missing ? 'console.queues.decision_required' : 'errors.invalid_input') } satisfies Reply, 400);
  }
  const { reference, ...input } = parsed.data;
  if (form.confirm !== '1') return { confirm: { intent: 'decide', reference, ...input } } satisfies Reply;
  try {
    await ctx.services.console.decideNotice(staff, reference, input, { ip: ctx.clientAddress });
    return { done: true } satisfies Reply;
  } catch (error) {
    return fail(error);
  }
}

export default function ConsoleNotices() {
  const { t, i18n: { language: lang } } = useTranslation();
  const { items, page, hasMore, opened, me } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as Reply | undefined;
  const confirm = reply?.confirm;
  const actions = opened ? (opened.kind === 'other' ? ['dismiss' as const] : ACTIONS_FOR[opened.kind]) : [];
  return (
    <>
      <p className="text-body-secondary">{t('console.queues.intro_notices')}</p>
      {reply?.done && <div className="alert alert-success" role="status" data-testid="queue-done">{t('console.queues.notice_decided')}</div>}
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="queue-error">{reply.error}</div>}
      {opened && !reply?.done && (
        <section className="card mb-3" aria-labelledby="notice-opened" data-testid="notice-opened">
          <div className="card-body">
            <h2 className="h5 text-break" id="notice-opened">{opened.reference}: {t(`complaints.kinds.${opened.kind}`)}</h2>
            <p className="mb-1"><HeldBy by={opened.claimed_by} until={opened.claimed_until} me={me} /></p>
            <dl className="row small mb-2">
              <dt className="col-sm-3">{t('console.queues.content')}</dt>
              <dd className="col-sm-9 text-break">
                {opened.kind === 'profile' && /^\d+$/.test(opened.content) ? <Link to={`/console/members/${opened.content}`}>#{opened.content}</Link> : opened.content}
              </dd>
              <dt className="col-sm-3">{t('console.queues.reason')}</dt>
              <dd className="col-sm-9">{t(`complaints.reasons.${opened.reason}`)}</dd>
              <dt className="col-sm-3">{t('console.queues.report_text')}</dt>
              <dd className="col-sm-9 text-break">{opened.explanation || t('console.queues.none')}</dd>
            </dl>
            {confirm ? (
              <ConfirmDecision
                back={`/console/queues/notices?open=${opened.reference}`} fields={confirm}
                text={confirm.action === 'dismiss'
                  ? t('console.queues.confirm_notice_dismiss')
                  : t('console.queues.confirm_notice_restrict', { action: t(`console.queues.action_${confirm.action}`) })}
              />
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="decide" />
                <input type="hidden" name="reference" value={opened.reference} />
                <GroundField id="notice-ground" grounds={GROUND_KEYS} defaultValue="terms_general" />
                <div className="mb-2">
                  <label htmlFor="notice-decision" className="form-label">{t('console.queues.decision')}</label>
                  <textarea id="notice-decision" name="decision" className="form-control form-control-sm" rows={2} maxLength={3000} required />
                </div>
                <FactsField id="notice-facts" />
                <ActionButtons actions={actions} />
              </Form>
            )}
          </div>
        </section>
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
