import { Camera, Eye, Lock, MessagesSquare, ShieldCheck } from 'lucide-react';
import { useTranslation } from '../../lib/i18n.ts';
import { languageIso, type Language } from '#common/languages.ts';
import type { PremiumFacts } from '#server/payments/catalogue.ts';
import './credits.scss';

/**
 * What premium unlocks, as the services enforce it (photos.service photoLimit and gallery rules,
 * chat.service's free-conversation limit): free against premium, side by side.
 */
export function PremiumBenefits({ facts, premium = false }: { facts: PremiumFacts; premium?: boolean }) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => new Intl.NumberFormat(languageIso(i18n.language as Language)).format(n);
  const rows = [
    { icon: Eye, key: 'photos_all', free: t('premium.free_photos_all'), paid: t('premium.paid_photos_all') },
    { icon: Camera, key: 'uploads', free: number(facts.freePhotos), paid: number(facts.premiumPhotos) },
    { icon: Lock, key: 'private', free: t('premium.no'), paid: t('premium.yes') },
    { icon: MessagesSquare, key: 'conversations', free: number(facts.freeConversations), paid: t('premium.unlimited') },
    { icon: ShieldCheck, key: 'forever', free: t('premium.no'), paid: t('premium.yes') },
  ] as const;
  return (
    <div className="card shadow-sm" data-testid="premium-benefits">
      <div className="card-body p-0">
        <table className="table mb-0 align-middle premium-table">
          <thead>
            <tr>
              <th scope="col" className="ps-3">{t('premium.feature')}</th>
              <th scope="col" className={`text-center ${premium ? 'text-muted' : ''}`}>{t('premium.free')}</th>
              <th scope="col" className="text-center text-secondary pe-3">{t('premium.premium')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ icon: Icon, key, free, paid }) => (
              <tr key={key} data-testid={`benefit-${key}`}>
                <th scope="row" className="ps-3 fw-normal">
                  <span className="d-inline-flex align-items-start gap-2"><Icon aria-hidden="true" size={18} className="text-primary flex-shrink-0 mt-1 d-none d-sm-inline" />{t(`premium.benefit_${key}`)}</span>
                </th>
                <td className="text-center text-muted small">{free}</td>
                <td className="text-center fw-semibold small pe-3">{paid}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="card-footer small text-muted">{t('premium.messages_note', { count: facts.messageCredits })}</div>
    </div>
  );
}
