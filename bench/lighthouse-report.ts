/**
 * What `npm run bench -- lighthouse` reads from a Lighthouse report (pure, so it is tested without a browser): the four
 * category scores, the three metrics with targets, which targets a page misses, and the audits that cost each
 * category below its target its points, so the output says what to fix.
 */

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** Scores 0–100 per category; metrics in ms (CLS unitless). */
export const TARGETS = {
  scores: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 } satisfies Record<Category, number>,
  lcpMs: 2000,
  tbtMs: 150,
  cls: 0.05,
};

/** The parts of a Lighthouse result (LH.Result) read here. */
export interface ReportLike {
  categories: Partial<Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>>;
  audits: Record<string, { score: number | null; scoreDisplayMode: string; numericValue?: number; displayValue?: string }>;
  runtimeError?: { code: string; message: string };
  runWarnings?: string[];
  /** Lighthouse's measure of the machine's speed at the time (about 1,000–2,000 on a quiet desktop). */
  environment?: { benchmarkIndex: number };
}

export interface PageResult {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  benchmarkIndex: number | null;
  /** Missed targets, in words. */
  misses: string[];
  /** Per category below its target: the audits that did not pass (id and, where it has one, its display value). */
  failing: Partial<Record<Category, string[]>>;
}

// Audits without a pass/fail of their own.
const UNSCORED = new Set(['notApplicable', 'informative', 'manual', 'error']);

/** An audit that did not pass: binary audits below 1; performance audits (metrics, savings) below 0.9, Lighthouse's "passed". */
function failed(category: Category, audit: ReportLike['audits'][string] | undefined): boolean {
  if (!audit || audit.score === null || UNSCORED.has(audit.scoreDisplayMode)) return false;
  return category === 'performance' ? audit.score < 0.9 : audit.score < 1;
}

export function evaluate(path: string, report: ReportLike): PageResult {
  if (report.runtimeError) throw new Error(`${path}: Lighthouse failed: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const scores = {} as Record<Category, number>;
  const misses: string[] = [];
  const failing: PageResult['failing'] = {};
  for (const category of CATEGORIES) {
    const c = report.categories[category];
    if (!c || c.score === null) throw new Error(`${path}: the report has no ${category} score`);
    const score = Math.round(c.score * 100);
    scores[category] = score;
    if (score >= TARGETS.scores[category]) continue;
    misses.push(`${path}: ${category} ${score} < ${TARGETS.scores[category]}`);
    // Heaviest first: the audits that cost most points lead.
    const refs = [...c.auditRefs].sort((a, b) => b.weight - a.weight);
    failing[category] = refs.filter((ref) => failed(category, report.audits[ref.id])).map((ref) => {
      const shown = report.audits[ref.id].displayValue;
      return shown ? `${ref.id} (${shown})` : ref.id;
    });
  }
  const metric = (id: string) => {
    const value = report.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`${path}: the report has no ${id}`);
    return value;
  };
  const lcpMs = metric('largest-contentful-paint');
  const tbtMs = metric('total-blocking-time');
  const cls = metric('cumulative-layout-shift');
  if (lcpMs > TARGETS.lcpMs) misses.push(`${path}: LCP ${Math.round(lcpMs)} ms > ${TARGETS.lcpMs} ms`);
  if (tbtMs > TARGETS.tbtMs) misses.push(`${path}: TBT ${Math.round(tbtMs)} ms > ${TARGETS.tbtMs} ms`);
  if (cls > TARGETS.cls) misses.push(`${path}: CLS ${cls.toFixed(3)} > ${TARGETS.cls}`);
  return { scores, lcpMs, tbtMs, cls, benchmarkIndex: report.environment?.benchmarkIndex ?? null, misses, failing };
}
