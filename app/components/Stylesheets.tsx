import { use } from 'react';
import { preload } from 'react-dom';
import { UNSAFE_FrameworkContext, useMatches } from 'react-router';
import latinFont from '@fontsource-variable/figtree/files/figtree-latin-wght-normal.woff2?url';

/** The built font file's name: the same on the server and in the browser, wherever the build's URLs point. */
const LATIN_FONT_FILE = latinFont.slice(latinFont.lastIndexOf('/') + 1);

/**
 * The matched routes' stylesheets as React stylesheet resources (`precedence`), in place of React Router's
 * `<Links />` in the production build. React writes resources at the top of the document's head, in this order:
 * the high-priority image preloads (a page's first photo), these stylesheets, then the module preloads of the
 * page's scripts. As plain links after them, the stylesheet that holds the first paint waited behind some forty
 * script downloads on a connection limited to six at a time (HTTP/1.1): first paint 2.4–3.1 s in Lighthouse's
 * mobile run instead of about 1 s. On a client-side navigation React adds a new route's stylesheet and shows the
 * page once it has loaded. The hrefs are the browser manifest's, so a site with a cdn_prefix loads them from its
 * CDN (server/pages.ts).
 *
 * The font's Latin file (docs/decisions/086) is preloaded beside them, from where the app's stylesheet comes (this
 * server or the site's CDN, the URL its @font-face names), so the text swaps to it before or right at the first paint.
 */
export function Stylesheets() {
  const framework = use(UNSAFE_FrameworkContext);
  const matches = useMatches();
  if (!framework) return null;
  const hrefs = new Set(matches.flatMap((match) => framework.manifest.routes[match.id]?.css ?? []));
  const app = framework.manifest.routes.root?.css?.[0];
  if (app) preload(app.slice(0, app.lastIndexOf('/') + 1) + LATIN_FONT_FILE, { as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' });
  return [...hrefs].map((href) => <link key={href} rel="stylesheet" href={href} precedence="default" />);
}
