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
    include: ['server/**/*.test.ts', 'common/**/*.test.ts', 'app/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
    globalSetup: ['./tests/global-setup.ts'],
    setupFiles: ['./tests/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
