import { describe, expect, it } from 'vitest';
import { capBadge, creditsBadgeVariant, creditsPath } from './badges.ts';

describe('navigation badges', () => {
  it('caps the unread count at 99+ from 100', () => {
    expect(capBadge(1)).toBe('1');
    expect(capBadge(99)).toBe('99');
    expect(capBadge(100)).toBe('99+');
  });
  it('shows the credits badge at 10 or fewer: warning above 0, danger at 0', () => {
    expect(creditsBadgeVariant(11)).toBeNull();
    expect(creditsBadgeVariant(10)).toBe('warning');
    expect(creditsBadgeVariant(1)).toBe('warning');
    expect(creditsBadgeVariant(0)).toBe('danger');
  });
  it('leads the credits item to repeat order only when a payment method is stored', () => {
    expect(creditsPath(true)).toBe('/credits/repeat-order');
    expect(creditsPath(false)).toBe('/credits');
  });
});
