import { useEffect, useState } from 'react';
import { Alert } from '../../components/Alert.tsx';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { ApiUser } from '#common/api-types.ts';
import { DISMISS_KEYS } from '#common/constants.ts';
import { useDismissals } from '../../lib/dismissals.ts';
import { PushSettings } from '../push/PushSettings.tsx';
import { usePushState } from '../push/push.ts';
import { ResendActivation } from '../signup/ResendActivation.tsx';
import { isSmartphone } from '../signup/SignupModal.tsx';

/** Spec section 4: not confirmed, profile not disabled, and no disabled notifications. */
export function needsActivationReminder(user: ApiUser): boolean {
  return user.status === 'not_confirmed' && user.profile.status !== 'disabled' && user.notifications_disabled.length === 0;
}

/** Small type and padding: on a phone each alert stays under 15 % of the screen's height. */
// No right padding of its own: a dismissible alert keeps Bootstrap's room for its close button, which would otherwise
// lie over the alert's own button (the notifications prompt's "Turn on notifications").
const COMPACT = 'py-1 ps-2 mb-2 small lh-sm';

type AlertKind = 'activation' | 'disabled-notifications' | 'photo' | 'push';

/**
 * The default layout's alert area for signed-in members (spec section 2). One alert at a time, the
 * most important first, so a phone screen is not filled with them: confirming the e-mail address,
 * then disabled notifications, a missing photo, the push offer. A dismissed alert makes room for the
 * next one on a later page view, not at once.
 */
export function Alerts({ user }: { user: ApiUser | null }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const { isDismissed, dismiss: storeDismissal, loaded } = useDismissals();
  const { state: pushState } = usePushState();
  const [smartphone, setSmartphone] = useState(false);
  const [closedOnPage, setClosedOnPage] = useState<string | null>(null);
  useEffect(() => setSmartphone(isSmartphone()), []);
  if (!user) return null;
  const dismiss = (key: Parameters<typeof storeDismissal>[0]) => {
    storeDismissal(key);
    setClosedOnPage(location.key);
  };

  const activation = needsActivationReminder(user);
  const activationModal = activation && loaded && smartphone && params.has('signup-complete');
  const closeActivationModal = () => {
    const next = new URLSearchParams(params);
    next.delete('signup-complete');
    setParams(next, { replace: true });
  };

  const pending: AlertKind[] = [];
  if (activation) pending.push('activation');
  if (user.notifications_disabled.length > 0 && !isDismissed(DISMISS_KEYS.disabledNotifications)) pending.push('disabled-notifications');
  if (user.profile.main_image === null && !isDismissed(DISMISS_KEYS.enrich)) pending.push('photo');
  if (pushState === 'not_subscribed' && !isDismissed(DISMISS_KEYS.push)) pending.push('push');
  const shown = closedOnPage === location.key ? undefined : pending[0];

  return (
    <div className="container alert-area mt-3" data-testid="alert-area">
      {shown === 'activation' && !activationModal && (
        <Alert variant="warning" className={`alert-activation d-flex flex-wrap align-items-center gap-1 pe-2 ${COMPACT}`} data-testid="alert-activation">
          <span className="me-auto text-break">{t('alerts.activation', { email: user.email })}</span>
          <ResendActivation variant="warning" />
        </Alert>
      )}
      {shown === 'disabled-notifications' && (
        <Alert variant="danger" className={COMPACT} dismissible onClose={() => dismiss(DISMISS_KEYS.disabledNotifications)} data-testid="alert-disabled-notifications">
          {t('alerts.disabled_notifications')}{' '}
          {user.notifications_disabled.map((r) => t(`alerts.disabled_reason.${r}`, { defaultValue: '' })).filter(Boolean).join(', ')}{' '}
          <Link to="/notifications" className="alert-link">{t('alerts.disabled_notifications_link')}</Link>
        </Alert>
      )}
      {shown === 'photo' && (
        <Alert variant="info" className={COMPACT} dismissible onClose={() => dismiss(DISMISS_KEYS.enrich)} data-testid="alert-photo">
          {t('alerts.photo_missing')} <Link to="/profile#photos" className="alert-link" data-testid="alert-photo-link">{t('alerts.photo_missing_link')}</Link>
        </Alert>
      )}
      {shown === 'push' && (
        <Alert variant="primary" dismissible onClose={() => dismiss(DISMISS_KEYS.push)} className={`d-flex flex-wrap align-items-center gap-1 ${COMPACT}`} data-testid="alert-push">
          <span className="me-auto">{t('alerts.push')}</span>
          <PushSettings bare />
        </Alert>
      )}
      <Modal show={Boolean(activationModal)} onHide={closeActivationModal} centered aria-labelledby="activation-modal-title" data-testid="activation-modal">
        <Modal.Header closeButton closeLabel={t('signup_flow.close')}>
          <Modal.Title id="activation-modal-title" as="h2" className="h5">{t('signup_flow.complete_title')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="text-break">{t('signup_flow.complete_lead', { email: user.email })}</p>
          <ResendActivation />
        </Modal.Body>
      </Modal>
    </div>
  );
}
