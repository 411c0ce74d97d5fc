import { Flag } from 'lucide-react';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from 'react-router';
import type { ChatMessage } from '#common/api-types.ts';
import type { Language } from '#common/languages.ts';
import { formatTime } from '../../lib/format.ts';
import { useTimeZone } from '../../lib/time-zone.ts';
import { reportHref } from '../reports/report-target.ts';
import { giftName } from './gift-name.ts';

/**
 * One message: a text, a gift with its picture, or a photo (opens full size); read state on mine. Theirs carry a
 * report link: the report sheet (`onReport`), or without JavaScript the report page. One that `arrived` while the
 * conversation was open comes in with a motion (chat.scss).
 */
export function MessageBubble({ message: m, arrived = false, otherName, profileId, onReport }: {
  message: ChatMessage; arrived?: boolean; otherName: string; profileId: number; onReport: (message: ChatMessage) => void;
}) {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const media = m.kind !== 'text';
  return (
    <div className={`chat-bubble ${m.from_me ? 'me' : 'them'} ${media ? 'media' : ''} ${m.filtered ? 'filtered' : ''} ${arrived ? 'chat-bubble-arrived' : ''}`} data-testid="message" data-kind={m.kind}>
      {m.kind === 'text' && m.text}
      {m.kind === 'gift' && m.gift && (
        <figure className="chat-gift mb-0" data-testid="gift-message">
          <img src={m.gift.image} alt="" width={96} height={96} />
          <figcaption>{giftName(m.gift, i18n.language, t)}</figcaption>
        </figure>
      )}
      {m.kind === 'photo' && (m.photo ? (
        <a href={`/photos/${m.photo.filename}`} target="_blank" rel="noreferrer" data-testid="photo-message">
          <img
            src={`/photos/${m.photo.thumb_filename}`} className="chat-photo" alt={m.from_me ? t('chat.photo_mine') : t('chat.photo_from', { name: otherName })}
            width={200} height={240}
          />
        </a>
      ) : <em data-testid="photo-removed">{t('chat.photo_removed')}</em>)}
      {m.filtered && <div className="small chat-filtered-note" data-testid="filtered-note">{t('chat.filtered', { name: otherName })}</div>}
      <div className={`small ${m.from_me && !media ? 'text-white-50' : 'text-muted'}`}>
        {formatTime(m.created_at, i18n.language as Language, zone)}
        {m.read !== undefined && !m.filtered && (
          <span className="ms-1" data-testid="read-mark" data-read={m.read} title={m.read ? t('chat.read') : t('chat.delivered')} aria-label={m.read ? t('chat.read') : t('chat.delivered')}>
            {m.read ? '✓✓' : '✓'}
          </span>
        )}
        {!m.from_me && (
          <Link
            to={reportHref({ profileId, name: otherName, kind: 'message', contentId: m.id })} className="ms-2 chat-report text-muted" data-testid="report-message"
            title={t('complaints.report_message')} aria-label={t('complaints.report_message')}
            onClick={(e) => { e.preventDefault(); onReport(m); }}
          >
            <Flag size={12} aria-hidden="true" />
          </Link>
        )}
      </div>
    </div>
  );
}
