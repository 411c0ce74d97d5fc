import { useState } from 'react';
import { Alert, Button, Card, Form } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EMAIL_CATEGORIES, type EmailCategory, type NotificationSettings } from '#common/notifications.ts';
import type { Route } from './+types/notifications';
import { requestContext } from '../context.ts';
import { requireMemberId } from '#server/http/page-guards.server.ts';
import { api, ApiError } from '../lib/api.ts';
import { AccountSettings } from '../features/settings/AccountSettings.tsx';
import { PushSettings } from '../features/push/PushSettings.tsx';
import { WordFilter } from '../features/settings/WordFilter.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const userId = requireMemberId(ctx, url.pathname);
  const user = await ctx.user();
  return { settings: await ctx.services.notifications.settings(userId), email: user?.email ?? '' };
}

/** Why mail stopped, with what the member can do about it, and a way to turn it back on. */
function DisabledReasons({ reasons, email, onChange }: { reasons: string[]; email: string; onChange: (s: NotificationSettings) => void }) {
  const { t } = useTranslation();
  if (!reasons.length) return null;
  const reenable = async (reason: string) => onChange(await api<NotificationSettings>('/api/notifications-disabled.php', { method: 'DELETE', body: { reason } }));
  return (
    <Alert variant="warning" data-testid="notifications-disabled">
      <Alert.Heading as="h2" className="h5">{t('notifications.disabled.heading')}</Alert.Heading>
      {reasons.map((reason) => (
        <div key={reason} className="mb-2" data-testid={`disabled-${reason}`}>
          <p className="mb-1">{t(`notifications.disabled.${reason}`, { email })}</p>
          {reason === 'bounce' && <p className="mb-1 small">{t('notifications.disabled.bounce_fix')}</p>}
          <Button size="sm" variant="outline-dark" onClick={() => void reenable(reason)} data-testid={`reenable-${reason}`}>{t('notifications.disabled.reenable')}</Button>
        </div>
      ))}
    </Alert>
  );
}

/** Settings (spec route "notifications"): e-mail categories, privacy and the account. */
export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState(loaderData.settings);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (body: { email?: Partial<Record<EmailCategory, boolean>>; invisible?: boolean; read_receipts?: boolean }) => {
    setError(null);
    setSaved(false);
    // The switch moves at once; the server's answer (or the old state on failure) follows.
    const before = settings;
    setSettings({ ...settings, email: { ...settings.email, ...body.email }, invisible: body.invisible ?? settings.invisible, read_receipts: body.read_receipts ?? settings.read_receipts });
    try {
      setSettings(await api<NotificationSettings>('/api/notifications.php', { method: 'PUT', body }));
      setSaved(true);
    } catch (e) {
      setSettings(before);
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
    }
  };

  return (
    <div className="container py-4" style={{ maxWidth: 760 }}>
      <h1 className="h3 mb-4">{t('notifications.title')}</h1>
      <Card as="section" className="mb-4" data-testid="push-settings-section">
        <Card.Body>
          <PushSettings />
        </Card.Body>
      </Card>
      <DisabledReasons reasons={settings.notifications_disabled} email={loaderData.email} onChange={setSettings} />
      {error && <Alert variant="danger">{error}</Alert>}

      <Card as="section" className="mb-4" aria-labelledby="email-heading" data-testid="email-settings">
        <Card.Body>
          <div className="d-flex justify-content-between align-items-baseline">
            <h2 className="h5" id="email-heading">{t('notifications.email_heading')}</h2>
            {saved && <span className="text-success small" role="status" data-testid="settings-saved">{t('notifications.saved')}</span>}
          </div>
          <p className="text-muted small">{t('notifications.email_intro')}</p>
          {EMAIL_CATEGORIES.map((category) => (
            <Form.Check
              key={category}
              type="switch"
              id={`email-${category}`}
              className="mb-2"
              checked={settings.email[category]}
              onChange={(e) => void save({ email: { [category]: e.currentTarget.checked } })}
              data-testid={`email-switch-${category}`}
              label={<><span className="fw-semibold">{t(`notifications.categories.${category}.label`)}</span><br /><small className="text-muted">{t(`notifications.categories.${category}.description`)}</small></>}
            />
          ))}
        </Card.Body>
      </Card>

      <Card as="section" className="mb-4" aria-labelledby="privacy-heading">
        <Card.Body>
          <h2 className="h5" id="privacy-heading">{t('notifications.privacy.heading')}</h2>
          <Form.Check
            type="switch"
            id="invisible"
            checked={settings.invisible}
            onChange={(e) => void save({ invisible: e.currentTarget.checked })}
            data-testid="invisible-switch"
            label={<><span className="fw-semibold">{t('notifications.privacy.invisible')}</span><br /><small className="text-muted">{t('notifications.privacy.invisible_help')}</small></>}
          />
          <Form.Check
            type="switch"
            id="read-receipts"
            className="mt-3"
            checked={settings.read_receipts}
            onChange={(e) => void save({ read_receipts: e.currentTarget.checked })}
            data-testid="read-receipts-switch"
            label={<><span className="fw-semibold">{t('notifications.privacy.read_receipts')}</span><br /><small className="text-muted">{t('notifications.privacy.read_receipts_help')}</small></>}
          />
        </Card.Body>
      </Card>

      <WordFilter words={settings.word_filter} onSaved={setSettings} />

      <AccountSettings email={loaderData.email} />
      <p className="text-end"><Link to="/delete-account" className="link-danger" data-testid="delete-account-link">{t('notifications.account.delete_link')}</Link></p>
    </div>
  );
}
