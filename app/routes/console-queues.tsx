import { NavLink, Outlet, redirect, useLoaderData } from 'react-router';
import { orForbidden, requireConsoleStaff } from '#server/http/console-pages.server.ts';
import type { Route } from './+types/console-queues';
import { requestContext } from '../context.ts';
import { useTranslation } from '../lib/i18n.ts';

const QUEUES = ['reports', 'notices', 'appeals', 'photos', 'texts'] as const;

/** The moderation queues' frame: a tab per queue with how many items wait in it; /console/queues opens the reports. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const staff = await requireConsoleStaff(ctx);
  // The page's own address, or its data request's (`/console/queues.data` on a navigation in the browser).
  if (/^\/console\/queues(\/|\.data)?$/.test(new URL(request.url).pathname)) throw redirect('/console/queues/reports');
  return { counts: await orForbidden(ctx.services.console.queueCounts(staff)) };
}

export default function ConsoleQueues() {
  const { t } = useTranslation();
  const { counts } = useLoaderData<typeof loader>();
  return (
    <>
      <h1 className="h3">{t('console.queues.title')}</h1>
      <nav aria-label={t('console.queues.tabs')}>
        <ul className="nav nav-pills gap-1 mb-3" data-testid="queue-tabs">
          {QUEUES.map((q) => (
            <li key={q} className="nav-item">
              <NavLink to={`/console/queues/${q}`} className={({ isActive }) => `nav-link text-nowrap${isActive ? ' active' : ''}`} data-testid={`queue-tab-${q}`}>
                {t(`console.queues.${q}`)} <span className="badge text-bg-secondary">{counts[q]}<span className="visually-hidden"> {t('console.nav.open_items')}</span></span>
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </>
  );
}
