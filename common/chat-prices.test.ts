import { describe, expect, it } from 'vitest';
import { creditsInCents, messagesForCredits } from './chat-prices.ts';

// €9.95 for 50 credits: 19.9 cents a credit, which no cent amount shows exactly.
const bundle = { amount: 995, credits: 50, currency: 'EUR' };

describe('the money equivalent of credits', () => {
  it('is the price per credit rounded up to a cent, times the credits: twice the credits show twice the money', () => {
    expect(creditsInCents(1, bundle)).toBe(20);
    expect(creditsInCents(5, bundle)).toBe(100);
    expect(creditsInCents(10, bundle)).toBe(200);
    for (let credits = 1; credits <= 200; credits += 1) {
      expect(creditsInCents(credits * 2, bundle)).toBe(creditsInCents(credits, bundle) * 2);
      expect(creditsInCents(credits, bundle)).toBeGreaterThanOrEqual((credits * bundle.amount) / bundle.credits);
    }
  });

  it('is exact where the bundle divides evenly', () => {
    expect(creditsInCents(30, { amount: 600, credits: 60, currency: 'EUR' })).toBe(300);
    expect(creditsInCents(60, { amount: 600, credits: 60, currency: 'EUR' })).toBe(600);
  });
});

describe('the messages credits pay for', () => {
  it('counts whole messages only', () => {
    expect(messagesForCredits(100, 5)).toBe(20);
    expect(messagesForCredits(99, 5)).toBe(19);
    expect(messagesForCredits(4, 5)).toBe(0);
  });

  it('is none when a message has no price', () => {
    expect(messagesForCredits(100, 0)).toBe(0);
  });
});
