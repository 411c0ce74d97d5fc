import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile, type Options } from 'sass';
import { describe, expect, it } from 'vitest';

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
