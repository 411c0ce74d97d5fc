import { useState } from 'react';
import { Alert, Badge, Button, Card, Form, InputGroup } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { WORD_FILTER_MAX, wordFilterSchema } from '#common/chat.ts';
import type { NotificationSettings } from '#common/notifications.ts';
import { api, ApiError } from '../../lib/api.ts';

/**
 * The member's word filter: messages containing one of these words or phrases are hidden from them
 * and cost their sender nothing. Checked with the shared schema before it goes to the server.
 */
export function WordFilter({ words, onSaved }: { words: string[]; onSaved: (s: NotificationSettings) => void }) {
  const { t } = useTranslation();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (next: string[]) => {
    const checked = wordFilterSchema.safeParse(next);
    if (!checked.success) {
      setError(t(checked.error.issues[0]?.message ?? 'errors.invalid_input', { max: WORD_FILTER_MAX }));
      return false;
    }
    setBusy(true);
    setError(null);
    try {
      onSaved(await api<NotificationSettings>('/api/notifications.php', { method: 'PUT', body: { word_filter: checked.data } }));
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e.message : t('errors.server_error'));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!entry.trim()) return;
    if (await save([...words, entry])) setEntry('');
  };

  return (
    <Card as="section" className="mb-4" aria-labelledby="word-filter-heading" data-testid="word-filter">
      <Card.Body>
        <h2 className="h5" id="word-filter-heading">{t('notifications.word_filter.heading')}</h2>
        <p className="text-muted small">{t('notifications.word_filter.help')}</p>
        {error && <Alert variant="danger" className="py-2" data-testid="word-filter-error">{error}</Alert>}
        <Form onSubmit={add}>
          <InputGroup className="mb-2">
            <Form.Control
              value={entry} onChange={(e) => setEntry(e.target.value)} maxLength={60}
              placeholder={t('notifications.word_filter.placeholder')} aria-label={t('notifications.word_filter.placeholder')} data-testid="word-filter-input"
            />
            <Button type="submit" variant="outline-primary" disabled={busy || !entry.trim()} data-testid="word-filter-add">{t('notifications.word_filter.add')}</Button>
          </InputGroup>
        </Form>
        {words.length === 0 ? <p className="small text-muted mb-0">{t('notifications.word_filter.empty')}</p> : (
          <ul className="list-unstyled d-flex flex-wrap gap-2 mb-0">
            {words.map((w) => (
              <li key={w}>
                <Badge bg="light" text="dark" className="border d-inline-flex align-items-center gap-1 fs-6 fw-normal" data-testid="word-filter-word">
                  {w}
                  <Button
                    variant="link" size="sm" className="p-0 text-muted text-decoration-none" disabled={busy}
                    aria-label={t('notifications.word_filter.remove', { word: w })} onClick={() => void save(words.filter((x) => x !== w))}
                  >×</Button>
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </Card.Body>
    </Card>
  );
}
