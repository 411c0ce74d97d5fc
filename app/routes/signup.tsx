import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { Link, redirect } from 'react-router';
import type { Route } from './+types/signup';
import { requestContext } from '../context.ts';
import { signupAction } from '#server/accounts/signup-form.server.ts';
import { SignupFlow } from '../features/signup/SignupFlow.tsx';

export function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (ctx.userId) throw redirect('/members');
  return null;
}

/** The sign-up form posts here (the modal too, from any page): the same use case as POST /api/signup.php. */
export async function action({ context, request }: Route.ActionArgs) {
  return signupAction(context.get(requestContext), request);
}

/** The sign-up page (smartphones, and anyone who opens /signup directly). */
export default function Signup() {
  const { t } = useTranslation();
  // Once the account exists, the log-in hint no longer applies.
  const [accountStep, setAccountStep] = useState(true);
  return (
    <div className="container py-4 py-sm-5 max-w-560">
      <Card className="shadow-sm">
        <Card.Body className="p-3 p-sm-4">
          <h1 className="h3 mb-1">{t('signup.title')}</h1>
          <p className="text-muted">{t('signup.lead')}</p>
          <SignupFlow variant="page" finishUrl="/members?signup-complete=1" onStepChange={(s) => setAccountStep(s === 'account')} />
          {accountStep && <p className="mt-3 mb-0 text-center">{t('signup.have_account')} <Link to="/login">{t('nav.login')}</Link></p>}
        </Card.Body>
      </Card>
    </div>
  );
}
