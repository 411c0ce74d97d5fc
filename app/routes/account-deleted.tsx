import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { FormField } from '../components/FormField.tsx';
import { Alert } from '../components/Alert.tsx';
import { useTranslation } from '../lib/i18n.ts';
import { api, ApiError } from '../lib/api.ts';
import { useHydrated } from '../lib/hydrated.ts';

/** After deletion: the 14-day way back. */
export default function AccountDeleted() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setError(null);
    try {
      await api('/api/reactivate.php', { method: 'POST', body: { email: new FormData(e.currentTarget).get('email') }, retries: 0 });
      setSent(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('errors.server_error'));
    }
  };
  return (
    <div className="container py-5 max-w-560">
      <Card className="shadow-sm"><Card.Body className="p-4">
        <h1 className="h3" data-testid="account-deleted">{t('account_deleted.title')}</h1>
        <p>{t('account_deleted.text')}</p>
        {sent ? <Alert variant="success" data-testid="reactivate-sent">{t('account_deleted.reactivate_sent')}</Alert> : (
          <Form onSubmit={submit} noValidate>
            {error && <Alert variant="danger">{error}</Alert>}
            <FormField id="reactivate-email" className="mb-3" label={t('account_deleted.reactivate_label')} name="email" type="email" autoComplete="email" required />
            <Button type="submit" variant="outline-primary" disabled={!hydrated} data-testid="reactivate-submit">{t('account_deleted.reactivate_submit')}</Button>
          </Form>
        )}
      </Card.Body></Card>
    </div>
  );
}
