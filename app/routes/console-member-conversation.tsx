import { data, Link, useLoaderData } from 'react-router';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-member-conversation';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';
import { formatDateTime } from '../lib/format.ts';
import type { Language } from '#common/languages.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.conversation.title', noindex: true });
}

const idOf = (value: string | undefined) => {
  const id = Number(value);
  if (!/^\d{1,10}$/.test(value ?? '') || id < 1 || id > 2_147_483_647) throw data(null, { status: 404 });
  return id;
};

/**
 * A member's conversation that a report concerns, for support. The use case refuses any other (403) and writes the
 * reading to the audit log; the member's page links here only where a report names a message of it.
 */
export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const memberId = idOf(params.id);
  const conversation = await orForbidden(ctx.services.console.readConversation(staff, memberId, idOf(params.conversation), { ip: ctx.clientAddress })
    .catch((e: { status?: number }) => {
      if (e.status === 404) throw data(null, { status: 404 });
      throw e;
    }));
  return { memberId, conversation };
}

export default function ConsoleMemberConversation() {
  const { t, i18n: { language } } = useTranslation();
  const lang = language as Language;
  const { memberId, conversation: c } = useLoaderData<typeof loader>();
  return (
    <>
      <p className="mb-1"><Link to={`/console/members/${memberId}`}>{t('console.conversation.back', { id: memberId })}</Link></p>
      <h1 className="h3">{t('console.conversation.title')}</h1>
      <p className="text-body-secondary">{t('console.conversation.intro')}</p>
      <h2 className="h5">{t('console.conversation.reports')}</h2>
      <ul className="list-unstyled small" data-testid="conversation-reports">
        {c.reports.map((r) => (
          <li key={r.id}>
            <Link to={`/console/members/${r.reporterId}`}>#{r.reporterId}</Link> · {t(`reports.reasons.${r.reason}`)} · {t(`reports.statuses.${r.status}`)} · {formatDateTime(r.createdAt, lang)}
          </li>
        ))}
      </ul>
      <ol className="list-unstyled" aria-label={t('console.conversation.messages')} data-testid="conversation-messages">
        {c.messages.map((m) => (
          <li key={m.id} className={`card mb-2${m.reported ? ' border-danger' : ''}`} data-testid={m.reported ? 'conversation-reported-message' : undefined}>
            <div className="card-body py-2">
              <div className="small text-body-secondary">
                <Link to={`/console/members/${m.senderId}`}>#{m.senderId}</Link> · {formatDateTime(m.createdAt, lang)}
                {m.reported && <span className="badge text-bg-danger ms-2">{t('console.conversation.reported')}</span>}
                {m.removedAt && <span className="badge text-bg-secondary ms-2">{t('console.conversation.removed')}</span>}
              </div>
              <p className="mb-0 text-break">{m.kind === 'text' ? m.body : t(`console.conversation.kind_${m.kind}`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </>
  );
}
