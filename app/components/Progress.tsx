import type { AriaAttributes } from 'react';

type Tone = 'primary' | 'warning' | 'danger';

/**
 * How far something has got, as a native `<progress>` (role progressbar, its value read out) in the look of Bootstrap's
 * progress bar. React Bootstrap's ProgressBar writes the bar's width in a style attribute, which the page's
 * Content-Security-Policy refuses when the server renders it (docs/decisions/052); the value here is an attribute.
 */
export function Progress({ value, max = 100, tone = 'primary', thin = false, className, ...aria }: {
  value: number;
  max?: number;
  tone?: Tone;
  thin?: boolean;
  className?: string;
  'data-testid'?: string;
} & Pick<AriaAttributes, 'aria-label' | 'aria-labelledby'>) {
  const classes = ['progress-meter', tone === 'primary' ? '' : `progress-meter-${tone}`, thin ? 'progress-meter-thin' : '', className ?? ''];
  return <progress className={classes.filter(Boolean).join(' ')} value={Math.min(Math.max(value, 0), max)} max={max} {...aria} />;
}
