import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', '.react-router/', 'data/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Entry points parse input, call a use case and shape its answer: the database, the photo files and the
    // payment providers are reached through the use cases only (decision 036).
    files: ['server/**/*.routes.ts', 'server/**/*.server.ts', 'app/**/*.ts', 'app/**/*.tsx'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'drizzle-orm', message: 'Entry points call use cases; queries belong to the area\'s service.' },
          // The shell chunk holds what the shell routes import (vite.config.ts): through the index, that is every component.
          { name: 'react-bootstrap', message: 'Import each component from its own module: react-bootstrap/Button.' },
        ],
        patterns: [{
          group: ['**/db/*', '#server/db/*', '**/infra/payments/*', '**/infra/storage*'],
          message: 'Entry points call use cases; the database, storage and payment providers sit behind them.',
        }],
      }],
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    // Playwright fixtures call a function named `use`, which is not React's.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'react-hooks/rules-of-hooks': 'off' },
  },
);
