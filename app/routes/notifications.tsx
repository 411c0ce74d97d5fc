import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { data, Link } from 'react-router';
import { wordFilterFormSchema } from '#common/chat.ts';
import { AUTH_COOKIE } from '#common/constants.ts';
import { EMAIL_CATEGORIES, notificationSwitchesSchema, type NotificationSettings } from '#common/notifications.ts';
import { mailChangeSchema, passwordChangeSchema } from '#common/schemas.ts';
import type { Route } from './+types/notifications';
import { requestContext } from '../context.ts';
import { requireMemberActor } from '#server/http/page-guards.server.ts';
import { requestCookieJar } from '#server/http/cookie-jar.ts';
import { formIntent, submitForm } from '#server/http/forms.server.ts';
import { api } from '../lib/api.ts';
import { AppForm, useAppForm } from '../lib/forms.tsx';
import { useHydrated } from '../lib/hydrated.ts';
import { AccountSettings } from '../features/settings/AccountSettings.tsx';
import { PushSettings } from '../features/push/PushSettings.tsx';
import { WordFilter } from '../features/settings/WordFilter.tsx';

export async function loader({ context, url }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  const actor = requireMemberActor(ctx, url.pathname);
  const user = await ctx.user();
  return { settings: await ctx.services.notifications.settings(actor), email: user?.email ?? '', name: user?.profile.name ?? null };
}

/** The page's forms (named by `intent`) call the same use cases as their JSON endpoints. */
export async function action({ context, request }: Route.ActionArgs) {
  const ctx = context.get(requestContext);
  const actor = requireMemberActor(ctx, '/notifications');
  const formData = await request.formData();
  const intent = formIntent(formData);
  const save = (input: Parameters<typeof ctx.services.notifications.update>[1]) => ctx.services.notifications.update(actor, input);
  switch (intent) {
    case 'settings':
      return submitForm(ctx, formData, notificationSwitchesSchema, save, { intent });
    case 'word-filter':
      return submitForm(ctx, formData, wordFilterFormSchema, save, { intent });
    case 'mail-change':
      return submitForm(ctx, formData, mailChangeSchema, async ({ email, password }) => {
        await ctx.services.lifecycle.requestEmailChange(actor, email, password);
        return { email };
      }, { intent, limits: ctx.services.rateLimits.mail, resetForm: true });
    case 'password-change': {
      const user = await ctx.user();
      const session = requestCookieJar(request).get(AUTH_COOKIE);
      return submitForm(ctx, formData, passwordChangeSchema({ email: user?.email, name: user?.profile.name }), async (input) => {
        await ctx.services.lifecycle.changePassword(actor, session, input.old_password, input.password, input.password_confirm);
      }, { intent, limits: ctx.services.rateLimits.login, resetForm: true });
    }
    default:
      throw data(null, { status: 400 });
  }
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
/** The privacy switches, in the order shown; each saves as soon as it changes. */
const PRIVACY_SWITCHES = ['invisible', 'read_receipts', 'hide_fictional'] as const;

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [settings, setSettings] = useState(loaderData.settings);
  // A new answer from the server (after any of the page's forms) is what the switches show.
  const [shown, setShown] = useState(loaderData.settings);
  if (shown !== loaderData.settings) {
    setShown(loaderData.settings);
    setSettings(loaderData.settings);
  }
  const switches = useAppForm(notificationSwitchesSchema, { intent: 'settings' });
  // Each switch sends the whole form at once; without JavaScript the save button below does.
  // "Saved" stands for the newest change only: it goes when a switch moves and comes back with the answer.
  const [before, setBefore] = useState<unknown>();
  const send = (e: React.ChangeEvent<HTMLInputElement>) => {
    setBefore(switches.done);
    e.currentTarget.form?.requestSubmit();
  };
  const saved = switches.done !== undefined && switches.done !== before;
  const error = switches.form.errors?.[0] ?? Object.values(switches.form.allErrors).flat()[0];

  return (
    <div className="container py-4 max-w-760">
      <h1 className="h3 mb-4">{t('notifications.title')}</h1>
      <Card as="section" className="mb-4" data-testid="push-settings-section">
        <Card.Body>
          <PushSettings />
        </Card.Body>
      </Card>
      <DisabledReasons reasons={settings.notifications_disabled} email={loaderData.email} onChange={setSettings} />
      {error && <Alert variant="danger">{error}</Alert>}

      <AppForm form={switches.form} intent="settings">
        <Card as="section" className="mb-4" aria-labelledby="email-heading" data-testid="email-settings">
          <Card.Body>
            <div className="d-flex justify-content-between align-items-baseline">
              <h2 className="h5" id="email-heading">{t('notifications.email_heading')}</h2>
              {saved && <span className="text-success small" role="status" data-testid="settings-saved">{t('notifications.saved')}</span>}
            </div>
            <p className="text-muted small">{t('notifications.email_intro')}</p>
            {EMAIL_CATEGORIES.map((category) => (
              <Form.Check
                key={`${category}-${settings.email[category]}`}
                type="switch"
                id={`email-${category}`}
                name={`email.${category}`}
                className="mb-2"
                defaultChecked={settings.email[category]}
                onChange={send}
                data-testid={`email-switch-${category}`}
                label={<><span className="fw-semibold">{t(`notifications.categories.${category}.label`)}</span><br /><small className="text-muted">{t(`notifications.categories.${category}.description`)}</small></>}
              />
            ))}
          </Card.Body>
        </Card>

        <Card as="section" className="mb-4" aria-labelledby="privacy-heading">
          <Card.Body>
            <h2 className="h5" id="privacy-heading">{t('notifications.privacy.heading')}</h2>
            {PRIVACY_SWITCHES.map((name, i) => {
              const dashed = name.replace('_', '-');
              return (
                <Form.Check
                  key={`${dashed}-${settings[name]}`}
                  type="switch"
                  id={dashed}
                  name={name}
                  className={i ? 'mt-3' : undefined}
                  defaultChecked={settings[name]}
                  onChange={send}
                  data-testid={`${dashed}-switch`}
                  label={<><span className="fw-semibold">{t(`notifications.privacy.${name}`)}</span><br /><small className="text-muted">{t(`notifications.privacy.${name}_help`)}</small></>}
                />
              );
            })}
            {!hydrated && <Button type="submit" variant="outline-primary" className="mt-3" data-testid="settings-save">{t('notifications.save')}</Button>}
          </Card.Body>
        </Card>
      </AppForm>

      <WordFilter words={settings.word_filter} />

      <AccountSettings email={loaderData.email} name={loaderData.name} />
      <p className="text-end"><Link to="/delete-account" className="link-danger" data-testid="delete-account-link">{t('notifications.account.delete_link')}</Link></p>
    </div>
  );
}
