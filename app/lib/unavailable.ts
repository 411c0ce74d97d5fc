import { isRouteErrorResponse } from 'react-router';
import { isLanguage, type Language } from '#common/languages.ts';

/** A page that could not load because a service was away: what its error page shows. */
interface Unavailable {
  /** The server's message, in the visitor's language; empty when the answer had none (the page's own text then). */
  message: string;
  /** The visitor's language and the translation files' version, when the server's page said them (server/pages.ts). */
  lang?: Language;
  i18nVersion?: string;
}

/**
 * Whether a route error is a 503, and what it says. The server's pages answer an outage with the API's error shape
 * plus the visitor's language (server/pages.ts); any other 503 a `.data` request meets (admission control's, the API
 * error handler's) comes to the browser as its JSON text, read here as well, so the page says to try again in a
 * moment rather than showing the text.
 */
export function unavailableError(error: unknown): Unavailable | null {
  if (!isRouteErrorResponse(error) || error.status !== 503) return null;
  let body: unknown = error.data;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      body = null;
    }
  }
  const fields = (body && typeof body === 'object' ? body : {}) as { error?: { message?: unknown }; lang?: unknown; i18nVersion?: unknown };
  const message = fields.error?.message;
  return {
    message: typeof message === 'string' ? message : '',
    ...(isLanguage(fields.lang) ? { lang: fields.lang } : {}),
    ...(typeof fields.i18nVersion === 'string' ? { i18nVersion: fields.i18nVersion } : {}),
  };
}
