import { useEffect, useState } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteError, useRouteLoaderData } from 'react-router';
import { QueryClientProvider } from './lib/query.ts';
import { languageIso } from '#common/languages.ts';
import type { Route } from './+types/root';
import { requestContext } from './context.ts';
import { consoleLanguage, isConsolePath } from '#server/http/console-pages.server.ts';
import { usePageBounceLog } from './lib/page-bounce.ts';
import { pageMeta } from './lib/seo.ts';
import { createQueryClient } from './lib/query-client.ts';
import { createI18n, I18nProvider } from './lib/i18n.ts';
import { pageLanguage, translationTable } from './lib/translations.ts';
import { translationsUrl } from '#common/translations.ts';
import { LoadingBar } from './components/LoadingBar.tsx';
import { ChunkReload } from './components/ChunkReload.tsx';
import { ErrorContent } from './components/ErrorContent.tsx';
import { Stylesheets } from './components/Stylesheets.tsx';
import { useAppShell } from './lib/app-shell.ts';
import { TestPaymentsBanner } from './features/credits/TestPaymentsBanner.tsx';
import { useModalTabTrap } from './lib/focus-trap.ts';
import { replayTypedBeforeHydration } from './lib/typed-before-hydration.ts';
import { DISMISS_KEYS, dismissedInCookie } from '#common/constants.ts';
import { unavailableError } from './lib/unavailable.ts';
import { memberTimeZone, timeZoneFromCookie } from '#common/time-zone.ts';
import { selectedCountry } from '#common/site-settings.ts';
import './styles/app.scss';

export async function loader({ context, request }: Route.LoaderArgs) {
  const ctx = context.get(requestContext);
  // The console is staff's: a member's own data never reaches its pages, which speak the staff member's language.
  const inConsole = isConsolePath(new URL(request.url).pathname);
  const user = inConsole ? null : await ctx.user();
  const lang = inConsole ? await consoleLanguage(ctx) : ctx.lang;
  const settings = ctx.services.settings.publicSettings(ctx.site, { geoipCountry: ctx.geoipCountry, geoipSelectedCountry: selectedCountry(ctx.site, ctx.geoipCountry) });
  return {
    lang,
    /** The translation files' version: the table itself is a cached file, not loader data (app/lib/translations.ts). */
    i18nVersion: ctx.translator.version,
    settings: { ...settings, push_public_key: await ctx.services.push.publicKey() },
    /** A stored or current traffic source (network), for sign-up gating. */
    trafficsource: Boolean(ctx.tracking?.network),
    /** The country whose languages the language choices offer first: the visitor's GeoIP country, where the site lets it preselect. */
    languageCountry: ctx.site.geoipPreselect ? ctx.geoipCountry : null,
    user,
    /** The visitor accepted the entry warning before (the dismissals cookie): the server leaves it out. */
    entryWarningDismissed: dismissedInCookie(request.headers.get('cookie')).includes(DISMISS_KEYS.entryWarning),
    /** The zone times are shown in: the device's (its cookie), else the member's country's (docs/decisions/079). */
    timeZone: memberTimeZone(timeZoneFromCookie(request.headers.get('cookie')), user?.profile.country),
    nonce: ctx.nonce,
    /** The site's colours: a stylesheet whose URL changes with them (docs/decisions/052). */
    siteStylesheet: ctx.services.settings.themeStylesheet(ctx.site).href,
    /** The site's canonical origin: canonical URLs and Open Graph name pages there, whatever host served them. */
    origin: ctx.baseUrl,
    /** Simulated payments show a banner (see TestPaymentsBanner). */
    testPayments: await ctx.services.payments.testPayments(ctx.site.id),
    /** A stored payment method: the credits item leads to one-click repeat orders. */
    repeatOrder: user?.paid_user ? await ctx.services.payments.hasRepeatOrder(ctx.actor) : false,
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * The page's language: the root's data, else (a service was away) the unavailable page's answer, else in the browser
 * the language the page hydrated in.
 */
function languageOf(data: RootData | undefined, error: unknown) {
  return data?.lang ?? unavailableError(error)?.lang ?? pageLanguage();
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData('root') as RootData | undefined;
  const error = useRouteError();
  const unavailable = unavailableError(error);
  const lang = languageOf(data, error) ?? 'en';
  const i18nVersion = data?.i18nVersion ?? unavailable?.i18nVersion;
  return (
    <html lang={languageIso(lang)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content={data?.settings.theme.dark ?? '#2b1740'} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/app-icon-192.png" />
        {data && <SiteMeta data={data} />}
        {/* The page's translations, which app/entry.client.tsx awaits before it hydrates (fetch, so crossOrigin). */}
        {i18nVersion && (
          <link
            rel="preload" as="fetch" crossOrigin="anonymous" href={translationsUrl(lang, i18nVersion)}
            data-translations="" data-lang={lang} data-version={i18nVersion}
          />
        )}
        <Meta />
        {/* Development: React Router's links carry the critical CSS that spares a flash of unstyled content. */}
        {import.meta.env.DEV ? <Links /> : <Stylesheets />}
        {/* After the bundle's CSS: the site's colours override the built theme (docs/decisions/038, 052). */}
        {data && <link rel="stylesheet" href={data.siteStylesheet} data-site-theme="" />}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={data?.nonce} />
        <Scripts nonce={data?.nonce} />
      </body>
    </html>
  );
}

/** The canonical URL (the language is not in it: one URL per page, served in the reader's language) and the site's Open Graph tags. */
function SiteMeta({ data }: { data: RootData }) {
  const { pathname } = useLocation();
  const url = data.origin + pathname;
  return (
    <>
      <link rel="canonical" href={url} />
      <meta property="og:site_name" content={data.settings.name} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={url} />
      <meta property="og:locale" content={languageIso(data.lang).replace('-', '_')} />
    </>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const [i18n] = useState(() => createI18n(loaderData.lang, translationTable(loaderData.lang) ?? {}));
  const [queryClient] = useState(createQueryClient);
  usePageBounceLog();
  // `<html data-hydrated>`: the page runs in the browser and its controls respond (tests wait for it). What was
  // typed before that reaches the page's state first.
  useEffect(() => {
    replayTypedBeforeHydration();
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  useModalTabTrap();
  useAppShell(loaderData.lang);
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <LoadingBar />
        <ChunkReload />
        <TestPaymentsBanner mode={loaderData.testPayments} />
        <Outlet />
      </QueryClientProvider>
    </I18nProvider>
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta(matches);
}

/**
 * An error outside every layout (the root's own loader failed): the message on a bare page, in the language of the
 * root's data or of the unavailable page's answer.
 */
export function ErrorBoundary() {
  const data = useRouteLoaderData('root') as RootData | undefined;
  const error = useRouteError();
  const lang = languageOf(data, error);
  const [i18n] = useState(() =>
    createI18n(lang ?? 'en', (lang && translationTable(lang)) ?? {
      error_page: { not_found: 'This page could not be found', back_home: 'Back to the home page', error: 'Error', go_home: 'Go back to home', try_again: 'Try again' },
      errors: { unavailable: 'Something is briefly unavailable on our side. Please try again in a moment.' },
    }),
  );
  return (
    <I18nProvider i18n={i18n}>
      <main><ErrorContent /></main>
    </I18nProvider>
  );
}
