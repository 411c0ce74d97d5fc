import { MailCheck } from 'lucide-react';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { ApiUser, ProfileSummary } from '#common/api-types.ts';
import type { FirstMessage } from './AccountStep.tsx';
import { ResendActivation } from './ResendActivation.tsx';

/** The end: the activation mail to confirm, what became of a first message, and the way into the site. */
export function CompleteStep({ user, message, profile, finishUrl }: { user: ApiUser | null; message: FirstMessage | null; profile: ProfileSummary | null; finishUrl: string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="signup-step-complete" className="text-center">
      <MailCheck size={48} strokeWidth={1.5} className="text-primary mb-2" aria-hidden="true" />
      <h2 className="h4">{t('signup_flow.complete_title')}</h2>
      <p className="text-break">{t('signup_flow.complete_lead', { email: user?.email ?? '' })}</p>
      <ResendActivation />
      {message && profile && message.result.status === 'sent' && (
        <Alert variant="success" className="text-start mt-3" data-testid="signup-message-sent">{t('signup_flow.message_sent', { name: profile.name })}</Alert>
      )}
      {message && profile && message.result.status !== 'sent' && (
        <Alert variant="warning" className="text-start mt-3" data-testid="signup-message-draft">
          <p className="mb-1">{message.result.code === 'insufficient_credits' ? t('signup_flow.message_draft', { name: profile.name }) : t('signup_flow.message_failed', { name: profile.name })}</p>
          <blockquote className="small fst-italic mb-2">“{message.text}”</blockquote>
          {message.result.code === 'insufficient_credits' && <a href="/credits" className="btn btn-secondary btn-sm" data-testid="signup-buy-credits">{t('signup_flow.buy_credits')}</a>}
        </Alert>
      )}
      <a href={finishUrl} className="btn btn-primary btn-lg w-100 mt-3" data-testid="signup-finish">{t('signup_flow.finish')}</a>
    </div>
  );
}
