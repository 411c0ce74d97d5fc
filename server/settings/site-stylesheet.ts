import { createHash } from 'node:crypto';
import { siteThemeCss } from '#common/site-theme.ts';
import type { Site } from './site-cache.ts';

/** The path of a site's colours as a stylesheet (docs/decisions/052); `?v=` names their content. */
export const SITE_STYLESHEET_PATH = '/site.css';

export interface SiteStylesheet {
  /** The CSS: Bootstrap's theme and component variables in the site's colours (docs/decisions/038). */
  css: string;
  /** A hash of the CSS: it changes with the colours, so the versioned URL can be cached for a year. */
  version: string;
  /** What the pages link: the path with the version. */
  href: string;
}

/** Sites share few colour sets, and a set's CSS never changes within a release: each is built once. */
const built = new Map<string, SiteStylesheet>();
const MAX_BUILT = 500;

/** A site's colours as a stylesheet of this server (not its CDN: the CDN's host would name another site). */
export function siteStylesheet(site: Pick<Site, 'themePrimary' | 'themeSecondary' | 'themeDark'>): SiteStylesheet {
  const key = `${site.themePrimary}${site.themeSecondary}${site.themeDark}`;
  let sheet = built.get(key);
  if (!sheet) {
    const css = siteThemeCss({ primary: site.themePrimary, secondary: site.themeSecondary, dark: site.themeDark });
    const version = createHash('sha256').update(css).digest('base64url').slice(0, 16);
    sheet = { css, version, href: `${SITE_STYLESHEET_PATH}?v=${version}` };
    if (built.size >= MAX_BUILT) built.clear();
    built.set(key, sheet);
  }
  return sheet;
}
