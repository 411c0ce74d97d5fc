import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LANGUAGE_CODES } from '#common/languages.ts';
import { createContentService, headingId, PAGE_SLUGS, PAGE_VAR_KEYS, REGIONAL_VARIANTS, regionalVariant, renderMarkdown, type PageVars } from './content.service.ts';

const CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));
const LANGS = ['en', 'nl', 'de', 'it', 'fr', 'es', 'pl', 'da', 'fi', 'nb', 'sv'];

const vars: PageVars = {
  site_name: 'Amora',
  company_name: 'Amora Media B.V.',
  company_address: 'Keizersgracht 1',
  company_city: '1015 AA Amsterdam',
  company_country: 'the Netherlands',
  company_kvk: '12345678',
  vat_numbers: 'NL123456789B01',
  support_email: 'support@amora.example',
  support_phone: '+31 20 123 4567',
  refund_days: 14,
  terms_date: '1 January 2025',
};

describe('renderMarkdown', () => {
  it('escapes raw HTML instead of passing it through', () => {
    const html = renderMarkdown('Hello <script>alert("x")</script> & <b onclick=\'y\'>bye</b>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b ');
    expect(html).toBe(
      '<p>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b onclick=&#39;y&#39;&gt;bye&lt;/b&gt;</p>',
    );
  });

  it('escapes HTML inside headings, list items, bold and link text', () => {
    const html = renderMarkdown('## <i>h</i>\n\n- **<img src=x>**\n\n[<svg>](/ok)');
    expect(html).not.toMatch(/<(i|img|svg)[\s>]/);
    expect(html).toContain('<h2 id="i-h-i">&lt;i&gt;h&lt;/i&gt;</h2>');
    expect(html).toContain('<strong>&lt;img src=x&gt;</strong>');
    expect(html).toContain('<a href="/ok">&lt;svg&gt;</a>');
  });

  it('renders headings, paragraphs and both kinds of list', () => {
    const html = renderMarkdown(
      '## Section\n\nFirst line\nsecond line.\n\n### Sub\n- one\n- **two**\n\n1. first\n2. second\n   wrapped',
    );
    expect(html).toBe(
      [
        '<h2 id="section">Section</h2>',
        '<p>First line second line.</p>',
        '<h3 id="sub">Sub</h3>',
        '<ul><li>one</li><li><strong>two</strong></li></ul>',
        '<ol><li>first</li><li>second wrapped</li></ol>',
      ].join('\n'),
    );
  });

  it('gives every heading an anchor from its text, numbering repeats', () => {
    expect(renderMarkdown('## Notice at Collection\n\n## Your **Privacy** Choices\n\n### Notice at collection\n\n## Übersicht & Zahlung\n\n## !!!')).toBe([
      '<h2 id="notice-at-collection">Notice at Collection</h2>',
      '<h2 id="your-privacy-choices">Your <strong>Privacy</strong> Choices</h2>',
      '<h3 id="notice-at-collection-2">Notice at collection</h3>',
      '<h2 id="ubersicht-zahlung">Übersicht &amp; Zahlung</h2>',
      '<h2>!!!</h2>',
    ].join('\n'));
    expect(headingId('Co dzieje się z kredytami?')).toBe('co-dzieje-sie-z-kredytami');
  });

  it('starts a new list when the list kind changes', () => {
    expect(renderMarkdown('- a\n1. b')).toBe('<ul><li>a</li></ul>\n<ol><li>b</li></ol>');
  });

  it('links only relative paths, https and mailto', () => {
    expect(renderMarkdown('[home](/terms)')).toBe('<p><a href="/terms">home</a></p>');
    expect(renderMarkdown('[site](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2">site</a></p>',
    );
    expect(renderMarkdown('[mail](mailto:a@b.example)')).toBe('<p><a href="mailto:a@b.example">mail</a></p>');

    for (const bad of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,x', 'http://example.com', '//evil.example', 'vbscript:x']) {
      const html = renderMarkdown(`[click](${bad})`);
      expect(html, bad).not.toContain('<a');
      expect(html, bad).not.toContain('href');
      expect(html, bad).toContain('click');
    }
  });

  it('cannot break out of the href attribute', () => {
    const html = renderMarkdown('[x](/a"onmouseover="alert(1))');
    expect(html).toContain('href="/a&quot;onmouseover=&quot;alert(1"');
    expect(html).not.toContain('" onmouseover');
  });
});

describe('content service', () => {
  const dirs: string[] = [];
  const tempContent = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'amora-content-'));
    dirs.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('splits off the title and substitutes placeholders', async () => {
    const dir = tempContent({
      'en/terms.md': '# Terms of {{site_name}}\n\nRun by {{company_name}}; refunds within {{refund_days}} days.\n\n[Mail us](mailto:{{support_email}})\n',
    });
    const page = await createContentService({ contentDir: dir }).page('en', 'terms', vars);
    expect(page.title).toBe('Terms of Amora');
    expect(page.html).not.toContain('<h1');
    expect(page.html).toContain('<p>Run by Amora Media B.V.; refunds within 14 days.</p>');
    expect(page.html).toContain('<a href="mailto:support@amora.example">Mail us</a>');
  });

  it('HTML-escapes variable values and drops unknown placeholders', async () => {
    const dir = tempContent({ 'en/faq.md': '# FAQ\n\n{{site_name}} x{{nope}}y {{constructor}}z\n' });
    const page = await createContentService({ contentDir: dir }).page('en', 'faq', {
      ...vars,
      site_name: '<script>alert("x")</script>',
    });
    expect(page.html).toBe('<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; xy z</p>');
  });

  it('falls back to English when the language has no file', async () => {
    const dir = tempContent({
      'en/ban.md': '# Bans\n\nEnglish text.\n',
      'nl/ban.md': '# Blokkades\n\nNederlandse tekst.\n',
    });
    const service = createContentService({ contentDir: dir });
    expect(await service.page('nl', 'ban', vars)).toEqual({ title: 'Blokkades', html: '<p>Nederlandse tekst.</p>' });
    expect(await service.page('de', 'ban', vars)).toEqual({ title: 'Bans', html: '<p>English text.</p>' });
    // A language code that is not a plain code must not become a path.
    expect((await service.page('../en', 'ban', vars)).title).toBe('Bans');
  });

  it('caches parsed files', async () => {
    const dir = tempContent({ 'en/cookies.md': '# Cookies\n\nOld.\n' });
    const service = createContentService({ contentDir: dir });
    expect((await service.page('en', 'cookies', vars)).html).toBe('<p>Old.</p>');
    writeFileSync(join(dir, 'en/cookies.md'), '# Cookies\n\nNew.\n');
    expect((await service.page('en', 'cookies', vars)).html).toBe('<p>Old.</p>');
  });

  it('shows the regional variant only for its language, country and page', async () => {
    const dir = tempContent({
      'en/privacy.md': '# Privacy\n\nGDPR text.\n',
      'en/faq.md': '# FAQ\n\nAnswers.\n',
      'nl/privacy.md': '# Privacy\n\nAVG-tekst.\n',
      'en-US/privacy.md': '# Privacy for US residents\n\nUS text for {{site_name}}.\n',
      'en-US/faq.md': '# US FAQ\n\nNot a listed variant.\n',
    });
    const service = createContentService({ contentDir: dir });
    expect(await service.page('en', 'privacy', vars, 'US')).toEqual({ title: 'Privacy for US residents', html: '<p>US text for Amora.</p>' });
    expect(await service.page('en', 'privacy', vars, 'us')).toEqual({ title: 'Privacy for US residents', html: '<p>US text for Amora.</p>' });
    expect((await service.page('en', 'privacy', vars, 'NL')).html).toBe('<p>GDPR text.</p>');
    expect((await service.page('en', 'privacy', vars, null)).html).toBe('<p>GDPR text.</p>');
    expect((await service.page('en', 'privacy', vars)).html).toBe('<p>GDPR text.</p>');
    // A US visitor reading another language gets that language's page; only listed pages have variants.
    expect((await service.page('nl', 'privacy', vars, 'US')).html).toBe('<p>AVG-tekst.</p>');
    expect((await service.page('en', 'faq', vars, 'US')).html).toBe('<p>Answers.</p>');
    expect(regionalVariant('en', 'US', 'privacy')).toBe('en-US');
    expect(regionalVariant('en', '../US', 'privacy')).toBeNull();
    expect(regionalVariant('de', 'US', 'privacy')).toBeNull();
  });

  it('rejects when neither the language nor English has the page', async () => {
    const dir = tempContent({});
    await expect(createContentService({ contentDir: dir }).page('fr', 'faq', vars)).rejects.toThrow();
  });
});

