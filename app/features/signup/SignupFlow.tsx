import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../lib/i18n.ts';
import type { ApiUser, ProfileSummary } from '#common/api-types.ts';
import { Progress } from '../../components/Progress.tsx';
import { AccountStep, type FirstMessage } from './AccountStep.tsx';
import { CompleteStep } from './CompleteStep.tsx';
import { PhotoStep } from './PhotoStep.tsx';
import { AboutStep, LocationStep, LookingStep } from './ProfileSteps.tsx';
import { PushStep } from './PushStep.tsx';

export const SIGNUP_STEPS = ['account', 'photo', 'looking', 'location', 'about', 'push', 'complete'] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

interface Props {
  /** Sign-up in the context of this member: step 0 carries a first message to them. */
  profile?: ProfileSummary | null;
  variant: 'modal' | 'page';
  /** True from the first input until the flow is complete. */
  onProgress?: (inProgress: boolean) => void;
  onStepChange?: (step: SignupStep) => void;
  /** Where the finished flow goes. */
  finishUrl: string;
  /** A signed-in member finishing an earlier sign-up starts after the account step. */
  initialStep?: SignupStep;
  initialUser?: ApiUser | null;
}

/**
 * The sign-up steps: 0 account (and message), 1 photo, 2–4 about me, push opt-in, complete. This is the step
 * machine: which step shows, the progress bar, and what the account step hands on to the later ones.
 */
export function SignupFlow({ profile, variant, onProgress, onStepChange, finishUrl, initialStep = 'account', initialUser = null }: Props) {
  const { t } = useTranslation();
  const [step, setStep] = useState<SignupStep>(initialStep);
  const [user, setUser] = useState<ApiUser | null>(initialUser);
  const [message, setMessage] = useState<FirstMessage | null>(null);
  const index = SIGNUP_STEPS.indexOf(step);

  const root = useRef<HTMLDivElement>(null);
  const first = useRef(true);
  useEffect(() => {
    // A new step starts at its top, also on a long page on a small screen.
    if (!first.current && variant === 'page') root.current?.closest('.card')?.scrollIntoView({ block: 'start' });
    first.current = false;
  }, [step, variant]);
  useEffect(() => {
    onStepChange?.(step);
    if (step === 'complete') onProgress?.(false);
    else if (step !== 'account') onProgress?.(true);
  }, [step, onProgress, onStepChange]);

  const next = () => setStep(SIGNUP_STEPS[Math.min(index + 1, SIGNUP_STEPS.length - 1)]);
  const skip = (
    <Button variant="link" className="text-muted" onClick={next} data-testid="signup-skip">{t('signup_flow.skip')}</Button>
  );

  return (
    <div ref={root} data-testid="signup-flow" data-step={step} className={variant === 'page' ? 'signup-flow-page' : undefined}>
      {step !== 'account' && step !== 'complete' && (
        <div className="mb-3">
          <div id="signup-step-label" className="small text-muted mb-1" data-testid="signup-step-label">{t('signup_flow.step_of', { step: index, total: SIGNUP_STEPS.length - 2 })}</div>
          <Progress value={index} max={SIGNUP_STEPS.length - 1} thin aria-labelledby="signup-step-label" />
        </div>
      )}
      {step === 'account' && (
        <AccountStep
          profile={profile ?? null}
          variant={variant}
          onStarted={() => onProgress?.(true)}
          onDone={(u, m) => {
            setUser(u);
            setMessage(m);
            next();
          }}
        />
      )}
      {step === 'photo' && <PhotoStep onDone={next} skip={skip} />}
      {step === 'looking' && <LookingStep user={user} onDone={next} skip={skip} />}
      {step === 'location' && <LocationStep user={user} onDone={next} skip={skip} />}
      {step === 'about' && <AboutStep onDone={next} skip={skip} />}
      {step === 'push' && <PushStep onDone={next} />}
      {step === 'complete' && <CompleteStep user={user} message={message} profile={profile ?? null} finishUrl={finishUrl} />}
    </div>
  );
}
