import Badge from 'react-bootstrap/Badge';
import { useTranslation } from '../lib/i18n.ts';
import { Link, Outlet, useLocation } from 'react-router';
import type { ApiUser } from '#common/api-types.ts';
import { EntryWarning } from '../components/EntryWarning.tsx';
import { SkipLink } from '../components/SkipLink.tsx';
import { countryWarns } from '../lib/entry-warning.ts';
import { capBadge, creditsPath } from '../lib/badges.ts';
import { withReturn } from '../lib/return-path.ts';
import { useUser } from '../lib/user.ts';
import { useRootData } from '../lib/root-data.ts';
import { usePageTitlePrefix } from '../lib/title.ts';
import { useLoggedOutRedirect } from '../lib/logged-out.ts';
import { useMemberActivity } from '../lib/member-activity.ts';
import { TimeBonus } from '../features/bonus/TimeBonus.tsx';
import '../features/chat/chat.scss';
import '../features/bonus/time-bonus.scss';

/**
 * The chat's only bar: the way back to the site, the unread total and the credit balance. Credits bought from
 * here lead back to the conversation after paying, as its "buy credits" button does.
 */
function ChatBar({ user, siteName, repeatOrder }: { user: ApiUser | null; siteName: string; repeatOrder: boolean }) {
  const { t } = useTranslation();
  const here = useLocation().pathname;
  return (
    <nav className="chat-bar d-flex align-items-center gap-3 px-3" aria-label={t('chat.bar')} data-testid="chat-bar">
      <Link to="/members" className="chat-bar-home text-reset text-decoration-none fw-semibold" data-testid="logo">‹ {siteName}</Link>
      {user && user.num_unread_messages > 0 && (
        <Badge pill className="badge-unread" data-testid="unread-badge" title={t('chat.unread_total', { count: user.num_unread_messages })}>
          {capBadge(user.num_unread_messages)}
        </Badge>
      )}
      {user && (
        <Link to={withReturn(user.paid_user ? creditsPath(repeatOrder) : '/credits', here)} className="ms-auto btn btn-sm btn-outline-light" data-testid="nav-credits">
          {t('chat.balance', { count: user.credits })}
        </Link>
      )}
    </nav>
  );
}

/** Bare: no top navigation, only the chat bar and the conversation; the entry warning only for NL and DE. */
export default function ChatLayout() {
  const { settings, repeatOrder } = useRootData();
  const user = useUser();
  useLoggedOutRedirect();
  usePageTitlePrefix(user);
  useMemberActivity(user);
  return (
    <>
      <SkipLink />
      <ChatBar user={user} siteName={settings.name} repeatOrder={repeatOrder} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      {/* The chat fills the screen below its bar: the time bonus comes as the modal only, no banner. */}
      <TimeBonus user={user} banner={false} />
      <EntryWarning enabled={countryWarns(settings)} signedIn={Boolean(user)} country={settings.geoip_country} countries={settings.countries} />
    </>
  );
}
