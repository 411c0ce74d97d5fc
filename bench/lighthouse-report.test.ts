import { describe, expect, it } from 'vitest';
import { evaluate, type ReportLike } from './lighthouse-report.ts';

/** A report where every category scores 1 and the metrics are well inside their targets. */
function report(): ReportLike {
  const audit = (score: number | null, scoreDisplayMode = 'binary', extra = {}) => ({ score, scoreDisplayMode, ...extra });
  return {
    categories: {
      performance: { score: 0.99, auditRefs: [{ id: 'largest-contentful-paint', weight: 25 }, { id: 'total-blocking-time', weight: 30 }, { id: 'cumulative-layout-shift', weight: 25 }, { id: 'unused-javascript', weight: 0 }] },
      accessibility: { score: 1, auditRefs: [{ id: 'color-contrast', weight: 7 }, { id: 'image-alt', weight: 10 }, { id: 'video-caption', weight: 10 }] },
      'best-practices': { score: 1, auditRefs: [{ id: 'errors-in-console', weight: 1 }] },
      seo: { score: 1, auditRefs: [{ id: 'is-crawlable', weight: 4.04 }, { id: 'meta-description', weight: 1 }] },
    },
    audits: {
      'largest-contentful-paint': audit(0.98, 'numeric', { numericValue: 1500, displayValue: '1.5 s' }),
      'total-blocking-time': audit(1, 'numeric', { numericValue: 40 }),
      'cumulative-layout-shift': audit(1, 'numeric', { numericValue: 0.01 }),
      'unused-javascript': audit(0.5, 'metricSavings', { displayValue: 'Potential savings of 20 KiB' }),
      'color-contrast': audit(1),
      'image-alt': audit(1),
      'video-caption': audit(null, 'notApplicable'),
      'errors-in-console': audit(1),
      'is-crawlable': audit(1),
      'meta-description': audit(1),
    },
  };
}

describe('evaluate', () => {
  it('passes a page that meets every target, with the scores as 0–100 and the metrics', () => {
    const result = evaluate('/', report());
    expect(result.scores).toEqual({ performance: 99, accessibility: 100, 'best-practices': 100, seo: 100 });
    expect([result.lcpMs, result.tbtMs, result.cls]).toEqual([1500, 40, 0.01]);
    expect(result.benchmarkIndex).toBeNull();
    expect(evaluate('/', { ...report(), environment: { benchmarkIndex: 1640.5 } }).benchmarkIndex).toBe(1640.5);
    expect(result.misses).toEqual([]);
    expect(result.failing).toEqual({});
  });

  it('names a category below its target and the audits that failed in it, heaviest first, unscored ones left out', () => {
    const r = report();
    r.categories.seo!.score = 0.69;
    r.audits['is-crawlable'].score = 0;
    r.audits['meta-description'].score = 0;
    r.categories.accessibility!.score = 0.93;
    r.audits['color-contrast'].score = 0;
    const result = evaluate('/members', r);
    expect(result.misses).toEqual(['/members: accessibility 93 < 100', '/members: seo 69 < 100']);
    expect(result.failing).toEqual({ accessibility: ['color-contrast'], seo: ['is-crawlable', 'meta-description'] });
  });

  it('counts a performance audit as failed below 0.9 and shows its value; an exact 95 passes', () => {
    const r = report();
    r.categories.performance!.score = 0.8;
    r.audits['largest-contentful-paint'].score = 0.89;
    const result = evaluate('/', r);
    expect(result.failing.performance).toEqual(['largest-contentful-paint (1.5 s)', 'unused-javascript (Potential savings of 20 KiB)']);
    r.categories.performance!.score = 0.95;
    expect(evaluate('/', r).misses).toEqual([]);
  });

  it('misses LCP, TBT and CLS above their targets even when the score is met', () => {
    const r = report();
    r.audits['largest-contentful-paint'].numericValue = 2001;
    r.audits['total-blocking-time'].numericValue = 151;
    r.audits['cumulative-layout-shift'].numericValue = 0.051;
    expect(evaluate('/', r).misses).toEqual(['/: LCP 2001 ms > 2000 ms', '/: TBT 151 ms > 150 ms', '/: CLS 0.051 > 0.05']);
  });

  it('fails loudly on a run that Lighthouse could not complete', () => {
    const r = { ...report(), runtimeError: { code: 'NO_FCP', message: 'The page did not paint any content.' } };
    expect(() => evaluate('/', r)).toThrow(/NO_FCP/);
  });
});
