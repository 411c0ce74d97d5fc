import { Link, useLoaderData } from 'react-router';
import { requireConsoleStaff } from '#server/http/console-pages.server.ts';
import { consoleSiteId, orPageError } from '#server/http/console-content.server.ts';
import type { Route } from './+types/console-content-pages';
import { requestContext } from '../context.ts';
import { ContentNav } from '../features/console/ContentNav.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { pageMeta } from '../lib/seo.ts';

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'console.content.pages.title', noindex: true });
}

/** Which static pages have the site's own text in which language, or a mail its own wording (`kind` says which list). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  const siteId = consoleSiteId(ctx, request);
  // (A client navigation asks for /console/content/mails.data.)
  const mails = new URL(request.url).pathname.includes('/content/mails');
  if (mails) {
    const list = await orPageError(ctx.services.console.mailTextList(staff, siteId));
    return { mails, site: list.site, rows: list.kinds as string[], languages: list.languages, own: list.own.map((o) => `${o.language}/${o.kind}`) };
  }
  const list = await orPageError(ctx.services.console.pageTextList(staff, siteId));
  return { mails, site: list.site, rows: list.pages as string[], languages: list.languages, own: list.own.map((o) => `${o.language}/${o.page}`) };
}

/** A table of pages (or mails) by language: each cell opens that text's editor; the site's own texts are marked. */
export default function ConsoleContentPages() {
  const { t } = useTranslation();
  const { mails, site, rows, languages, own } = useLoaderData<typeof loader>();
  const search = `?site=${site.id}`;
  const area = mails ? 'mails' : 'pages';
  return (
    <>
      <h1 className="h3 mb-3">{t('console.content.title_site', { site: site.name })}</h1>
      <ContentNav search={search} />
      <p>{t(`console.content.${area}.intro`)}</p>
      <div className="table-responsive">
        <table className="table table-sm align-middle" data-testid={`console-${area}`}>
          <thead>
            <tr>
              <th scope="col">{t(`console.content.${area}.name`)}</th>
              {languages.map((lang) => <th key={lang} scope="col" className="text-center">{lang}</th>)}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row}>
                <th scope="row" className="fw-normal">{t(`console.content.${area}.names.${row}`)}</th>
                {languages.map((lang) => {
                  const mine = own.includes(`${lang}/${row}`);
                  return (
                    <td key={lang} className="text-center">
                      <Link
                        to={`/console/content/${area}/${lang}/${row}${search}`} className={mine ? 'fw-bold' : undefined} data-testid={`edit-${lang}-${row}`}
                        aria-label={`${t(`console.content.${area}.names.${row}`)} (${lang})${mine ? `, ${t('console.content.own')}` : ''}`}
                      >
                        {mine ? t('console.content.own_short') : t('console.content.default_short')}
                      </Link>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
