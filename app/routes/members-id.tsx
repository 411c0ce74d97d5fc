import { useEffect, useRef, useState } from 'react';
import { Flag, Gift, Heart, Lock, MessageCircle } from 'lucide-react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Alert } from '../components/Alert.tsx';
import { Modal } from '../components/Modal.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { data, Link, useRevalidator } from 'react-router';
import type { GalleryPhoto } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import type { Route } from './+types/members-id';
import { requestContext } from '../context.ts';
import { orNotFound } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { countryName } from '../lib/format.ts';
import { ProfilePhoto } from '../components/ProfilePhoto.tsx';
import { ProfileGallery } from '../features/profile/ProfileGallery.tsx';
import { FictionalNotice } from '../components/FictionalNotice.tsx';
import { attributeValueLabel } from '../features/profile/labels.ts';
import { toId } from '#common/ids.ts';
import { pageMeta } from '../lib/seo.ts';
import { OnlineDot } from '../components/OnlineDot.tsx';
import { announceMatch } from '../features/likes/use-like-overlay.ts';
import { ReportSheet } from '../features/reports/ReportSheet.tsx';
import { reportHref, type ReportTarget } from '../features/reports/report-target.ts';

export async function loader({ context, params }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const id = toId(params.id);
  if (id === null) throw data(null, { status: 404 });
  const profile = await orNotFound(ctx.services.viewProfile(ctx.actor, id, { attributes: true }));
  return { profile, signedIn: Boolean(ctx.userId), own: ctx.userId === id };
}

export function meta({ data: d, matches }: Route.MetaArgs) {
  return pageMeta(matches, { title: d && `${d.profile.name}, ${d.profile.age}` });
}

type Notice = 'login_like' | 'login_chat' | 'login_gift' | 'login_photos' | 'premium_photos' | { text: string; variant?: 'info' | 'success' | 'danger' };

