import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import ListGroup from 'react-bootstrap/ListGroup';
import { Alert } from '../../components/Alert.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from 'react-router';
import type { ProfileSummary } from '#common/api-types.ts';
import { api, ApiError } from '../../lib/api.ts';
import { ProfilePhoto } from '../../components/ProfilePhoto.tsx';

/** The members I blocked, each with an unblock button. */
export function BlockedList({ initial }: { initial: ProfileSummary[] }) {
  const { t } = useTranslation();
  const [list, setList] = useState(initial);
  const [message, setMessage] = useState<{ variant: 'success' | 'danger'; text: string } | null>(null);

  const unblock = async (p: ProfileSummary) => {
    try {
      await api('/api/block.php', { method: 'DELETE', body: { profile_id: p.id } });
      setList((l) => l.filter((x) => x.id !== p.id));
      setMessage({ variant: 'success', text: t('blocks.unblocked_done', { name: p.name }) });
    } catch (err) {
      setMessage({ variant: 'danger', text: err instanceof ApiError ? err.message : t('errors.server_error') });
    }
  };

  return (
    <Card className="shadow-sm mb-4" data-testid="blocked-list">
      <Card.Body>
        <h2 className="h5">{t('blocks.title')}</h2>
        {message && <Alert variant={message.variant}>{message.text}</Alert>}
        {list.length === 0 ? <p className="text-muted mb-0">{t('blocks.none')}</p> : (
          <ListGroup variant="flush">
            {list.map((p) => (
              <ListGroup.Item key={p.id} className="d-flex align-items-center gap-3 px-0" data-testid="blocked-member">
                <div className="blocked-thumb"><ProfilePhoto profile={p} /></div>
                <Link to={`/members/${p.id}`} className="flex-grow-1 text-reset">{p.name}, {p.age}</Link>
                <Button size="sm" variant="outline-secondary" onClick={() => void unblock(p)}>{t('blocks.unblock')}</Button>
              </ListGroup.Item>
            ))}
          </ListGroup>
        )}
      </Card.Body>
    </Card>
  );
}
