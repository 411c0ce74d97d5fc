import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../lib/i18n.ts';
import { useHydrated } from '../../lib/hydrated.ts';
import { PushSettings } from '../push/PushSettings.tsx';
import { pushCapable } from '../push/push.ts';
import { StepHeading } from './StepHeading.tsx';

/** Step 5: push notifications, offered where the browser can take them; an answer either way moves on. */
export function PushStep({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const capable = useHydrated() && pushCapable();
  return (
    <div data-testid="signup-step-push">
      <StepHeading title={t('signup_flow.push_title')} lead={t('signup_flow.push_lead')} />
      {capable ? <PushSettings compact onChange={(s) => { if (s === 'subscribed' || s === 'denied') onDone(); }} /> : <p>{t('push_settings.state_not_capable')}</p>}
      <div className="d-flex justify-content-end mt-3">
        <Button variant="link" className="text-muted" onClick={onDone} data-testid="signup-skip">{t('signup_flow.not_now')}</Button>
      </div>
    </div>
  );
}
