import { describe, expect, it } from 'vitest';
import { bundleCovering, chosenBundle } from './spend-cap.ts';

const bundles = [{ id: 4, credits: 1000 }, { id: 1, credits: 50 }, { id: 3, credits: 400 }, { id: 2, credits: 150 }];

describe('the bundle that covers what a member is short of', () => {
  it('is the smallest bundle with at least that many credits, else the largest', () => {
    expect(bundleCovering(bundles, 1)?.id).toBe(1);
    expect(bundleCovering(bundles, 50)?.id).toBe(1);
    expect(bundleCovering(bundles, 51)?.id).toBe(2);
    expect(bundleCovering(bundles, 400)?.id).toBe(3);
    expect(bundleCovering(bundles, 401)?.id).toBe(4);
    expect(bundleCovering(bundles, 5000)?.id).toBe(4);
    expect(bundleCovering([], 5)).toBeNull();
  });

  it('the credits page marks it for ?need=, a retried bundle for ?package=, and nothing for bad input', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(chosenBundle(bundles, q('need=120'))).toMatchObject({ highlightId: 2, reason: 'need', need: 120 });
    expect(chosenBundle(bundles, q('package=3&method=paypal'))).toMatchObject({ highlightId: 3, reason: 'chosen', initialMethod: 'paypal' });
    for (const bad of ['need=0', 'need=-5', 'need=1.5', 'need=abc', 'need=99999999', 'package=77', 'method=cash']) {
      expect(chosenBundle(bundles, q(bad)), bad).toMatchObject({ highlightId: null, initialMethod: null });
    }
  });
});
