import { useRef, useState } from 'react';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { FormField } from '../../components/FormField.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { CredentialTable } from './CredentialTable.tsx';
import { PasskeyButton } from './PasskeyButton.tsx';

interface Passkey { id: number; name: string; domain: string; createdAt: string; lastUsedAt: string | null }

/**
 * The account page's passkeys: the list (name, domain, made, last used) with a remove button each, and a named new
 * one for this domain. A passkey signs in after the password in place of the code (decision 062).
 */
export function ConsolePasskeys({ passkeys, newPasskey, domain, reply }: {
  passkeys: Passkey[]; newPasskey: { options: PublicKeyCredentialCreationOptionsJSON; state: string }; domain: string;
  reply?: { intent: string; error?: string; done?: boolean };
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const nameInput = useRef<HTMLInputElement>(null);
  return (
    <section className="mb-4" aria-labelledby="passkeys-heading">
      <h2 className="h5" id="passkeys-heading">{t('console.passkeys.title')}</h2>
      <p>{t('console.passkeys.intro', { domain })}</p>
      {reply?.error && <div className="alert alert-danger" role="alert" data-testid="console-passkey-error">{reply.error}</div>}
      {reply?.intent === 'passkey_add' && reply.done && <div className="alert alert-success" role="status">{t('console.passkeys.added')}</div>}
      {passkeys.length ? (
        <CredentialTable
          items={passkeys} testId="console-passkeys" intent="passkey_remove" action={t('console.passkeys.remove')}
          actionNamed={(name) => t('console.passkeys.remove_named', { name })} detail={{ header: t('console.passkeys.domain'), cell: (key) => key.domain }}
        />
      ) : <p className="text-body-secondary">{t('console.passkeys.none')}</p>}

      <div className="card card-body mt-3">
        <h3 className="h6" id="new-passkey-heading">{t('console.passkeys.new')}</h3>
        <FormField
          id="passkey-name" ref={nameInput} className="mb-3" label={t('console.passkeys.name_label')} maxLength={60} required value={name}
          onChange={(e) => setName(e.target.value)} description={t('console.passkeys.name_help')} descriptionProps={{ as: 'div' }}
        />
        <div className="max-w-420">
          <PasskeyButton
            ceremony={{ kind: 'create', options: newPasskey.options }} fields={{ intent: 'passkey_add', state: newPasskey.state, name }}
            label={t('console.passkeys.add')} testId="console-add-passkey" beforeStart={() => nameInput.current?.reportValidity() ?? false}
          />
        </div>
      </div>
    </section>
  );
}
