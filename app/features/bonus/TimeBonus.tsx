import { useEffect, useState } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { useQuery, useQueryClient } from '../../lib/query.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useMatches, useRouteLoaderData } from 'react-router';
import { Star } from 'lucide-react';
import type { ApiUser, WelcomeBonusRecord } from '#common/api-types.ts';
import { DISMISS_KEYS } from '#common/constants.ts';
import {
  countdownParts, TIME_BONUS_MODAL_DELAY_MS, TIME_BONUS_ROUTES, TIME_BONUS_TICK_MS, timeBonusSecondsLeft,
} from '#common/time-bonus.ts';
import { api } from '../../lib/api.ts';
import { useDismissals, type LayoutData } from '../../lib/dismissals.ts';

const AREA = new Set<string>(TIME_BONUS_ROUTES);

/**
 * Spec section 4, time bonus state: loaded for a signed-in member who never paid (GET
 * /api/discountcode.php?welcome=true, errors ignored), counting down every second from 14,400 minus the
 * seconds since sign-up, cleared at 0, when paid or logged out. One interval per page: starting it again
 * while it runs does nothing. In the default layout the server already loaded the bonus and rendered the
 * countdown at its own time, so the banner is there from the first paint (it pushed the page down when it came
 * after hydration); the browser's clock takes over right after.
 */
export function useTimeBonus(user: ApiUser | null) {
  const client = useQueryClient();
  const layout = useRouteLoaderData('layouts/default') as LayoutData | undefined;
  const [now, setNow] = useState<number | null>(() => (layout?.welcomeBonus ? layout.renderedAt : null));
  useEffect(() => setNow(Date.now()), []);
  const left = user && now !== null ? timeBonusSecondsLeft(user.signup_date, now) : 0;
  const eligible = Boolean(user && !user.paid_user) && left > 0;
  const { data: bonus } = useQuery({
    queryKey: ['time-bonus', user?.id ?? null],
    queryFn: () => api<WelcomeBonusRecord>('/api/discountcode.php?welcome=true', { retries: 0 }).catch(() => null),
    initialData: layout?.welcomeBonus && layout.welcomeBonus.user_id === user?.id ? layout.welcomeBonus : undefined,
    enabled: eligible,
    staleTime: Infinity,
    gcTime: Infinity,
  });
  const running = eligible && Boolean(bonus);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setNow(Date.now()), TIME_BONUS_TICK_MS);
    return () => window.clearInterval(timer);
  }, [running]);
  // At 0 the bonus is cleared; a new log-in asks again.
  useEffect(() => {
    if (bonus && !eligible && now !== null) client.setQueryData(['time-bonus', user?.id ?? null], null);
  }, [bonus, eligible, now, client, user?.id]);
  return { isVisible: running, bonus: running ? bonus! : null, secondsLeft: left, countdown: countdownParts(left) };
}

function Countdown({ parts, className }: { parts: ReturnType<typeof countdownParts>; className?: string }) {
  return (
    <span className={`time-bonus-countdown ${className ?? ''}`} data-testid="time-bonus-countdown" role="timer">
      {parts.hours}:{parts.minutes}:{parts.seconds}
    </span>
  );
}

/** Routes that show a conversation: the modal would cover the composer and its Send button. */
const CONVERSATION_ROUTES = new Set(['chats-id', 'members-id-chat']);
/** How long a due modal waits before it looks again whether the member is still typing. */
const MODAL_RETRY_MS = 5_000;

/** Whether the member is filling something in: the focus in a field, or text typed into one on the page. */
function busyWithForm(): boolean {
  const focused = document.activeElement;
  if (focused instanceof HTMLElement && (focused.isContentEditable || focused.matches('textarea, select, input:not([type="button"], [type="submit"], [type="reset"], [type="checkbox"], [type="radio"])'))) {
    return true;
  }
  return [...document.querySelectorAll('textarea')].some((field) => field.value.trim() !== '');
}

/**
 * The welcome bonus banner on top of the members area's pages and the time-bonus modal, 40 s after
 * entering the members area, for a member with 0 credits who has not closed it before; never over a conversation
 * or while the member is filling in a field (then it waits until they are done).
 */
export function TimeBonus({ user, banner = true }: { user: ApiUser | null; banner?: boolean }) {
  const { t } = useTranslation();
  const routeId = useMatches().at(-1)?.id;
  const inArea = Boolean(routeId && AREA.has(routeId));
  const { isVisible, bonus, countdown } = useTimeBonus(user);
  const { isDismissed, dismiss } = useDismissals();
  const [due, setDue] = useState(false);
  const active = inArea && isVisible;
  // The modal never covers a conversation, nor a form the member is filling in: when it is due then, it waits.
  const inConversation = Boolean(routeId && CONVERSATION_ROUTES.has(routeId));
  useEffect(() => {
    if (!active || inConversation) return;
    let timer = 0;
    const when = (ms: number) => {
      timer = window.setTimeout(() => (busyWithForm() ? when(MODAL_RETRY_MS) : setDue(true)), ms);
    };
    when(TIME_BONUS_MODAL_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      setDue(false);
    };
  }, [active, inConversation]);
  if (!active || !bonus || !user) return null;
  const percent = Number(bonus.value_percentage);
  const showModal = due && user.credits === 0 && !isDismissed(DISMISS_KEYS.timeBonusModal);
  const close = () => dismiss(DISMISS_KEYS.timeBonusModal);

  return (
    <>
      {banner && (
        <div className="time-bonus-banner" data-testid="time-bonus-banner">
          <div className="container d-flex flex-wrap align-items-center justify-content-center gap-2 py-2">
            <span className="d-inline-flex align-items-center gap-2">
              <Star className="time-bonus-star flex-shrink-0" size={20} fill="currentColor" aria-hidden="true" />
              <strong>{t('time_bonus.banner_title', { percent })}</strong>
            </span>
            <span className="d-inline-flex align-items-center gap-2">
              <span className="small opacity-75">{t('time_bonus.ends_in')}</span>
              <Countdown parts={countdown} />
            </span>
            <Link to="/credits" className="btn btn-light btn-sm fw-semibold" data-testid="time-bonus-banner-link">{t('time_bonus.claim')}</Link>
          </div>
        </div>
      )}
      <Modal show={showModal} onHide={close} centered contentClassName="time-bonus-modal text-center" aria-labelledby="time-bonus-modal-title" data-testid="time-bonus-modal">
        <Modal.Header closeButton closeLabel={t('time_bonus.close')} className="border-0 pb-0" />
        <Modal.Body className="pt-0 px-4 pb-4">
          <p id="time-bonus-modal-title" className="text-uppercase fw-semibold small text-secondary mb-1">{t('time_bonus.special_offer')}</p>
          <div className="time-bonus-percent" data-testid="time-bonus-percent">{percent}%</div>
          <p className="h5 mb-3">{t('time_bonus.welcome_bonus')}</p>
          <p>{t('time_bonus.unlock', { percent })}</p>
          <p className="fw-semibold text-danger small">{t('time_bonus.act_fast')}</p>
          <Link to="/credits" className="btn btn-secondary btn-lg w-100 mb-2" onClick={close} data-testid="time-bonus-modal-link">
            {t('time_bonus.cta', { time: `${countdown.hours}:${countdown.minutes}:${countdown.seconds}` })}
          </Link>
          <p className="small text-muted mb-0">{t('time_bonus.instant')}</p>
        </Modal.Body>
      </Modal>
    </>
  );
}
