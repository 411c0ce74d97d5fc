import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { redirect } from 'react-router';
import type { Route } from './+types/complete-signup';
import { requestContext } from '../context.ts';
import { SignupFlow } from '../features/signup/SignupFlow.tsx';
import { useUser } from '../lib/user.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (!ctx.userId) throw redirect('/signup');
  return null;
}

/** A signed-in member finishes the sign-up steps (photo, about me, push) and confirms the e-mail address. */
export default function CompleteSignup() {
  const { t } = useTranslation();
  const user = useUser();
  return (
    <div className="container py-4 py-sm-5 max-w-560">
      <Card className="shadow-sm">
        <Card.Body className="p-3 p-sm-4">
          <h1 className="h3 mb-3">{t('signup_flow.complete_page_title')}</h1>
          <SignupFlow variant="page" initialStep="photo" initialUser={user} finishUrl="/members?signup-complete=1" />
        </Card.Body>
      </Card>
    </div>
  );
}
