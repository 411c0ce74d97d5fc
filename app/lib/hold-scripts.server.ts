import { HELD_PRELOAD_ATTRIBUTE, HELD_SCRIPT_TYPE, hydrateOnInteraction, SIGNUP_PATH, SMARTPHONE_AGENT, SMARTPHONE_MEDIA } from './hydrate-on-interaction.ts';

/** Until when a page's scripts wait: the visitor's first interaction (landing pages) or the page's first paint. */
export type HoldUntil = 'interaction' | 'first-paint';

// Inline on every page: the function's source without its indentation (it has no string that spans lines).
const SOURCE = hydrateOnInteraction.toString().replace(/^\s+/gm, '');
const ARGUMENTS = [JSON.stringify(HELD_SCRIPT_TYPE), JSON.stringify(SMARTPHONE_MEDIA), SMARTPHONE_AGENT.toString(), SIGNUP_PATH.toString(), JSON.stringify(HELD_PRELOAD_ATTRIBUTE)].join(',');
const LOADERS: Record<HoldUntil, string> = {
  'interaction': `(${SOURCE})(${ARGUMENTS},false)`,
  'first-paint': `(${SOURCE})(${ARGUMENTS},true)`,
};

const START_UP_SCRIPT = /(<script(?: nonce="[^"]*")?) type="module" async="">/g;

/** The head's part: the module preloads and the translation table's preload. */
function holdHead(head: string): string {
  return head
    // The module preloads would fetch the scripts at once: they wait, inert, for the loader to restore them.
    .replace(/<link rel="modulepreload"/g, `<link ${HELD_PRELOAD_ATTRIBUTE}=""`)
    // The translation table is fetched when the page starts (app/entry.client.tsx reads this element). A media query
    // that never matches keeps the preload from fetching; the element keeps its rel, href and crossorigin, so React
    // adopts it when the page hydrates instead of adding a preload of its own (a second request).
    .replace(/<link rel="preload" as="fetch"(?=[^>]*data-translations)/, '<link rel="preload" as="fetch" media="not all"');
}

/** React Router's start-up script, inert until the loader starts it; it says when that will be. */
function holdStartUp(body: string, until: HoldUntil): string {
  return body.replace(START_UP_SCRIPT, `$1 type="${HELD_SCRIPT_TYPE}" data-start="${until}">`);
}

/**
 * The document as it leaves the server, with the page's scripts held until the visitor interacts or it is painted:
 * the head's preloads inert and the loader at its end, the body's start-up script inert.
 */
export function holdScripts(html: string, nonce: string | undefined, until: HoldUntil): string {
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return holdStartUp(html, until);
  const loader = `<script${nonce ? ` nonce="${nonce}"` : ''}>${LOADERS[until]}</script>`;
  return holdHead(html.slice(0, headEnd)) + loader + holdStartUp(html.slice(headEnd), until);
}
