import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Alert } from '../components/Alert.tsx';
import { FormField } from '../components/FormField.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { useNavigate } from 'react-router';
import type { DiscountCodeRecord } from '#common/api-types.ts';
import { DELETE_REASONS } from '#common/notifications.ts';
import type { Route } from './+types/delete-account';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  requireMemberActor(ctx, url.pathname);
  // The offer the member can still claim: none once theirs is used or expired (it is made once per member).
  return { offer: await ctx.services.discounts.retentionOfferShown(ctx.actor) };
}

/** Leaving: a reason, two alternatives (a discount, a pause), then the password. */
export default function DeleteAccount({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [reason, setReason] = useState<string>('');
  const [paused, setPaused] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [claiming, setClaiming] = useState(false);
  const navigate = useNavigate();
  const { offer } = loaderData;

  // The offer is real: a personal code for this member, applied on the credits page and charged as shown. It is
  // part of leaving, so it goes with the reason the member chose.
  const claimDiscount = async () => {
    setClaiming(true);
    setError(null);
    try {
      const { discount } = await api<{ discount: DiscountCodeRecord }>('/api/delete-offer.php', { method: 'POST', body: { reason } });
      await navigate(`/credits?discount=${encodeURIComponent(discount.code)}`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setClaiming(false);
    }
  };

  const pause = async () => {
    await api('/api/account-pause.php', { method: 'POST', body: {} });
    setPaused(true);
  };
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/api/user.php', { method: 'DELETE', body: { password: new FormData(e.currentTarget).get('password'), reason }, retries: 0 });
      window.location.assign('/account-deleted');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
      setBusy(false);
    }
  };

  return (
    <div className="container py-4 max-w-640">
      <h1 className="h3">{t('delete_account.title')}</h1>
      {/* The question that opens the page is the reasons' legend. */}
      <FormField id="delete-reason" as="group" className="mb-4" label={t('delete_account.intro')} labelClassName="mb-3">
        {DELETE_REASONS.map((r) => (
          <Form.Check key={r} type="radio" name="reason" id={`reason-${r}`} label={t(`delete_account.reasons.${r}`)} checked={reason === r} onChange={() => setReason(r)} data-testid={`reason-${r}`} />
        ))}
      </FormField>

      <h2 className="h5">{t('delete_account.offers_heading')}</h2>
      <div className="row g-3 mb-4">
        {offer && (
          <div className="col-md-6">
            <Card className="h-100 border-primary" data-testid="offer-discount"><Card.Body>
              <p className="fs-4 fw-bold text-primary mb-1">{offer.percentage}%</p>
              <p>{t('delete_account.discount_offer', { percent: offer.percentage })}</p>
              <Button size="sm" onClick={() => void claimDiscount()} disabled={!hydrated || claiming || !reason} data-testid="claim-discount"
                aria-describedby={reason ? undefined : 'claim-discount-hint'}>{t('delete_account.discount_button')}</Button>
              {!reason && <p className="form-text mb-0 mt-2" id="claim-discount-hint" data-testid="claim-discount-hint">{t('errors.delete_reason_required')}</p>}
            </Card.Body></Card>
          </div>
        )}
        <div className="col-md-6">
          <Card className="h-100" data-testid="offer-pause"><Card.Body>
            <p>{t('delete_account.pause_offer')}</p>
            {paused ? <Alert variant="success" className="mb-0" data-testid="paused">{t('delete_account.paused')}</Alert>
              : <Button variant="outline-primary" size="sm" onClick={() => void pause()} disabled={!hydrated} data-testid="pause-account">{t('delete_account.pause_button')}</Button>}
          </Card.Body></Card>
        </div>
      </div>

      <Card className="border-danger"><Card.Body>
        <p className="small">{t('delete_account.warning')}</p>
        {error && <Alert variant="danger" data-testid="delete-error">{error}</Alert>}
        <Form onSubmit={submit} noValidate>
          <FormField id="delete-password" className="mb-3" label={t('delete_account.password_label')} name="password" type="password" autoComplete="current-password" required />
          <Button type="submit" variant="danger" disabled={busy || !hydrated} data-testid="delete-submit">{t('delete_account.submit')}</Button>
        </Form>
      </Card.Body></Card>
    </div>
  );
}
