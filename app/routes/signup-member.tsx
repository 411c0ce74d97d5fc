import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import { useTranslation } from '../lib/i18n.ts';
import { data, Link, redirect } from 'react-router';
import { orNotFound } from '#server/http/page-guards.server.ts';
import type { Route } from './+types/signup-member';
import { requestContext } from '../context.ts';
import { signupAction } from '#server/accounts/signup-form.server.ts';
import { SignupFlow } from '../features/signup/SignupFlow.tsx';
import { toId } from '#common/ids.ts';
import { pageMeta } from '../lib/seo.ts';

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const id = toId(params.id);
  if (id === null) throw data(null, { status: 404 });
  if (ctx.userId) throw redirect(`/members/${id}`);
  return { profile: await orNotFound(ctx.services.profiles.detail(ctx.actor, id)) };
}

/** The sign-up form on this page posts here: the same use case as POST /api/signup.php. */
export async function action({ context, request }: Route.ActionArgs) {
  return signupAction(context.get(requestContext), request);
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d && `${d.profile.name}, ${d.profile.age}` });
}

/** Sign-up in the context of a member: step 0 is a first message to them. */
export default function SignupMember({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Once the account exists, the log-in hint no longer applies.
  const [accountStep, setAccountStep] = useState(true);
  const { profile } = loaderData;
  return (
    <div className="container py-4 py-sm-5 max-w-560">
      <Card className="shadow-sm">
        <Card.Body className="p-3 p-sm-4">
          <h1 className="h3 mb-3">{t('signup_flow.title_member', { name: profile.name })}</h1>
          <SignupFlow variant="page" profile={profile} finishUrl="/members?signup-complete=1" onStepChange={(s) => setAccountStep(s === 'account')} />
          {accountStep && <p className="mt-3 mb-0 text-center">{t('signup.have_account')} <Link to={`/login?redirect=/members/${profile.id}`}>{t('nav.login')}</Link></p>}
        </Card.Body>
      </Card>
    </div>
  );
}
