import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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

/** The head's part: the module preloads, the translation table's preload and the loader. */
function holdHead(html: string, nonce: string | undefined, until: HoldUntil): string {
  return html
    // The module preloads would fetch the scripts at once: they wait, inert, for the loader to restore them.
    .replace(/<link rel="modulepreload"/g, `<link ${HELD_PRELOAD_ATTRIBUTE}=""`)
    // The translation table is fetched when the page starts (app/entry.client.tsx reads this element). A media query
    // that never matches keeps the preload from fetching; the element keeps its rel, href and crossorigin, so React
    // adopts it when the page hydrates instead of adding a preload of its own (a second request).
    .replace(/<link rel="preload" as="fetch"(?=[^>]*data-translations)/, '<link rel="preload" as="fetch" media="not all"')
    .replace('</head>', `<script${nonce ? ` nonce="${nonce}"` : ''}>${LOADERS[until]}</script></head>`);
}

/** React Router's start-up script, inert until the loader starts it; it says when that will be. */
function holdStartUp(html: string, until: HoldUntil): string {
  return html.includes('<script') ? html.replace(START_UP_SCRIPT, `$1 type="${HELD_SCRIPT_TYPE}" data-start="${until}">`) : html;
}

/** The document as it leaves the server, with the page's scripts held until the visitor interacts or it is painted. */
export function holdScriptsInHtml(html: string, nonce: string | undefined, until: HoldUntil): string {
  return holdStartUp(holdHead(html, nonce, until), until);
}

/**
 * `holdScriptsInHtml` on a streamed document: a chunk that ends inside a tag keeps that tag's start back until the
 * next chunk, so every tag is rewritten whole; after the head only the start-up script is looked for. React writes
 * into it directly; `onEnd` runs when the document ends.
 */
export function holdScripts(nonce: string | undefined, until: HoldUntil, onEnd?: () => void): Transform {
  const decoder = new StringDecoder('utf8');
  let carry = '';
  let inHead = true;
  const hold = (html: string) => {
    if (!inHead) return holdStartUp(html, until);
    inHead = !html.includes('</head>');
    return holdScriptsInHtml(html, nonce, until);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const text = carry + decoder.write(chunk);
      const lastTag = text.lastIndexOf('<');
      const open = lastTag >= 0 && text.indexOf('>', lastTag) < 0;
      carry = open ? text.slice(lastTag) : '';
      done(null, hold(open ? text.slice(0, lastTag) : text));
    },
    flush(done) {
      onEnd?.();
      done(null, hold(carry + decoder.end()));
    },
  });
}
