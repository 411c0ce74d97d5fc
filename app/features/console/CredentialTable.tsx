import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { Form, useNavigation } from 'react-router';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';

interface Credential { id: number; name: string; createdAt: string; lastUsedAt: string | null }

/**
 * A staff member's own credentials on the account page (API tokens, passkeys): name, what sets it apart, when it was
 * made and last used, and a button that posts `intent` with its id to end it.
 */
export function CredentialTable<T extends Credential>({ items, detail, intent, action, actionNamed, testId }: {
  items: T[]; detail: { header: string; cell: (item: T) => ReactNode }; intent: string; action: string;
  actionNamed: (name: string) => string; testId: string;
}) {
  const { t, i18n: { language: lang } } = useTranslation();
  const busy = useNavigation().state !== 'idle';
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('console.account.token_name')}</th>
            <th scope="col">{detail.header}</th>
            <th scope="col">{t('console.account.created')}</th>
            <th scope="col">{t('console.account.last_used')}</th>
            <th scope="col"><span className="visually-hidden">{t('console.account.actions')}</span></th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td>{item.name}</td>
              <td>{detail.cell(item)}</td>
              <td>{formatDateTime(item.createdAt, lang)}</td>
              <td>{item.lastUsedAt ? formatDateTime(item.lastUsedAt, lang) : t('console.account.never')}</td>
              <td className="text-end">
                <Form method="post">
                  <input type="hidden" name="intent" value={intent} />
                  <input type="hidden" name="id" value={item.id} />
                  <Button type="submit" variant="outline-danger" size="sm" disabled={busy} aria-label={actionNamed(item.name)}>{action}</Button>
                </Form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
