import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '../../lib/query.ts';
import { useLocation, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import type { LiveEvent } from '#common/live.ts';
import { api } from '../../lib/api.ts';
import { LIVE_WINDOW_EVENT } from '../../lib/live.ts';
import { reloadUser } from '../../lib/user.ts';
import type { OverlayProfile } from './LikeOverlay.tsx';

/** Likers whose overlay this browser already showed (newest last), so a like is announced once. */
const SHOWN_KEY = 'like-overlay-shown';
const SHOWN_MAX = 100;
/** Spec sections 4 and 9: likes reload 500 ms after the overlay's profile was fetched. */
const RELOAD_DELAY_MS = 500;

function shownBefore(): number[] {
  try {
    const list = JSON.parse(localStorage.getItem(SHOWN_KEY) ?? '[]') as unknown;
    return Array.isArray(list) ? list.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

export function rememberOverlay(id: number) {
  try {
    localStorage.setItem(SHOWN_KEY, JSON.stringify([...shownBefore().filter((n) => n !== id), id].slice(-SHOWN_MAX)));
  } catch {
    // Private mode without storage: the overlay may come again, nothing worse.
  }
}

/** The window event by which a page announces the match the member just made (announceMatch). */
const MATCH_WINDOW_EVENT = 'amora:match';

/**
 * The member's own like made a match (the profile page, the swipe game): they get the same full overlay as the member
 * who liked first gets from the live like (or on their next page), with its "send a message" action.
 */
export function announceMatch(profile: ProfileSummary): void {
  window.dispatchEvent(new CustomEvent<OverlayProfile>(MATCH_WINDOW_EVENT, { detail: { ...profile, match: true } }));
}

/** Where the automatic like call runs on arrival: the members area. */
const MEMBER_AREA = /^\/(members|likes|chats|premium)(\/|$)/;

/** The overlay's "report the profile id": the liker's profile, or the chat when it is a match. */
export function overlayTarget(profile: Pick<OverlayProfile, 'id' | 'match'>): string {
  return profile.match ? `/members/${profile.id}/chat` : `/members/${profile.id}`;
}

/**
 * Opens the new-like overlay: from a live like event, or from GET /api/auto-like.php when a member
 * arrives in the members area (after `?t=` seconds when given). `/likes/m/{id}` shows its own.
 */
export function useLikeOverlay(signedIn: boolean) {
  const [profile, setProfile] = useState<OverlayProfile | null>(null);
  const client = useQueryClient();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const inMemberArea = MEMBER_AREA.test(pathname) && !pathname.startsWith('/likes/m/');

  const fetchAndShow = useCallback(async (force: boolean) => {
    const res = await api<{ profile: OverlayProfile | null }>('/api/auto-like.php', { retries: 0 }).catch(() => null);
    const found = res?.profile;
    if (!found || (!force && shownBefore().includes(found.id))) return;
    rememberOverlay(found.id);
    setProfile(found);
    // The likes on screen: the likes page's lists (its loader, with the member), elsewhere the new-likes badge (the
    // member's counts), also when the overlay came in the first seconds of a page, before polling starts.
    setTimeout(() => {
      if (window.location.pathname.startsWith('/likes')) void revalidate();
      else void reloadUser(client).catch(() => undefined);
    }, RELOAD_DELAY_MS);
  }, [client, revalidate]);

  // On arrival in the members area, after the delay that ?t= asks for.
  const delaySeconds = Math.min(600, Math.max(0, Number(params.get('t')) || 0));
  useEffect(() => {
    if (!signedIn || !inMemberArea) return;
    const timer = setTimeout(() => void fetchAndShow(false), delaySeconds * 1000);
    return () => clearTimeout(timer);
  }, [signedIn, inMemberArea, delaySeconds, fetchAndShow]);

  // A like arriving live is announced at once.
  useEffect(() => {
    if (!signedIn) return;
    const onLive = (e: Event) => {
      const event = (e as CustomEvent<LiveEvent>).detail;
      if (event.type === 'like') void fetchAndShow(true);
    };
    window.addEventListener(LIVE_WINDOW_EVENT, onLive);
    return () => window.removeEventListener(LIVE_WINDOW_EVENT, onLive);
  }, [signedIn, fetchAndShow]);

  // A match made here, by this member's like.
  useEffect(() => {
    if (!signedIn) return;
    const onMatch = (e: Event) => {
      const matched = (e as CustomEvent<OverlayProfile>).detail;
      rememberOverlay(matched.id);
      setProfile(matched);
    };
    window.addEventListener(MATCH_WINDOW_EVENT, onMatch);
    return () => window.removeEventListener(MATCH_WINDOW_EVENT, onMatch);
  }, [signedIn]);

  // Spec section 4: a flag marks a conversation being started. "Send a message" keeps the overlay up, its action
  // saying so, until the conversation has opened; a second tap starts nothing more.
  const [starting, setStarting] = useState(false);
  const close = useCallback(() => {
    setProfile(null);
    setStarting(false);
  }, []);
  const select = useCallback((profileId: number) => {
    const match = Boolean(profile?.match);
    if (!match) {
      close();
      void navigate(overlayTarget({ id: profileId, match }));
      return;
    }
    if (starting) return;
    setStarting(true);
    void Promise.resolve(navigate(overlayTarget({ id: profileId, match }))).finally(close);
  }, [navigate, profile, starting, close]);
  return { profile, starting, close, select };
}
