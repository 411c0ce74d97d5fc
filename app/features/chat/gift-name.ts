import type { Gift } from '#common/api-types.ts';

/**
 * A gift's name in the reader's language: a gift made in the console carries its names (English when one is missing);
 * a built-in gift's name is the translation gifts.<slug>.
 */
export function giftName(gift: Pick<Gift, 'slug' | 'names'>, lang: string, t: (key: string) => string): string {
  if (gift.names) return gift.names[lang] || gift.names.en || gift.slug;
  return t(`gifts.${gift.slug}`);
}
