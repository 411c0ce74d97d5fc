import { use } from 'react';
import { UNSAFE_FrameworkContext, useMatches } from 'react-router';

/**
 * The matched routes' stylesheets as React stylesheet resources (`precedence`), in place of React Router's
 * `<Links />` in the production build. React writes resources at the top of the document's head, in this order:
 * the high-priority image preloads (a page's first photo), these stylesheets, then the module preloads of the
 * page's scripts. As plain links after them, the stylesheet that holds the first paint waited behind some forty
 * script downloads on a connection limited to six at a time (HTTP/1.1): first paint 2.4–3.1 s in Lighthouse's
 * mobile run instead of about 1 s. On a client-side navigation React adds a new route's stylesheet and shows the
 * page once it has loaded. The hrefs are the browser manifest's, so a site with a cdn_prefix loads them from its
 * CDN (server/pages.ts).
 */
export function Stylesheets() {
  const framework = use(UNSAFE_FrameworkContext);
  const matches = useMatches();
  if (!framework) return null;
  const hrefs = new Set(matches.flatMap((match) => framework.manifest.routes[match.id]?.css ?? []));
  return [...hrefs].map((href) => <link key={href} rel="stylesheet" href={href} precedence="default" />);
}
