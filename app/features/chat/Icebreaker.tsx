import Button from 'react-bootstrap/Button';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { NICHES } from '#common/constants.ts';

export const ICEBREAKERS_PER_NICHE = 3;

/** Suggested first messages for the site's niche, shown when a conversation has no messages yet. */
export function Icebreaker({ show, niche, name, onPick, onClose }: {
  show: boolean; niche: number; name: string; onPick: (text: string) => void; onClose: () => void;
}) {
  const { t } = useTranslation();
  const key = NICHES[niche - 1] ?? NICHES[0];
  const suggestions = Array.from({ length: ICEBREAKERS_PER_NICHE }, (_, i) => t(`chat.icebreakers.${key}_${i + 1}`, { name }));
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="icebreaker-title" data-testid="icebreaker">
      <Modal.Header closeButton closeLabel={t('chat.close')}>
        <Modal.Title id="icebreaker-title" as="h2" className="h5">{t('chat.icebreaker_title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-muted">{t('chat.icebreaker_lead', { name })}</p>
        <div className="d-grid gap-2">
          {suggestions.map((s) => (
            <Button key={s} variant="outline-primary" className="text-start" onClick={() => onPick(s)} data-testid="icebreaker-suggestion">{s}</Button>
          ))}
        </div>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="link" onClick={onClose} data-testid="icebreaker-own">{t('chat.icebreaker_own')}</Button>
      </Modal.Footer>
    </Modal>
  );
}
