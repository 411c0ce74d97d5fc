import type { TFunction } from '../../lib/i18n.ts';
import type { PackagePrice } from '#common/api-types.ts';

/** What the member reads beside a discounted price: which discount it is, a personal one said as such. */
export function discountLabel(t: TFunction, discount: NonNullable<PackagePrice['discount']>): string {
  const params = { percent: discount.percentage, code: discount.code };
  switch (discount.kind) {
    case 'time_bonus': return t('discounts.label_time_bonus', params);
    case 'welcome': return t('discounts.label_welcome', params);
    case 'personal': return t('discounts.label_personal', params);
    default: return t('discounts.label_code', params);
  }
}
