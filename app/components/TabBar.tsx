import { CircleUser, Coins, Flame, Heart, MessageCircle, Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n.ts';
import { NavLink } from 'react-router';
import type { ApiUser } from '#common/api-types.ts';
import { capBadge, creditsBadgeVariant, creditsPath } from '../lib/badges.ts';

function Tab({ to, end, icon, label, badge, testId }: { to: string; end?: boolean; icon: ReactNode; label: string; badge?: ReactNode; testId: string }) {
  return (
    <NavLink to={to} end={end} className="tab-bar-item" data-testid={testId}>
      <span className="tab-bar-icon">{icon}{badge}</span>
      <span className="tab-bar-label">{label}</span>
    </NavLink>
  );
}

/**
 * Phones (below md): the member's main places and their badges stay in sight at the bottom of the
 * screen instead of inside the collapsed menu. The active tab carries aria-current="page" (NavLink).
 */
export function TabBar({ user, repeatOrder = false }: { user: ApiUser; repeatOrder?: boolean }) {
  const { t } = useTranslation();
  const creditsBadge = creditsBadgeVariant(user.credits);
  const size = 22;
  return (
    <nav className="tab-bar d-md-none" aria-label={t('tab_bar.label')} data-testid="tab-bar">
      <Tab to="/members" end icon={<Search size={size} aria-hidden="true" />} label={t('tab_bar.search')} testId="tab-search" />
      <Tab
        to="/chats" icon={<MessageCircle size={size} aria-hidden="true" />} label={t('nav.chats')} testId="tab-chats"
        badge={user.num_unread_messages > 0 && <span className="badge rounded-pill tab-bar-badge badge-unread" data-testid="tab-unread-badge">{capBadge(user.num_unread_messages)}</span>}
      />
      <Tab
        to="/likes" icon={<Heart size={size} aria-hidden="true" />} label={t('nav.likes')} testId="tab-likes"
        badge={user.num_new_likes > 0 && <span className="badge rounded-pill tab-bar-badge text-bg-secondary" data-testid="tab-likes-badge">{capBadge(user.num_new_likes)}</span>}
      />
      <Tab to="/swipe-game" icon={<Flame size={size} aria-hidden="true" />} label={t('nav.swipe')} testId="tab-swipe" />
      {user.paid_user ? (
        <Tab
          to={creditsPath(repeatOrder)} end icon={<Coins size={size} aria-hidden="true" />} label={t('nav.credits')} testId="tab-credits"
          badge={creditsBadge && <span className={`badge rounded-pill tab-bar-badge text-bg-${creditsBadge}`} data-testid="tab-credits-badge">{user.credits}</span>}
        />
      ) : (
        <Tab to="/profile" icon={<CircleUser size={size} aria-hidden="true" />} label={t('tab_bar.profile')} testId="tab-profile" />
      )}
    </nav>
  );
}
