import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { LanderPhoto, memberSignupHref, signupHref, usePlace } from './shared.tsx';
import { Icon } from './icons.tsx';
import { useFocusTrap } from '../../lib/focus-trap.ts';
import { addPendingLike } from './pending-likes.ts';
import { FictionalNotice } from '../../components/FictionalNotice.tsx';

/** How far (px) a card must be dragged to count as a decision. */
const DECIDE_AT = 90;

/**
 * A stack of member cards to swipe: right (or the heart) likes, left (or the cross) passes. A visitor has no account,
 * so a like is no match: it is kept in this browser (pending-likes.ts) and becomes a real like at sign-up, which the
 * dialog after it says ("Sign up so that Anna sees your like"); after the last card, sign-up is the way on.
 * Before the page's code runs, the held-page loader moves the top card (data-held-swipe) and turns a swipe
 * into a click on the button of its side (data-swipe), see app/lib/hydrate-on-interaction.ts.
 */
export function SwipeDeck({ profiles, search }: { profiles: ProfileSummary[]; search: string }) {
  const { t } = useTranslation();
  const place = usePlace();
  const [top, setTop] = useState(0);
  const [drag, setDrag] = useState(0);
  const [leaving, setLeaving] = useState<1 | -1 | null>(null);
  const [liked, setLiked] = useState<ProfileSummary | null>(null);
  const start = useRef<number | null>(null);
  // The like dialog takes the focus and keeps it (Tab cycles inside) until the visitor goes on swiping.
  const likedDialog = useRef<HTMLDivElement>(null);
  useFocusTrap(likedDialog, Boolean(liked));
  useEffect(() => {
    if (liked) likedDialog.current?.querySelector<HTMLElement>('a, button')?.focus();
  }, [liked]);
  const [dragging, setDragging] = useState(false);
  // Likes given here: each one remounts the heart, whose beat (.like-pop) plays again.
  const [likes, setLikes] = useState(0);

  const decide = (direction: 1 | -1) => {
    if (leaving || top >= profiles.length) return;
    setLeaving(direction);
    if (direction === 1) setLikes((n) => n + 1);
    setTimeout(() => {
      if (direction === 1) {
        addPendingLike(profiles[top].id);
        setLiked(profiles[top]);
      }
      setLeaving(null);
      setDrag(0);
      setTop((i) => i + 1);
    }, 260);
  };

  const onPointerDown = (e: React.PointerEvent) => {
    start.current = e.clientX;
    setDragging(true);
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: React.PointerEvent) => {
    if (start.current !== null) setDrag(e.clientX - start.current);
  };
  const onPointerUp = () => {
    start.current = null;
    setDragging(false);
    if (Math.abs(drag) >= DECIDE_AT) decide(drag > 0 ? 1 : -1);
    else setDrag(0);
  };

  const visible = profiles.slice(top, top + 3);
  return (
    <div className="swipe-deck-wrap">
      <div className="swipe-deck" data-testid="lander-profiles">
        {visible.length === 0 && (
          <div className="swipe-empty" data-testid="swipe-empty">
            <p>{t('landers.tinderswipe.empty')}</p>
            <Link to={signupHref(search)} className="btn swipe-cta">{t('index.cta_signup')}</Link>
          </div>
        )}
        {[...visible].reverse().map((p) => {
          const isTop = p.id === visible[0].id;
          const offset = leaving && isTop ? leaving * 600 : isTop ? drag : 0;
          const depth = visible.indexOf(p);
          // The cards below the top one lie a step lower each (classes); the top one follows the pointer. The server
          // renders the deck at rest, without a style attribute, which the page's policy would refuse; a card moved
          // in the browser gets its place through React, which sets it through the CSSOM (docs/decisions/052).
          const moved = isTop && (offset !== 0 || dragging);
          const style = moved ? { transform: `translateX(${offset}px) rotate(${offset / 18}deg)`, transition: dragging ? 'none' : undefined } : undefined;
          return (
            <article
              // eslint-disable-next-line no-restricted-syntax -- at rest (as the server renders it) without a style: see above
              key={p.id} className={`swipe-card swipe-depth-${depth}`} style={style} data-testid="swipe-card" aria-hidden={!isTop} data-held-swipe={isTop ? DECIDE_AT : undefined}
              onPointerDown={isTop ? onPointerDown : undefined} onPointerMove={isTop ? onPointerMove : undefined}
              onPointerUp={isTop ? onPointerUp : undefined} onPointerCancel={isTop ? onPointerUp : undefined}
            >
              <LanderPhoto profile={p} eager={depth < 2} alt={p.name} />
              {/* A stamp shows while the card is dragged to its side: a style set in the browser only, as above. */}
              {/* eslint-disable-next-line no-restricted-syntax */}
              {isTop && <span className="swipe-stamp swipe-like" style={offset > 0 ? { opacity: offset / DECIDE_AT } : undefined}>{t('landers.tinderswipe.like')}</span>}
              {/* eslint-disable-next-line no-restricted-syntax */}
              {isTop && <span className="swipe-stamp swipe-nope" style={offset < 0 ? { opacity: -offset / DECIDE_AT } : undefined}>{t('landers.tinderswipe.nope')}</span>}
              <div className="swipe-info">
                <strong>{p.name}, {p.age}</strong>
                <span><Icon name="pin" size={14} /> {place(p)}</span>
                {p.fictional && <FictionalNotice compact onDark />}
              </div>
            </article>
          );
        })}
      </div>
      <div className="swipe-buttons">
        <button type="button" className="swipe-btn swipe-btn-nope" onClick={() => decide(-1)} disabled={top >= profiles.length} aria-label={t('landers.tinderswipe.nope')} data-testid="swipe-nope" data-swipe="-1">
          <Icon name="x" size={30} />
        </button>
        <button type="button" className="swipe-btn swipe-btn-like" onClick={() => decide(1)} disabled={top >= profiles.length} aria-label={t('landers.tinderswipe.like')} data-testid="swipe-like" data-swipe="1">
          <Icon key={likes} name="heart" size={30} filled className={likes ? 'like-pop' : undefined} />
        </button>
      </div>
      {liked && (
        <div ref={likedDialog} className="swipe-match" role="dialog" aria-modal="true" aria-labelledby="swipe-liked-title" data-testid="swipe-liked">
          <div className="swipe-match-faces">
            <LanderPhoto profile={liked} size="thumb" eager alt={liked.name} />
          </div>
          <h2 id="swipe-liked-title">{t('landers.tinderswipe.liked_title', { name: liked.name })}</h2>
          <p>{t('landers.tinderswipe.liked_text', { name: liked.name })}</p>
          <Link to={memberSignupHref(liked.id, search)} className="btn btn-lg swipe-cta" data-testid="lander-signup">{t('landers.tinderswipe.liked_cta')}</Link>
          <button type="button" className="swipe-keep" onClick={() => setLiked(null)}>{t('landers.tinderswipe.keep_swiping')}</button>
        </div>
      )}
    </div>
  );
}
