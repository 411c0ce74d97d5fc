import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PAGE_SLUGS, type PageSlug } from '#common/site-content.ts';
import { escapeHtml } from '../infra/html.ts';

export { PAGE_SLUGS, type PageSlug } from '#common/site-content.ts';

export interface PageVars {
  site_name: string;
  company_name: string;
  company_address: string;
  company_city: string;
  company_country: string;
  company_kvk: string;
  vat_numbers: string;
  support_email: string;
  support_phone: string;
  refund_days: number;
  terms_date: string;
}

/** The placeholders a content file may use: exactly the keys of PageVars. */
export const PAGE_VAR_KEYS = [
  'site_name', 'company_name', 'company_address', 'company_city', 'company_country', 'company_kvk',
  'vat_numbers', 'support_email', 'support_phone', 'refund_days', 'terms_date',
] as const satisfies readonly (keyof PageVars)[];

const FALLBACK_LANG = 'en';

/**
 * Pages with a regional variant, shown instead of the language's page to visitors from that country
 * (content/<lang>-<COUNTRY>/<slug>.md): the US privacy notice for English-speaking US visitors.
 */
export const REGIONAL_VARIANTS: Readonly<Record<string, readonly PageSlug[]>> = { 'en-US': ['privacy'] };

/** The content folder of the regional variant of a page for this language and visitor country, if there is one. */
export function regionalVariant(lang: string, country: string | null | undefined, slug: PageSlug): string | null {
  if (!country) return null;
  const key = `${lang.toLowerCase()}-${country.toUpperCase()}`;
  return Object.hasOwn(REGIONAL_VARIANTS, key) && REGIONAL_VARIANTS[key].includes(slug) ? key : null;
}

export function isPageSlug(value: unknown): value is PageSlug {
  return typeof value === 'string' && (PAGE_SLUGS as readonly string[]).includes(value);
}

/**
 * A heading's anchor: lower-case ASCII letters and digits joined by dashes (accents dropped), so a
 * page's sections can be linked to, e.g. `## Notice at Collection` becomes `notice-at-collection`.
 */
export function headingId(text: string): string {
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Fills `{{var}}` from vars. Object.hasOwn keeps `{{constructor}}` and friends from
 * reaching the prototype; unknown names become empty so a typo never leaks braces onto a page.
 */
function substitute(text: string, vars: PageVars, escape: boolean): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => {
    if (!Object.hasOwn(vars, name)) return '';
    const value = String(vars[name as keyof PageVars] ?? '');
    return escape ? escapeHtml(value) : value;
  });
}

/**
 * Only site-relative paths, https and mailto may become links; everything else (javascript:,
 * data:, http:, protocol-relative //host) stays text so content can never smuggle in a script
 * or an unencrypted or off-site redirect disguised as a local path.
 */
function isSafeUrl(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  return url.startsWith('https://') || url.startsWith('mailto:');
}

function renderBold(escaped: string): string {
  return escaped.replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');
}

const LINK = /\[([^\]\n]+)\]\(([^)\s]+)\)/g;

/**
 * Inline markup on one block of text. The text is escaped before any tag is produced, so the
 * only markup in the output is what this function writes; links are cut out first so bold
 * never straddles an <a> boundary and the nesting stays well-formed.
 */
function renderInline(text: string): string {
  const escaped = escapeHtml(text);
  let out = '';
  let last = 0;
  for (const match of escaped.matchAll(LINK)) {
    const [whole, label, url] = match;
    out += renderBold(escaped.slice(last, match.index));
    out += isSafeUrl(url) ? `<a href="${url}">${renderBold(label)}</a>` : renderBold(label);
    last = match.index + whole.length;
  }
  return out + renderBold(escaped.slice(last));
}

type Block =
  | { kind: 'p'; lines: string[] }
  | { kind: 'ul' | 'ol'; items: string[] };

/**
 * A deliberately tiny markdown subset: ##/### headings, paragraphs, `- ` and `1. ` lists,
 * **bold** and links. No raw HTML is ever passed through, which is why no library is used.
 */
