// First: Zod's settings hold for the schemas the modules below make (app/lib/zod-config.ts).
import './lib/zod-config.ts';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { HydratedRouter } from 'react-router/dom';
import { isLanguage } from '#common/languages.ts';
import { loadTranslations, setPageLanguage } from './lib/translations.ts';

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

/**
 * The page's translation table comes as a cached file, not in its loader data (docs/decisions/024): the document's
 * head preloads it, and the page hydrates once it is here, so the first client render says what the server's did.
 * Should it not arrive (twice), the page stays as the server rendered it, which works without JavaScript.
 */
const link = document.querySelector<HTMLLinkElement>('link[data-translations]');
const lang = link?.dataset.lang;
const version = link?.dataset.version;
if (link && isLanguage(lang) && version) {
  setPageLanguage(lang);
  loadTranslations(lang, version)
    .catch(() => new Promise((resolve) => setTimeout(resolve, 1000)).then(() => loadTranslations(lang, version)))
    .then(hydrate, (error: unknown) => console.error('The translations did not load; the page stays as the server rendered it.', error));
} else {
  hydrate();
}
