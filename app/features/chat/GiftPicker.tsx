import Button from 'react-bootstrap/Button';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { Gift } from '#common/api-types.ts';
import { giftName } from './gift-name.ts';

/** The gift catalogue as a grid; gifts cost the site's gift price unless one names its own, and picking one asks to confirm its price before it is sent. */
export function GiftPicker({ show, gifts, name, price, priceLabel, busy, onPick, onClose }: {
  show: boolean; gifts: Gift[]; name: string; price: number; priceLabel: (credits: number) => string; busy: boolean; onPick: (gift: Gift) => void; onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <Modal show={show} onHide={onClose} centered aria-labelledby="gift-picker-title" data-testid="gift-picker">
      <Modal.Header closeButton closeLabel={t('chat.close')}>
        <Modal.Title id="gift-picker-title" as="h2" className="h5">{t('chat.gift_title', { name })}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-muted small">{t('chat.gift_price', { price: priceLabel(price) })}</p>
        <ul className="gift-grid list-unstyled mb-0">
          {gifts.map((g) => (
            <li key={g.id}>
              <Button variant="light" className="gift-choice w-100" disabled={busy} onClick={() => onPick(g)} data-testid="gift-choice" data-slug={g.slug}>
                <img src={g.image} alt="" width={56} height={56} />
                <span>{giftName(g, i18n.language, t)}</span>
                {g.credits !== undefined && g.credits !== price && <small className="d-block text-muted" data-testid="gift-own-price">{priceLabel(g.credits)}</small>}
              </Button>
            </li>
          ))}
        </ul>
      </Modal.Body>
    </Modal>
  );
}
