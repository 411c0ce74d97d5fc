import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type Options } from 'sass';
import { describe, expect, it } from 'vitest';
import { siteThemeCss } from '#common/site-theme.ts';

/**
 * app.scss builds only part of Bootstrap (docs/decisions/024): a Bootstrap class a page names but the trimmed stylesheet
 * left out would do nothing, without any error. This check names every such class.
 */
const SASS: Options<'sync'> = { loadPaths: ['node_modules'], quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] };
const classesOf = (css: string) => new Set([...css.matchAll(/\.(-?[A-Za-z_][\w-]*)/g)].map((m) => m[1]));

function sources(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile() && pattern.test(f.name) && !f.name.includes('.test.'))
    .map((f) => readFileSync(join(f.parentPath, f.name), 'utf8'));
}

/** The string literals in an expression, and those inside its template literals' `${…}`. */
function literals(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/(['"])((?:(?!\1).)*)\1|`([^`]*)`/g)) {
    if (m[3] === undefined) out.push(m[2]);
    else {
      out.push(m[3].replace(/\$\{[^}]*\}/g, ' '));
      for (const e of m[3].matchAll(/\$\{([^}]*)\}/g)) out.push(...literals(e[1]));
    }
  }
  return out;
}

/**
 * The words in class attributes: `className="…"`, `className={…}` (its string literals), `class="…"`, and the
 * class props of components that pass them on (`labelClassName`, `controlClassName` of FormField).
 */
export function classNamesIn(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/(?:className|[a-z]\w*ClassName)=(?:"([^"]*)"|\{((?:[^{}]|\{[^{}]*\})*)\})|class="([^"]*)"/g)) {
    const words = m[2] === undefined ? (m[1] ?? m[3]) : literals(m[2]).join(' ');
    names.push(...words.split(/\s+/).filter((w) => /^[a-z][\w-]*$/.test(w)));
  }
  return names;
}

describe('the trimmed Bootstrap stylesheet', () => {
  it('finds class names in markup and in template literals', () => {
    expect(classNamesIn(`<div className="d-flex gap-2" /><p className={\`small \${x ? 'text-muted' : ''}\`} /><i class="fw-bold">`))
      .toEqual(['d-flex', 'gap-2', 'small', 'text-muted', 'fw-bold']);
    expect(classNamesIn(`<FormField labelClassName="visually-hidden" controlClassName={big ? 'fs-4' : undefined} />`)).toEqual(['visually-hidden', 'fs-4']);
  });

  it('has every Bootstrap class the pages name', () => {
    const bootstrap = classesOf(compile('node_modules/bootstrap/scss/bootstrap.scss', SASS).css);
    const app = classesOf(compile('app/styles/app.scss', SASS).css);
    const named = new Set([...sources('app', /\.tsx?$/), ...sources('content', /\.(md|html)$/)].flatMap(classNamesIn));
    const missing = [...named].filter((c) => bootstrap.has(c) && !app.has(c)).sort();
    expect(missing).toEqual([]);
    // The check sees the pages' classes at all.
    expect(named.size).toBeGreaterThan(200);
  }, 60_000);
});

/** The CSS with the blocks of `@media (prefers-reduced-motion: no-preference)` taken out (their braces balanced). */
function withoutMotionBlocks(css: string): string {
  let out = '';
  let at = 0;
  for (;;) {
    const start = css.indexOf('@media (prefers-reduced-motion: no-preference)', at);
    if (start < 0) return out + css.slice(at);
    out += css.slice(at, start);
    let depth = 0;
    let i = css.indexOf('{', start);
    for (; i < css.length; i++) {
      if (css[i] === '{') depth++;
      if (css[i] === '}' && --depth === 0) break;
    }
    at = i + 1;
  }
}

