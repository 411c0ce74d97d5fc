import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import type { Language } from '#common/languages.ts';
import { answeringAction, answeringPage } from '#server/http/console-answering.server.ts';
import type { Route } from './+types/console-fictional';
import { requestContext } from '../context.ts';
import { ClaimButton, HeldBy, QueuePager, QueueTable } from '../components/ConsoleQueue.tsx';
import { FormField } from '../components/FormField.tsx';
import { AnsweringConversation } from '../features/console/AnsweringConversation.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.fictional.title', noindex: true });
}

/** The answering workspace: response times per site, the conversations waiting oldest first, the one held open. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return answeringPage(context.get(requestContext), request);
}

/** `claim` holds a conversation and opens it; `answer` sends the answer as the fictional profile. */
export async function action({ context, request }: Route.ActionArgs) {
  return answeringAction(context.get(requestContext), request);
}

/** The figures' columns after the site's name. */
const FIGURE_COLUMNS = ['answered', 'median', 'p90', 'waiting'] as const;

export default function ConsoleFictional() {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const { figures, queue, opened, sent, error, me, key } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const number = new Intl.NumberFormat(lang);
  const minutes = (seconds: number | null) => (seconds === null ? '–' : new Intl.NumberFormat(lang, { style: 'unit', unit: 'minute', maximumFractionDigits: 1 }).format(seconds / 60));
  return (
    <>
      <h1 className="h3">{t('console.fictional.title')}</h1>
      <p className="text-body-secondary">{t('console.fictional.intro')} <Link to="/console/fictional/profiles">{t('console.fictional.profiles')}</Link></p>
      {error && <div className="alert alert-warning" role="alert">{error}</div>}
      {reply?.error && !opened && <div className="alert alert-danger" role="alert" data-testid="answering-error">{reply.error}</div>}
      {opened && <AnsweringConversation opened={opened} answerKey={key} sent={sent && !reply} error={reply?.error} />}

      <section aria-labelledby="answering-figures" className="mb-4">
        <h2 className="h5" id="answering-figures">{t('console.fictional.figures')}</h2>
        <Form method="get" className="row g-2 align-items-end mb-2" aria-label={t('console.transparency.period')}>
          <FormField id="answering-from" name="from" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.transparency.from')} defaultValue={figures.from} required />
          <FormField id="answering-to" name="to" type="date" className="col-6 col-md-2" controlClassName="form-control-sm" label={t('console.transparency.to')} defaultValue={figures.to} required />
          <div className="col-auto"><button type="submit" className="btn btn-primary btn-sm" disabled={busy}>{t('console.transparency.apply')}</button></div>
        </Form>
        <div className="table-responsive"><table className="table table-sm align-middle" data-testid="answering-figures">
          <caption className="visually-hidden">{t('console.fictional.figures')}</caption>
          <thead>
            <tr>{['console.transparency.site', ...FIGURE_COLUMNS.map((c) => `console.fictional.${c}`)].map((key, i) => <th key={key} scope="col" className={i ? 'text-end' : undefined}>{t(key)}</th>)}</tr>
          </thead>
          <tbody>
            {figures.sites.map((s) => (
              <tr key={s.site_id} data-site={s.site_id}>
                <th scope="row" className="fw-normal">{s.site_name}</th>
                {[number.format(s.answered), minutes(s.median_seconds), minutes(s.p90_seconds), number.format(s.waiting)].map((v, i) => <td key={FIGURE_COLUMNS[i]} className="text-end">{v}</td>)}
              </tr>
            ))}
          </tbody>
        </table></div>
      </section>

      <h2 className="h5">{t('console.fictional.waiting_conversations')}</h2>
      <QueueTable testid="answering-table" columns={[t('console.fictional.fictional_profile'), t('console.fictional.member')]} empty={!queue.items.length}>
        {queue.items.map((i) => (
          <tr key={i.conversation_id} data-testid="answering-row">
            <td className="text-nowrap">{formatDateTime(i.waiting_since, lang)}</td>
            <td>{i.fictional_name} <span className="text-body-secondary small">({t('console.members.site')} {i.site_id})</span></td>
            <td><Link to={`/console/members/${i.member_id}`}>{i.member_name}</Link></td>
            <td><HeldBy by={i.claimed_by} until={i.claimed_until} me={me} /></td>
            <td><ClaimButton id={i.conversation_id} label={t('console.queues.open')} /></td>
          </tr>
        ))}
      </QueueTable>
      <QueuePager page={queue.page} hasMore={queue.has_more} />
    </>
  );
}
