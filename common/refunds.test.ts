import { describe, expect, it } from 'vitest';
import { moneyUnits, parseMoneyAmount, refundCreditShare } from './refunds.ts';

describe('part refunds\' amounts and credit shares', () => {
  it('reads an amount as whole cents: units with a point or a comma, a bare number in units or (the command line) in cents', () => {
    expect(['12.34', '12,34', ' 12.3 ', '12', '0.05', '12.340'].map((s) => parseMoneyAmount(s))).toEqual([1234, 1234, 1230, 1200, 5, 1234]);
    expect(parseMoneyAmount('1234', 'cents')).toBe(1234);
    expect(parseMoneyAmount('12.34', 'cents')).toBe(1234);
    expect(['12.345', 'abc', '', '1e3', '12.', '€12'].map((s) => parseMoneyAmount(s))).toEqual([null, null, null, null, null, null]);
    // Zero and negative amounts are numbers: the use case refuses them with its own message.
    expect([parseMoneyAmount('0'), parseMoneyAmount('-5'), parseMoneyAmount('-5', 'cents')]).toEqual([0, -500, -5]);
    expect([1250, 5, 0, 100_000].map(moneyUnits)).toEqual(['12.50', '0.05', '0.00', '1000.00']);
  });

  it('takes back the refunded share of the credits, rounded down on the total, so parts add up to the whole', () => {
    const order = { credits: 50, amountCents: 746, refundedCents: 0 };
    expect(refundCreditShare(order, 746)).toBe(50);
    expect(refundCreditShare(order, 200)).toBe(13);
    expect(refundCreditShare({ ...order, refundedCents: 200 }, 300)).toBe(20);
    expect(refundCreditShare({ ...order, refundedCents: 500 }, 246)).toBe(17);
    // A cent at a time never takes back less in all than the whole refund would.
    let refunded = 0;
    let taken = 0;
    for (; refunded < 746; refunded++) taken += refundCreditShare({ ...order, refundedCents: refunded }, 1);
    expect(taken).toBe(50);
  });
});