describe('the design tokens (docs/decisions/086)', () => {
  const app = compile('app/styles/app.scss', SASS).css;
  const root = app.match(/:root \{([^}]*--amora-color-primary:[^}]*)\}/)?.[1] ?? '';

  it('are defined once on :root: colour, type scale, spacing, radius, elevation and motion', () => {
    const tokens = new Set([...root.matchAll(/(--amora-[\w-]+):/g)].map((m) => m[1]));
    for (const name of [
      '--amora-color-primary', '--amora-color-secondary', '--amora-color-dark', '--amora-color-canvas', '--amora-color-surface', '--amora-color-ink',
      '--amora-font-sans', '--amora-text-sm', '--amora-text-base', '--amora-text-3xl', '--amora-space-1', '--amora-space-8',
      '--amora-radius-sm', '--amora-radius-md', '--amora-radius-lg', '--amora-radius-pill', '--amora-shadow-1', '--amora-shadow-2', '--amora-shadow-3',
      '--amora-duration-fast', '--amora-duration-base', '--amora-duration-slow', '--amora-ease-out', '--amora-ease-spring',
    ]) expect(tokens, name).toContain(name);
    expect(root).toContain('--amora-color-primary: #0d7c7d;');
    expect(root).toContain('--amora-color-primary-rgb: 13, 124, 125;');
    // Once: no other rule defines a token.
    expect(app.match(/--amora-color-primary:/g)).toHaveLength(1);
  }, 60_000);

  it('feed Bootstrap\'s variables, so its components take the look', () => {
    expect(root).toContain('--bs-primary: var(--amora-color-primary);');
    expect(root).toContain('--bs-primary-rgb: var(--amora-color-primary-rgb);');
    expect(root).toContain('--bs-dark-rgb: var(--amora-color-dark-rgb);');
    expect(app).toContain('--bs-font-sans-serif: var(--amora-font-sans);');
    expect(app).toContain('--bs-border-radius: var(--amora-radius-md);');
    expect(app).toContain('--bs-box-shadow: var(--amora-shadow-2);');
    expect(app).toMatch(/\.card \{[^}]*--bs-card-border-radius: var\(--amora-radius-lg\);/);
    expect(app).toMatch(/body \{[^}]*background: var\(--amora-color-canvas\);/);
  });

  it('are what a site\'s colours set: every property of its stylesheet\'s :root is a colour token the app defines', () => {
    const site = siteThemeCss({ primary: '#1d4ed8', secondary: '#f97316', dark: '#0b1f3a' });
    const siteRoot = site.match(/^:root\{([^}]*)\}/)?.[1] ?? '';
    const set = [...siteRoot.matchAll(/(--[\w-]+):/g)].map((m) => m[1]);
    expect(set).toContain('--amora-color-primary');
    for (const name of set) {
      expect(name, 'a site sets tokens, not what is drawn from them').toMatch(/^--amora-color-/);
      expect(root, name).toContain(`${name}:`);
    }
    // Each brand token the app draws from a colour, the site sets too: nothing stays in the default brand.
    const drawn = [...root.matchAll(/(--amora-color-(?:primary|secondary|dark)[\w-]*):/g)].map((m) => m[1]);
    expect(new Set(set)).toEqual(new Set(drawn));
  });

  it('bring the self-hosted variable font: Latin and Latin Extended files of the build, swapped in, over a matched fallback', () => {
    const faces = [...app.matchAll(/@font-face \{([^}]*)\}/g)].map((m) => m[1]);
    const figtree = faces.filter((f) => f.includes('"Figtree Variable"') || f.includes("'Figtree Variable'"));
    expect(figtree).toHaveLength(2);
    for (const face of figtree) {
      expect(face).toContain('font-display: swap');
      expect(face).toMatch(/url\("?'?\.\.\/\.\.\/node_modules\/@fontsource-variable\/figtree\/files\/figtree-latin(-ext)?-wght-normal\.woff2/);
      expect(face).toContain('font-weight: 300 900');
    }
    const fallback = faces.find((f) => f.includes('Figtree Fallback'));
    expect(fallback).toMatch(/src: local\("?'?Arial/);
    expect(fallback).toMatch(/size-adjust: [\d.]+%/);
    // Nothing from another origin.
    expect(app).not.toMatch(/url\(["']?(https?:)?\/\//);
    expect(app).toMatch(/--amora-font-sans: "Figtree Variable", "Figtree Fallback"/);
  });

  it('move only where the system asks for no less motion', () => {
    expect(withoutMotionBlocks(app)).not.toMatch(/animation: like-pop/);
    expect(app).toMatch(/animation: like-pop var\(--amora-duration-slow\)/);
    for (const sheet of ['app/features/chat/chat.scss', 'app/features/likes/likes.scss']) {
      const css = compile(sheet, SASS).css;
      expect(css, sheet).toMatch(/animation: [\w-]+ var\(--amora-duration-(base|slow)\)/);
      expect(withoutMotionBlocks(css), sheet).not.toMatch(/animation(-name)?:/);
    }
  });
});