export function renderMarkdown(source: string): string {
  const out: string[] = [];
  const ids = new Set<string>();
  let block: Block | null = null;

  const flush = () => {
    if (!block) return;
    if (block.kind === 'p') {
      out.push(`<p>${renderInline(block.lines.join(' '))}</p>`);
    } else {
      const items = block.items.map((item) => `<li>${renderInline(item)}</li>`).join('');
      out.push(`<${block.kind}>${items}</${block.kind}>`);
    }
    block = null;
  };

  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }

    const heading = /^(#{2,3})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1].length;
      // Ids come from the source text (placeholders and all), so they are the same on every site; a repeated one gets a number.
      const base = headingId(heading[2].replace(/\*\*|\[|\]\([^)]*\)/g, ''));
      let id = base;
      for (let n = 2; id && ids.has(id); n++) id = `${base}-${n}`;
      if (id) ids.add(id);
      out.push(`<h${level}${id ? ` id="${id}"` : ''}>${renderInline(heading[2])}</h${level}>`);
      continue;
    }

    const bullet = /^-\s+(.*)$/.exec(line);
    const numbered = bullet ? null : /^\d+\.\s+(.*)$/.exec(line);
    const item = bullet ?? numbered;
    if (item) {
      const kind = bullet ? 'ul' : 'ol';
      const current = block as Block | null;
      if (current?.kind === kind) {
        current.items.push(item[1]);
      } else {
        flush();
        block = { kind, items: [item[1]] };
      }
      continue;
    }

    const current = block as Block | null;
    if (current?.kind === 'ul' || current?.kind === 'ol') {
      // A wrapped line belongs to the item above it, as in CommonMark's lazy continuation.
      current.items[current.items.length - 1] += ` ${line}`;
    } else if (current?.kind === 'p') {
      current.lines.push(line);
    } else {
      block = { kind: 'p', lines: [line] };
    }
  }
  flush();
  return out.join('\n');
}

interface ParsedPage {
  /** Plain text, placeholders still in place. */
  title: string;
  /** Rendered HTML with placeholders still in place, so the cache is shared by every site. */
  html: string;
}

function parsePage(source: string): ParsedPage {
  const text = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const newline = text.indexOf('\n');
  const first = (newline === -1 ? text : text.slice(0, newline)).trim();
  if (!first.startsWith('# ')) return { title: '', html: renderMarkdown(text) };
  return {
    title: first.slice(2).trim(),
    html: renderMarkdown(newline === -1 ? '' : text.slice(newline + 1)),
  };
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

export function createContentService(options: { contentDir: string }) {
  const { contentDir } = options;
  // Promises rather than values so concurrent first requests share one read.
  const cache = new Map<string, Promise<ParsedPage>>();

  async function load(lang: string, slug: PageSlug): Promise<ParsedPage> {
    // A regional variant (listed in REGIONAL_VARIANTS) has no fallback: its file must exist.
    if (lang.includes('-')) return parsePage(await readFile(join(contentDir, lang, `${slug}.md`), 'utf8'));
    try {
      return parsePage(await readFile(join(contentDir, lang, `${slug}.md`), 'utf8'));
    } catch (error) {
      if (lang === FALLBACK_LANG || !isMissing(error)) throw error;
      return parsePage(await readFile(join(contentDir, FALLBACK_LANG, `${slug}.md`), 'utf8'));
    }
  }

  /** The file's text for a language (English when it has none): the default a site's own text replaces. */
  async function source(lang: string, slug: PageSlug): Promise<string> {
    try {
      return await readFile(join(contentDir, lang, `${slug}.md`), 'utf8');
    } catch (error) {
      if (lang === FALLBACK_LANG || !isMissing(error)) throw error;
      return readFile(join(contentDir, FALLBACK_LANG, `${slug}.md`), 'utf8');
    }
  }

  return {
    source(lang: string, slug: PageSlug): Promise<string> {
      if (!isPageSlug(slug) || !/^[a-z]{2,3}$/.test(lang)) throw new Error(`Unknown content page: ${lang}/${String(slug)}`);
      return source(lang, slug);
    },

    /**
     * A page's markdown as a site keeps it (decision 074), rendered as the files are: the same markdown subset, no raw
     * HTML, only safe links, placeholders filled and escaped.
     */
    render(markdown: string, vars: PageVars): { title: string; html: string } {
      const { title, html } = parsePage(markdown);
      return { title: substitute(title, vars, false), html: substitute(html, vars, true) };
    },

    /**
     * The page in lang (or English when it has no translation), or its regional variant for a visitor
     * from `country` when there is one (REGIONAL_VARIANTS). The title is plain text for the caller to
     * escape (React does); the html is safe to insert as is.
     */
    async page(lang: string, slug: PageSlug, vars: PageVars, country: string | null = null): Promise<{ title: string; html: string }> {
      if (!isPageSlug(slug)) throw new Error(`Unknown content page: ${String(slug)}`);
      // lang becomes a path segment, so anything but a plain language code goes straight to English.
      const code = lang.toLowerCase();
      const safeLang = /^[a-z]{2,3}$/.test(code) ? code : FALLBACK_LANG;
      const folder = regionalVariant(safeLang, country, slug) ?? safeLang;
      const key = `${folder}/${slug}`;
      let parsed = cache.get(key);
      if (!parsed) {
        parsed = load(folder, slug);
        cache.set(key, parsed);
        // A failed read (e.g. a deploy without content/) must not stay cached forever.
        parsed.catch(() => cache.delete(key));
      }
      const { title, html } = await parsed;
      return { title: substitute(title, vars, false), html: substitute(html, vars, true) };
    },
  };
}