describe('content folder', () => {
  it('lists the same languages as the language table', () => {
    expect([...LANGUAGE_CODES].sort()).toEqual([...LANGS].sort());
  });

  const known = new Set<string>(PAGE_VAR_KEYS);
  for (const lang of LANGS) {
    for (const slug of PAGE_SLUGS) {
      it(`${lang}/${slug}.md exists, has a title and only known placeholders`, () => {
        const path = join(CONTENT_DIR, lang, `${slug}.md`);
        expect(existsSync(path), path).toBe(true);
        const text = readFileSync(path, 'utf8');
        expect(text.startsWith('# '), path).toBe(true);
        const used = [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]);
        expect(used.filter((name) => !known.has(name)), path).toEqual([]);
        // Single braces around a name are almost always a typo for a placeholder.
        expect(text.replace(/\{\{[^}]*\}\}/g, ''), path).not.toMatch(/[{}]/);
        const html = renderMarkdown(text.slice(text.indexOf('\n') + 1));
        expect(html, path).not.toContain('<h1');
      });
    }
  }

  for (const [folder, slugs] of Object.entries(REGIONAL_VARIANTS)) {
    for (const slug of slugs) {
      it(`${folder}/${slug}.md exists, has a title and only known placeholders`, () => {
        const text = readFileSync(join(CONTENT_DIR, folder, `${slug}.md`), 'utf8');
        expect(text.startsWith('# ')).toBe(true);
        const used = [...text.matchAll(/\{\{\s*([^}]*?)\s*\}\}/g)].map((m) => m[1]);
        expect(used.filter((name) => !known.has(name))).toEqual([]);
        expect(text.replace(/\{\{[^}]*\}\}/g, '')).not.toMatch(/[{}]/);
      });
    }
  }

  it('the US privacy notice has the sections the US footer links to and covers the state privacy rights', async () => {
    const page = await createContentService({ contentDir: CONTENT_DIR }).page('en', 'privacy', vars, 'US');
    expect(page.title).toBe('Privacy Policy for US Residents');
    expect(page.html).toContain('<h2 id="notice-at-collection">');
    expect(page.html).toContain('<h2 id="your-privacy-choices">');
    for (const words of ['do not sell', 'cross-context behavioral advertising', 'Non-discrimination', 'Authorized agents', 'at least 18', 'Sources of personal information', '<strong>Correct</strong>', '<strong>Delete</strong>', 'mailto:support@amora.example']) {
      expect(page.html).toContain(words);
    }
    expect(page.html).not.toContain('{{');
  });

  it('renders every real page with all placeholders filled', async () => {
    const service = createContentService({ contentDir: CONTENT_DIR });
    for (const lang of LANGS) {
      for (const slug of PAGE_SLUGS) {
        const page = await service.page(lang, slug, vars);
        expect(page.title, `${lang}/${slug}`).not.toBe('');
        expect(page.html, `${lang}/${slug}`).not.toContain('{{');
      }
    }
  });
});
