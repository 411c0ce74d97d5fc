import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import Spinner from 'react-bootstrap/Spinner';
import type { ProfileSummary } from '#common/api-types.ts';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';

const SignupFlow = lazy(() => import('./SignupFlow.tsx').then((m) => ({ default: m.SignupFlow })));

/** The sign-up modal: the flow in a dialog that Escape and the backdrop close only while nothing is in progress. */
export function SignupDialog({ profile, onClose }: { profile: ProfileSummary | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [inProgress, setInProgress] = useState(false);
  const [created, setCreated] = useState(false);
  const [show, setShow] = useState(true);
  const onProgress = useCallback((v: boolean) => setInProgress(v), []);
  const onStepChange = useCallback((step: string) => { if (step !== 'account') setCreated(true); }, []);
  const finishUrl = useMemo(() => '/members', []);
  const exited = () => {
    // Closed after the account exists: the member is signed in now, the page must know it.
    if (created) window.location.assign('/members');
    else onClose();
  };
  return (
    <Modal
      show={show} onHide={() => setShow(false)} onExited={exited} centered scrollable size="lg"
      // Spec section 2: while sign-up is in progress, neither the backdrop nor Escape closes it.
      backdrop={inProgress ? 'static' : true} keyboard={!inProgress}
      data-testid="signup-modal" data-in-progress={inProgress ? 'true' : 'false'} aria-labelledby="signup-modal-title"
    >
      <Modal.Header closeButton closeLabel={t('signup_flow.close')}>
        <Modal.Title id="signup-modal-title" as="h2" className="h5">{profile ? t('signup_flow.title_member', { name: profile.name }) : t('signup.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <Suspense fallback={<div className="text-center py-5"><Spinner animation="border" role="status" /></div>}>
          <SignupFlow variant="modal" profile={profile} onProgress={onProgress} onStepChange={onStepChange} finishUrl={finishUrl} />
        </Suspense>
      </Modal.Body>
    </Modal>
  );
}
