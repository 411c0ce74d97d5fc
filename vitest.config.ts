import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: [
      { find: /^#server\/(.*)$/, replacement: new URL('./server/$1', import.meta.url).pathname },
      { find: /^#common\/(.*)$/, replacement: new URL('./common/$1', import.meta.url).pathname },
      { find: /^#app\/(.*)$/, replacement: new URL('./app/$1', import.meta.url).pathname },
      { find: /^#locales\/(.*)$/, replacement: new URL('./locales/$1', import.meta.url).pathname },
    ],
  },
  test: {
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'tests/deploy/**/*.test.ts'],
    globalSetup: ['./tests/global-setup.ts'],
    setupFiles: ['./tests/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // A worker keeps the modules it loaded from one test file to the next: every file builds its own app and
    // database, and loading the server's modules (and the password dictionaries) again per file cost more than
    // the tests. Tests that stub globals or timers put them back (afterEach).
    isolate: false,
  },
});
