import { useState } from 'react';
import { Alert, Badge, Button, Col, Row } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { data, Link, useRevalidator } from 'react-router';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/members-id';
import { requestContext } from '../context.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { countryName } from '../lib/format.ts';
import { ProfilePhoto } from '../components/ProfilePhoto.tsx';

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  const profile = await orNotFound(ctx.services.profiles.detail(ctx.userId, id));
  if (ctx.userId && profile.liked_me) await ctx.services.likes.markSeen(ctx.userId, id);
  return { profile, signedIn: Boolean(ctx.userId), own: ctx.userId === id };
}

export function meta({ data: d }: Route.MetaArgs) {
  return d ? [{ title: `${d.profile.name}, ${d.profile.age}` }] : [];
}

export default function MemberProfile({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { profile, signedIn, own } = loaderData;
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const toggleLike = async () => {
    if (!signedIn) {
      setNotice(t('profile.login_to_like'));
      return;
    }
    setBusy(true);
    try {
      await api('/api/like.php', { method: profile.liked ? 'DELETE' : 'POST', body: { profile_id: profile.id } });
      await revalidator.revalidate();
    } catch (err) {
      setNotice(err instanceof ApiError ? err.message : t('errors.server_error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container py-4">
      <Row className="g-4">
        <Col md={5} lg={4}>
          <ProfilePhoto profile={profile} size="full" className="profile-photo shadow-sm" />
        </Col>
        <Col md={7} lg={8}>
          <h1 className="h2 mb-1" data-testid="profile-name">{profile.name}, {profile.age}</h1>
          <p className="text-muted mb-2">
            {[profile.region, countryName(profile.country, i18n.language as Language)].filter(Boolean).join(', ')}
          </p>
          <div className="mb-3 d-flex gap-2">
            {profile.liked_me && <Badge bg="secondary">{t('profile.likes_you')}</Badge>}
            {profile.liked && profile.liked_me && <Badge bg="primary">{t('profile.match')}</Badge>}
            {profile.fictional && <Badge bg="warning" text="dark">{t('profile.fictional')}</Badge>}
          </div>
          {notice && (
            <Alert variant="info" dismissible onClose={() => setNotice(null)} data-testid="profile-notice">
              {notice} {!signedIn && <Link to={`/login?redirect=/members/${profile.id}`}>{t('nav.login')}</Link>}
            </Alert>
          )}
          {!own && (
            <div className="d-flex gap-2 flex-wrap mb-4">
              <Button variant={profile.liked ? 'outline-secondary' : 'secondary'} onClick={() => void toggleLike()} disabled={busy} data-testid="like-button">
                {profile.liked ? t('profile.unlike') : t('profile.like')}
              </Button>
              {signedIn ? (
                <Link to={`/members/${profile.id}/chat`} className="btn btn-primary" data-testid="message-button">{t('profile.message')}</Link>
              ) : (
                <Button variant="primary" onClick={() => setNotice(t('profile.login_to_chat'))} data-testid="message-button">{t('profile.message')}</Button>
              )}
            </div>
          )}
          <h2 className="h5">{t('profile.about_me')}</h2>
          <p style={{ whiteSpace: 'pre-wrap' }} data-testid="profile-about">{profile.about || t('profile.no_about')}</p>
        </Col>
      </Row>
    </div>
  );
}
