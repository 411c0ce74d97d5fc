import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigation, useSubmit } from 'react-router';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useTranslation } from '../../lib/i18n.ts';

type Ceremony =
  | { kind: 'sign_in'; options: PublicKeyCredentialRequestOptionsJSON }
  | { kind: 'create'; options: PublicKeyCredentialCreationOptionsJSON };

/**
 * Runs a passkey ceremony in the browser (the WebAuthn library loads on the click, not with the page) and posts its
 * answer to the page's action with `fields`, as `credential`. Passkeys need JavaScript: without it, or where the
 * browser has no WebAuthn, the button stays disabled and says so; the TOTP code always works.
 */
export function PasskeyButton({ ceremony, fields, label, testId, variant = 'outline-primary', beforeStart }: {
  ceremony: Ceremony; fields: Record<string, string>; label: string; testId: string; variant?: string;
  /** Checks the form before the ceremony starts (false stops it). */
  beforeStart?: () => boolean;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const busy = useNavigation().state !== 'idle';
  const [supported, setSupported] = useState<boolean | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setSupported(typeof window.PublicKeyCredential === 'function'), []);

  async function run() {
    if (beforeStart && !beforeStart()) return;
    setError(null);
    setRunning(true);
    try {
      const webauthn = await import('@simplewebauthn/browser');
      const credential = ceremony.kind === 'sign_in'
        ? await webauthn.startAuthentication({ optionsJSON: ceremony.options })
        : await webauthn.startRegistration({ optionsJSON: ceremony.options });
      await submit({ ...fields, credential: JSON.stringify(credential) }, { method: 'post' });
    } catch {
      // Cancelled, timed out, or no passkey for this site on this device: the browser does not say which.
      setError(t('console.passkeys.not_used'));
    } finally {
      setRunning(false);
    }
  }

  return (
    <>
      <Button type="button" variant={variant} className="w-100" disabled={!supported || running || busy} onClick={run} data-testid={testId}>
        {label}
      </Button>
      {supported === false && <div className="form-text">{t('console.passkeys.unsupported')}</div>}
      {error && <div className="text-danger small mt-1" role="alert">{error}</div>}
    </>
  );
}
