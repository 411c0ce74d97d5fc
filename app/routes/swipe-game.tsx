import { useCallback, useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import type { Route } from './+types/swipe-game';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { ProfilePhoto } from '../components/ProfilePhoto.tsx';
import { ProfileCaption } from '../components/ProfileCard.tsx';
import { pageMeta } from '../lib/seo.ts';
import { announceMatch } from '../features/likes/use-like-overlay.ts';

interface Deck { profiles: ProfileSummary[]; likes_left: number; likes_per_day: number; resets_at: string }

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  return ctx.services.games.swipeDeck(requireMemberActor(ctx, url.pathname));
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches, { titleKey: 'nav.swipe' });
}

/** How far a card must be dragged to count as a like (right) or a pass (left). */
const SWIPE_THRESHOLD_PX = 90;
/** When this few cards are left, the next ones are fetched. */
const REFILL_AT = 3;

/** "3 h 12 min" until an instant, in the member's language. */
function timeUntil(iso: string, lang: string, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(iso) - now) / 60_000));
  const format = (value: number, unit: 'hour' | 'minute') => new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
  return minutes >= 60 ? `${format(Math.floor(minutes / 60), 'hour')} ${format(minutes % 60, 'minute')}` : format(minutes, 'minute');
}

/** Spec /swipe-game: one card at a time; like or pass by button, swipe or arrow keys; 4 likes a day; undo of the last pass. */
export default function SwipeGame({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const [cards, setCards] = useState<ProfileSummary[]>(loaderData.profiles);
  const [state, setState] = useState({ likes_left: loaderData.likes_left, resets_at: loaderData.resets_at });
  const [notice, setNotice] = useState<{ variant: 'warning' | 'danger'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [canUndo, setCanUndo] = useState(false);
  /** Likes given: each one remounts the button's heart, which then beats once (like-pop, decision 086). */
  const [likes, setLikes] = useState(0);
  const [drag, setDrag] = useState<{ startX: number; dx: number } | null>(null);
  const seen = useRef(new Set(loaderData.profiles.map((p) => p.id)));
  const card = cards[0];

  const refill = useCallback(async () => {
    const deck = await api<Deck>('/api/swipe-game.php').catch(() => null);
    if (!deck) return;
    setState({ likes_left: deck.likes_left, resets_at: deck.resets_at });
    const fresh = deck.profiles.filter((p) => !seen.current.has(p.id));
    for (const p of fresh) seen.current.add(p.id);
    setCards((list) => [...list, ...fresh]);
  }, []);

  const act = useCallback(async (action: 'like' | 'pass') => {
    if (!card || busy) return;
    if (action === 'like' && state.likes_left === 0) {
      setNotice({ variant: 'warning', text: t('swipe.limit_reached', { count: loaderData.likes_per_day, time: timeUntil(state.resets_at, i18n.language) }) });
      return;
    }
    setBusy(true);
    try {
      const res = await api<{ match?: boolean; likes_left?: number; resets_at?: string }>('/api/swipe-game.php', { method: 'POST', body: { profile_id: card.id, action } });
      if (res.likes_left !== undefined && res.resets_at) setState({ likes_left: res.likes_left, resets_at: res.resets_at });
      setNotice(null);
      if (action === 'like') setLikes((n) => n + 1);
      if (res.match) announceMatch(card);
      setCanUndo(action === 'pass');
      setCards((list) => list.slice(1));
      if (cards.length - 1 <= REFILL_AT) void refill();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'like_limit_reached') {
        const resetsAt = error.retryAfter !== null ? new Date(Date.now() + error.retryAfter * 1000).toISOString() : state.resets_at;
        setState({ likes_left: 0, resets_at: resetsAt });
        setNotice({ variant: 'warning', text: t('swipe.limit_reached', { count: loaderData.likes_per_day, time: timeUntil(resetsAt, i18n.language) }) });
      } else if (error instanceof ApiError && error.status === 404) {
        // Gone meanwhile (deleted, hidden): on to the next card.
        setCards((list) => list.slice(1));
      } else {
        setNotice({ variant: 'danger', text: error instanceof Error ? error.message : t('errors.server_error') });
      }
    } finally {
      setBusy(false);
      setDrag(null);
    }
  }, [busy, card, cards.length, i18n.language, loaderData.likes_per_day, refill, state, t]);

  const undo = useCallback(async () => {
    if (busy) return;
    setBusy(true);
    try {
      const { profile } = await api<{ profile: ProfileSummary }>('/api/swipe-game.php', { method: 'DELETE' });
      setCards((list) => [profile, ...list.filter((p) => p.id !== profile.id)]);
      setCanUndo(false);
      setNotice(null);
    } catch (error) {
      setCanUndo(false);
      setNotice({ variant: 'warning', text: error instanceof Error ? error.message : t('errors.server_error') });
    } finally {
      setBusy(false);
    }
  }, [busy, t]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && /^(INPUT|TEXTAREA|SELECT)$/.test(e.target.tagName)) return;
      if (e.key === 'ArrowRight') void act('like');
      else if (e.key === 'ArrowLeft') void act('pass');
      else if (e.key === 'ArrowDown' && canUndo) void undo();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [act, canUndo, undo]);

  const onPointerDown = (e: React.PointerEvent) => {
    if (busy) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    setDrag({ startX: e.clientX, dx: 0 });
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (drag) setDrag({ ...drag, dx: e.clientX - drag.startX });
  };
  const onPointerUp = () => {
    if (!drag) return;
    if (drag.dx > SWIPE_THRESHOLD_PX) void act('like');
    else if (drag.dx < -SWIPE_THRESHOLD_PX) void act('pass');
    else setDrag(null);
  };

  const dx = drag?.dx ?? 0;
  return (
    <div className="container py-4 swipe-game">
      <div className="d-flex justify-content-between align-items-baseline mb-3">
        <h1 className="h3 mb-0">{t('swipe.title')}</h1>
        <span className="text-muted small" data-testid="swipe-likes-left">{t('swipe.likes_left', { count: state.likes_left })}</span>
      </div>
      {/* Over a card the notice lies on top of it, so that it never pushes the buttons down (under a phone's tab bar). */}
      {notice && (
        <Alert variant={notice.variant} className={card ? 'swipe-notice-over' : undefined} data-testid="swipe-notice" onClose={() => setNotice(null)} dismissible>
          {notice.text}
        </Alert>
      )}
      {card ? (
        <>
          <div
            className="swipe-card shadow"
            data-testid="swipe-card"
            data-profile-id={card.id}
            // Only while dragged, in the browser (React sets it through the CSSOM): the server renders the card at rest,
            // without a style attribute, which the page's policy would refuse (docs/decisions/052).
            // eslint-disable-next-line no-restricted-syntax
            style={dx ? { transform: `translateX(${dx}px) rotate(${dx / 20}deg)` } : undefined}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => setDrag(null)}
          >
            {dx > 30 && <span className="swipe-stamp swipe-stamp-like">{t('swipe.like')}</span>}
            {dx < -30 && <span className="swipe-stamp swipe-stamp-pass">{t('swipe.pass')}</span>}
            <ProfilePhoto profile={card} size="full" className="swipe-photo" />
            <ProfileCaption
              profile={card} showRegion
              name={<Link to={`/members/${card.id}`} className="text-reset text-truncate" draggable={false}>{card.name}, {card.age}</Link>}
            />
          </div>
          <div className="swipe-actions" role="group" aria-label={t('swipe.actions')}>
            <Button variant="outline-secondary" className="swipe-btn" onClick={() => void act('pass')} disabled={busy} data-testid="swipe-pass" aria-label={t('swipe.pass')}>✕</Button>
            <Button variant="outline-dark" className="swipe-btn swipe-btn-small" onClick={() => void undo()} disabled={busy || !canUndo} data-testid="swipe-undo" aria-label={t('swipe.undo')}>↺</Button>
            <Button variant="primary" className="swipe-btn" onClick={() => void act('like')} disabled={busy} data-testid="swipe-like" aria-label={t('swipe.like')}><span key={likes} className={likes ? 'like-pop d-inline-block' : undefined} aria-hidden="true">♥</span></Button>
          </div>
          <p className="text-center text-muted small mt-2">{t('swipe.keys_hint')}</p>
        </>
      ) : (
        <div className="text-center py-5" data-testid="swipe-empty">
          <p className="lead">{t('swipe.empty')}</p>
          <Link to="/members" className="btn btn-primary">{t('swipe.to_search')}</Link>
          {canUndo && <Button variant="link" onClick={() => void undo()} data-testid="swipe-undo-empty">{t('swipe.undo')}</Button>}
        </div>
      )}
    </div>
  );
}
