import { useEffect, useState } from 'react';
import Nav from 'react-bootstrap/Nav';
import { useTranslation } from '../lib/i18n.ts';
import { data, NavLink, useNavigate } from 'react-router';
import { toId } from '#common/ids.ts';
import type { Route } from './+types/likes';
import { requestContext } from '../context.ts';
import { orNotFound, requireMemberActor } from '#server/http/page-guards.server.ts';
import { ProfileCard } from '../components/ProfileCard.tsx';
import { LikeOverlay, type OverlayProfile } from '../features/likes/LikeOverlay.tsx';
import { overlayTarget, rememberOverlay } from '../features/likes/use-like-overlay.ts';
import { Heart, Search } from 'lucide-react';
import { EmptyState } from '../components/EmptyState.tsx';

const TABS = ['received', 'given', 'matches'] as const;

export async function loader({ context, params, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const actor = requireMemberActor(ctx, url.pathname);
  const tab = (params.type ?? 'received') as (typeof TABS)[number];
  if (!TABS.includes(tab)) throw data(null, { status: 404 });
  // /likes/m/{id}: the received likes, with the like overlay of that member (e.g. from a notification).
  let overlay: OverlayProfile | null = null;
  if (params.id !== undefined) {
    const id = toId(params.id);
    if (id === null) throw data(null, { status: 404 });
    const p = await orNotFound(ctx.services.profiles.detail(actor, id));
    overlay = { id: p.id, name: p.name, age: p.age, gender: p.gender, country: p.country, region: p.region, status: p.status, fictional: p.fictional, online: p.online, main_image: p.main_image, match: p.liked && p.liked_me };
  }
  const { profiles, liked_by } = await ctx.services.likes.overview(actor);
  const given = new Set(profiles.map((p) => p.id));
  const list = tab === 'given' ? profiles : tab === 'matches' ? liked_by.filter((p) => given.has(p.id)) : liked_by;
  return { tab, overlay, list: list.map((p) => ({ ...p, like_new: 'like_new' in p ? p.like_new : false })) };
}

/** Likes received (new first), given, and matches. */
export default function Likes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [overlay, setOverlay] = useState(loaderData.overlay);
  useEffect(() => {
    setOverlay(loaderData.overlay);
    if (loaderData.overlay) rememberOverlay(loaderData.overlay.id);
  }, [loaderData.overlay]);
  return (
    <div className="container py-4">
      {overlay && <LikeOverlay profile={overlay} onClose={() => setOverlay(null)} onSelect={() => void navigate(overlayTarget(overlay))} />}
      <h1 className="h3">{t('likes.title')}</h1>
      <Nav variant="tabs" className="mb-3">
        {TABS.map((tab) => (
          <Nav.Item key={tab}>
            <Nav.Link as={NavLink} to={tab === 'received' ? '/likes' : `/likes/${tab}`} end active={loaderData.tab === tab}>{t(`likes.${tab}`)}</Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      {loaderData.list.length === 0 ? (
        <EmptyState
          icon={loaderData.tab === 'given' ? Search : Heart} text={t(`likes.empty_${loaderData.tab}`)} testId="likes-empty"
          action={loaderData.tab === 'received' ? { to: '/profile', label: t('empty.add_photo') }
            : loaderData.tab === 'given' ? { to: '/members', label: t('nav.search') } : { to: '/swipe-game', label: t('empty.play_swipe') }}
        />
      ) : (
        <div className="row g-3" data-testid="likes-list">
          {loaderData.list.map((p) => (
            <div key={p.id} className="col-6 col-sm-4 col-lg-3 col-xl-2 position-relative">
              {p.like_new && <span className="badge bg-secondary position-absolute top-0 start-0 m-2 z-1">{t('likes.new')}</span>}
              <ProfileCard profile={p} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
