import { describe, expect, it } from 'vitest';
import { moneyCents, moneyText, packageMoneyFormSchema } from './catalogue.ts';

describe('money as staff type it', () => {
  it.each([
    ['29,99', '2999'], ['29.99', '2999'], ['30', '3000'], [' 7,5 ', '750'], ['1.299,50', '129950'], ['1,299.50', '129950'],
    ['1 299,50', '129950'], ['1.299', '129900'], ['0,01', '1'],
  ])('%j is %s cents', (typed, cents) => {
    expect(moneyCents(typed)).toBe(cents);
  });

  it.each(['19,9999', 'ten', '-5', '1,2,3', '', '12.'])('%j stays as typed, for the schema to refuse', (typed) => {
    expect(moneyCents(typed)).toBe(typed);
  });

  it('shows cents with the language\'s decimal separator, without grouping', () => {
    expect(moneyText(129950, 'nl')).toBe('1299,50');
    expect(moneyText(129950, 'en')).toBe('1299.50');
    expect(moneyText(5, 'de')).toBe('0,05');
  });

  it('the package form checks typed money with the package schema\'s rules and messages', () => {
    const ok = packageMoneyFormSchema.safeParse({ credits: '50', sort: '0', active: 'on', prices: { EUR: '24,99', GBP: '' } });
    expect(ok.success && ok.data.prices).toEqual({ EUR: 2499 });
    const bad = packageMoneyFormSchema.safeParse({ credits: '50', sort: '0', prices: { EUR: '24,9999' } });
    expect(bad.success ? null : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['prices', 'errors.number_out_of_range']]);
  });
});
