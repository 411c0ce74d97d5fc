import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Modal } from '../../components/Modal.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import type { Gift } from '#common/api-types.ts';
import { giftName } from './gift-name.ts';

/** A paid gift or photo the member has picked but not sent yet. */
export type PendingSend = { kind: 'gift'; gift: Gift; credits: number } | { kind: 'photo'; file: File; credits: number };

/**
 * The price of a gift or photo before it is sent: nothing is charged until "Send" (spec: paid actions show their
 * price first). Cancelling sends and charges nothing.
 */
export function ConfirmSend({ pending, name, priceLabel, busy, onSend, onCancel }: {
  pending: PendingSend | null; name: string; priceLabel: (credits: number) => string; busy: boolean; onSend: () => void; onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const preview = usePreview(pending?.kind === 'photo' ? pending.file : null);
  return (
    <Modal show={pending !== null} onHide={onCancel} centered aria-labelledby="confirm-send-title" data-testid="confirm-send">
      <Modal.Header closeButton closeLabel={t('chat.close')}>
        <Modal.Title id="confirm-send-title" as="h2" className="h5">
          {pending?.kind === 'gift' ? t('chat.confirm_gift', { gift: giftName(pending.gift, i18n.language, t), name }) : t('chat.confirm_photo', { name })}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="text-center">
        {pending?.kind === 'gift' && <img src={pending.gift.image} alt="" width={96} height={96} />}
        {preview && <img src={preview} alt="" className="chat-photo mx-auto" width={200} height={240} />}
        <p className="mt-3 mb-0" data-testid="confirm-send-price">{pending && t('chat.confirm_price', { price: priceLabel(pending.credits) })}</p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy} data-testid="confirm-send-cancel">{t('chat.confirm_cancel')}</Button>
        <Button onClick={onSend} disabled={busy} data-testid="confirm-send-button">{t('chat.send')}</Button>
      </Modal.Footer>
    </Modal>
  );
}

/** An object URL of the picked photo while it is shown, released afterwards. */
function usePreview(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const made = URL.createObjectURL(file);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file]);
  return url;
}