export default function MemberProfile({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { profile, signedIn, own } = loaderData;
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirmBlock, setConfirmBlock] = useState(false);
  /** Likes given on this page: each one remounts the heart, which then beats once (like-pop, decision 086). */
  const [likes, setLikes] = useState(0);
  const [shown, setShown] = useState<GalleryPhoto | null>(null);
  const [reporting, setReporting] = useState<ReportTarget | null>(null);
  const profileTarget: ReportTarget = { profileId: profile.id, name: profile.name, kind: 'profile' };
  const photoTarget = (photoId: number): ReportTarget => ({ profileId: profile.id, name: profile.name, kind: 'photo', contentId: photoId });
  const visible = profile.photos.filter((p) => !p.locked);
  const locked = profile.photos.filter((p) => p.locked);
  const main = shown ?? visible[0] ?? null;
  // A notice answers a tap on the action bar, which on a phone lies at the bottom of the screen: it is brought into view.
  const noticeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice) noticeRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [notice]);

  const call = async (work: () => Promise<unknown>, done?: string) => {
    setBusy(true);
    try {
      await work();
      await revalidator.revalidate();
      setNotice(done ? { text: done, variant: 'success' } : null);
    } catch (err) {
      setNotice({ text: err instanceof ApiError ? err.message : t('errors.server_error'), variant: 'danger' });
    } finally {
      setBusy(false);
    }
  };

  const toggleLike = () => {
    if (!signedIn) return setNotice('login_like');
    void call(async () => {
      if (profile.liked) return api('/api/like.php', { method: 'DELETE', body: { profile_id: profile.id } });
      const { match } = await api<{ match: boolean }>('/api/like.php', { method: 'POST', body: { profile_id: profile.id } });
      setLikes((n) => n + 1);
      if (match) announceMatch(profile);
    });
  };
  const block = () => {
    setConfirmBlock(false);
    void call(() => api('/api/block.php', { method: 'POST', body: { profile_id: profile.id } }), t('blocks.blocked_done', { name: profile.name }));
  };
  const unblock = () => void call(
    () => api('/api/block.php', { method: 'DELETE', body: { profile_id: profile.id } }), t('blocks.unblocked_done', { name: profile.name }),
  );
  const openLocked = () => setNotice(signedIn ? 'premium_photos' : 'login_photos');

  const back = `/members/${profile.id}`;
  const loginLinks = (
    <span className="d-inline-flex gap-3 ms-1">
      <Link to={`/login?redirect=${encodeURIComponent(back)}`} className="alert-link" data-testid="notice-login">{t('member_profile.login')}</Link>
      <Link to="/signup" className="alert-link" data-testid="notice-signup">{t('member_profile.signup')}</Link>
    </span>
  );
  const noticeBody = () => {
    if (!notice) return null;
    if (typeof notice === 'object') return { variant: notice.variant ?? 'info', body: notice.text };
    if (notice === 'premium_photos') {
      return { variant: 'info', body: <>{t('member_profile.premium_photos')} <Link to="/premium" className="alert-link">{t('member_profile.get_premium')}</Link></> };
    }
    const text = { login_like: t('profile.login_to_like'), login_chat: t('profile.login_to_chat'), login_gift: t('member_profile.login_to_gift'), login_photos: t('member_profile.login_to_see_photos') }[notice];
    return { variant: 'info', body: <>{text}{loginLinks}</> };
  };
  const shownNotice = noticeBody();

  return (
    <div className="container pt-0 pt-md-4 pb-4">
      <Row className="g-4">
        <Col md={6} lg={5}>
          {visible.length > 0 ? (
            <ProfileGallery
              photos={visible} name={profile.name} onShow={setShown}
              badge={(p) => own && p.status !== 'active' && <span className="gallery-badge">{t('member_profile.pending_photo')}</span>}
            />
          ) : (
            <ProfilePhoto profile={profile} size="full" className="profile-gallery-empty" priority />
          )}
          {main && !own && (
            <p className="small mt-1 mb-0 text-end">
              <Link
                to={signedIn ? reportHref(photoTarget(main.id)) : `/complaints?kind=photo&id=${main.id}`} className="text-muted" data-testid="report-photo"
                onClick={signedIn ? (e) => { e.preventDefault(); setReporting(photoTarget(main.id)); } : undefined}
              >
                <Flag size={12} aria-hidden="true" className="me-1" />{t('complaints.report_photo')}
              </Link>
            </p>
          )}
          {locked.length > 0 && (
            <button type="button" className="profile-locked" onClick={openLocked} data-testid="gallery-locked" data-locked={locked[0].locked ?? ''}>
              <Lock size={16} aria-hidden="true" />{t('member_profile.more_photos', { count: locked.length })}
            </button>
          )}
        </Col>
        <Col md={6} lg={7}>
          <h1 className="h2 mb-1" data-testid="profile-name">{profile.name}, {profile.age}</h1>
          {profile.online && <p className="small mb-1"><OnlineDot online label /></p>}
          <p className="text-muted mb-2">
            {[profile.region, countryName(profile.country, i18n.language as Language)].filter(Boolean).join(', ')}
          </p>
          <div className="mb-3 d-flex gap-2">
            {profile.liked_me && <Badge bg="secondary">{t('profile.likes_you')}</Badge>}
            {profile.liked && profile.liked_me && <Badge bg="primary">{t('profile.match')}</Badge>}
          </div>
          {profile.fictional && <FictionalNotice />}
          {profile.blocked && (
            <Alert variant="secondary" className="d-flex flex-wrap align-items-center gap-2" data-testid="blocked-notice">
              <span className="flex-grow-1">{t('blocks.blocked_notice', { name: profile.name })}</span>
              <Button variant="secondary" size="sm" onClick={unblock} disabled={busy} data-testid="unblock-button">{t('blocks.unblock')}</Button>
            </Alert>
          )}
          <div ref={noticeRef} className="scroll-below-nav">
            {shownNotice && (
              <Alert variant={shownNotice.variant} dismissible onClose={() => setNotice(null)} data-testid="profile-notice">
                {shownNotice.body}
              </Alert>
            )}
          </div>
          {/* On a phone a bar fixed above the tab bar, so that like, message and gift are always at hand. */}
          {!own && !profile.blocked && (
            <div className="profile-action-bar" role="group" aria-label={t('member_profile.actions')} data-testid="profile-actions">
              <Button variant={profile.liked ? 'outline-secondary' : 'secondary'} onClick={toggleLike} disabled={busy} data-testid="like-button">
                <Heart key={likes} className={likes ? 'like-pop' : undefined} size={18} aria-hidden="true" fill={profile.liked ? 'none' : 'currentColor'} />{profile.liked ? t('profile.unlike') : t('profile.like')}
              </Button>
              {signedIn ? (
                <Link to={`/members/${profile.id}/chat`} className="btn btn-primary" data-testid="message-button">
                  <MessageCircle size={18} aria-hidden="true" />{t('profile.message')}
                </Link>
              ) : (
                <Button variant="primary" onClick={() => setNotice('login_chat')} data-testid="message-button">
                  <MessageCircle size={18} aria-hidden="true" />{t('profile.message')}
                </Button>
              )}
              {/* Spec section 2: gift beside like and message. A member picks one in the conversation's gift picker (its price
                  shown there), which starts the conversation or adds to it; visitors learn that gifts need an account. */}
              {signedIn ? (
                <Link to={`/members/${profile.id}/chat?gift=1`} className="btn btn-outline-primary" data-testid="gift-button">
                  <Gift size={18} aria-hidden="true" />{t('member_profile.gift')}
                </Link>
              ) : (
                <Button variant="outline-primary" onClick={() => setNotice('login_gift')} data-testid="gift-button">
                  <Gift size={18} aria-hidden="true" />{t('member_profile.gift')}
                </Button>
              )}
            </div>
          )}
          <h2 className="h5">{t('profile.about_me')}</h2>
          <p className="text-pre-wrap" data-testid="profile-about">{profile.about || t('profile.no_about')}</p>
          {Object.keys(profile.attributes).length > 0 && (
            <>
              <h2 className="h5 mt-4">{t('member_profile.details')}</h2>
              <dl className="row profile-attributes" data-testid="profile-attributes">
                {Object.entries(profile.attributes).map(([key, value]) => (
                  <div key={key} className="col-sm-6 d-flex gap-2 mb-1">
                    <dt className="fw-normal text-muted">{t(`profile_fields.${key}`)}</dt>
                    <dd className="mb-0 fw-semibold">{attributeValueLabel(t, key, value)}</dd>
                  </div>
                ))}
              </dl>
            </>
          )}
          {profile.interests.length > 0 && (
            <>
              <h2 className="h5 mt-3">{t('member_profile.interests')}</h2>
              <div className="d-flex flex-wrap gap-2" data-testid="profile-interests">
                {profile.interests.map((k) => <Badge key={k} bg="light" text="dark" className="border">{t(`interests.${k}`)}</Badge>)}
              </div>
            </>
          )}
          {!own && (
            <div className="mt-4 d-flex flex-wrap align-items-center gap-3 small">
              <Link
                to={signedIn ? reportHref(profileTarget) : `/complaints?kind=profile&id=${profile.id}`} className="text-muted" data-testid="report-profile"
                onClick={signedIn ? (e) => { e.preventDefault(); setReporting(profileTarget); } : undefined}
              >
                <Flag size={14} aria-hidden="true" className="me-1" />{t('complaints.report_profile')}
              </Link>
              {signedIn && !profile.blocked && (
                <Button variant="outline-danger" size="sm" onClick={() => setConfirmBlock(true)} disabled={busy} data-testid="block-button">{t('blocks.block')}</Button>
              )}
            </div>
          )}
        </Col>
      </Row>
      <ReportSheet target={reporting} onHide={() => { setReporting(null); void revalidator.revalidate(); }} />
      <Modal show={confirmBlock} onHide={() => setConfirmBlock(false)} centered aria-labelledby="block-modal-title" data-testid="block-modal">
        <Modal.Header closeButton closeLabel={t('chat.close')}><Modal.Title id="block-modal-title" as="h2" className="h5">{t('blocks.confirm_title', { name: profile.name })}</Modal.Title></Modal.Header>
        <Modal.Body>{t('blocks.confirm_text', { name: profile.name })}</Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={() => setConfirmBlock(false)}>{t('blocks.cancel')}</Button>
          <Button variant="danger" onClick={block} data-testid="block-confirm">{t('blocks.confirm')}</Button>
        </Modal.Footer>
      </Modal>
    </div>
  );
}
