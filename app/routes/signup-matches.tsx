import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { useTranslation } from '../lib/i18n.ts';
import { redirect } from 'react-router';
import type { Route } from './+types/signup-matches';
import { requestContext } from '../context.ts';
import { signupAction } from '#server/accounts/signup-form.server.ts';
import { ProfilePhoto } from '../components/ProfilePhoto.tsx';
import { SignupFlow } from '../features/signup/SignupFlow.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  if (ctx.userId) throw redirect('/members');
  // The site's niche: a gay site shows men, a MILF site women of 35 to 55 (docs/decisions/038).
  const page = await ctx.services.search.showcase(ctx.actor);
  // Members with a photo first: they are what makes a visitor want to sign up.
  const withPhoto = page.profiles.filter((p) => p.main_image?.status === 'active');
  return { matches: [...withPhoto, ...page.profiles.filter((p) => !withPhoto.includes(p))].slice(0, 6) };
}

/** The sign-up form on this page posts here: the same use case as POST /api/signup.php. */
export async function action({ context, request }: Route.ActionArgs) {
  return signupAction(context.get(requestContext), request);
}

/** Sign-up with a few matching members shown above the form. */
export default function SignupMatches({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="container py-4 max-w-720">
      <h1 className="h3 text-center">{t('signup_flow.matches_title')}</h1>
      <p className="text-center text-muted">{t('signup_flow.matches_lead')}</p>
      <Row xs={3} md={6} className="g-2 mb-4 signup-matches" data-testid="signup-matches">
        {loaderData.matches.map((p) => (
          <Col key={p.id}>
            <div className="text-center small">
              <ProfilePhoto profile={p} className="rounded w-100" />
              <div className="text-truncate mt-1">{p.name}, {p.age}</div>
              {p.fictional && <FictionalNotice compact />}
            </div>
          </Col>
        ))}
      </Row>
      <Card className="shadow-sm mx-auto max-w-560">
        <Card.Body className="p-3 p-sm-4">
          <SignupFlow variant="page" finishUrl="/members?signup-complete=1" />
        </Card.Body>
      </Card>
    </div>
  );
}
