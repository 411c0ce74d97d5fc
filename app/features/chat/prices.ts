import { useTranslation } from '../../lib/i18n.ts';
import type { ChatPrices } from '#common/api-types.ts';
import { creditsInCents } from '#common/chat-prices.ts';
import type { Language } from '#common/languages.ts';
import { formatMoney } from '../../lib/format.ts';

/** "5 credits · €1.25": what a paid chat action costs, in credits and in money at the member's top-up rate. */
export function usePriceLabel(prices: ChatPrices) {
  const { t, i18n } = useTranslation();
  return (credits: number) => {
    const money = prices.credit_price
      ? formatMoney(creditsInCents(credits, prices.credit_price), prices.credit_price.currency, i18n.language as Language)
      : null;
    return money ? t('chat.price', { count: credits, money }) : t('chat.price_credits', { count: credits });
  };
}
