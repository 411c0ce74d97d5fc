import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';

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
          // Its bar's width is a style attribute, which the Content-Security-Policy refuses (docs/decisions/052).
          { name: 'react-bootstrap/ProgressBar', message: 'Use components/Progress.tsx: a native <progress>, no style attribute.' },
        ],
        patterns: [{
          group: ['**/db/*', '#server/db/*', '**/infra/payments/*', '**/infra/storage*'],
          message: 'Entry points call use cases; the database, storage and payment providers sit behind them.',
        }],
      }],
    },
  },
  {
    // The Content-Security-Policy refuses style attributes in the server's HTML (docs/decisions/052): a page's look
    // comes from classes. A style the browser alone sets (an element the server never renders with it) is allowed
    // through the CSSOM; such a prop says so with a disable comment and its reason.
    files: ['app/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'JSXAttribute[name.name="style"]',
        message: 'The server\'s HTML may carry no style attribute (strict CSP, docs/decisions/052): use a class, or set it in the browser only.',
      }],
    },
  },
  {
    // The layers of server/ (decision 053): an import goes sideways or down, never up. From the top: composition
    // (wiring, app, pages, subscribers, command-line tools, seeding), entry points (routes, page loaders, HTTP
    // helpers, the live socket), use cases (the areas' rules and queries), base (env, paths, actor, database,
    // i18n, infra adapters, HTML helpers, common/). The first pattern a file matches decides its layer.
    files: ['server/**/*.ts', 'common/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/include': ['server/**/*', 'common/**/*'],
      // Layers are told by file, not folder (a routes file sits in its area's folder): 'mode: file', which 7.x
      // keeps and marks for removal in a later major version; its notice is turned off.
      'boundaries/legacy-warnings': false,
      'boundaries/ignore': ['**/*.test.ts'],
      'boundaries/elements': [
        { type: 'composition', mode: 'file', pattern: ['server/{services,app,pages,subscribers,main}.ts', 'server/cli/**/*.ts', 'server/seed/**/*.ts', 'server/**/*-cli.ts'] },
        { type: 'entry', mode: 'file', pattern: ['server/**/*.routes.ts', 'server/**/*.server.ts', 'server/http/**/*.ts', 'server/live/**/*.ts', 'server/dev-tools/**/*.ts'] },
        { type: 'base', mode: 'file', pattern: ['common/**/*.ts', 'server/{env,paths,actor}.ts', 'server/db/**/*.ts', 'server/i18n/**/*.ts', 'server/infra/**/*.ts'] },
        { type: 'usecase', mode: 'file', pattern: ['server/*.ts', 'server/*/**/*.ts'] },
      ],
    },
    rules: {
      'boundaries/dependencies': ['error', {
        default: 'disallow',
        policies: [
          { from: { element: { type: 'composition' } }, allow: { to: { element: { types: { anyOf: ['composition', 'entry', 'usecase', 'base'] } } } } },
          { from: { element: { type: 'entry' } }, allow: { to: { element: { types: { anyOf: ['entry', 'usecase', 'base'] } } } } },
          { from: { element: { type: 'usecase' } }, allow: { to: { element: { types: { anyOf: ['usecase', 'base'] } } } } },
          { from: { element: { type: 'base' } }, allow: { to: { element: { types: { anyOf: ['base'] } } } } },
        ],
      }],
    },
  },
  {
    // infra/ holds adapters: HTTP routes and handlers live in http/, dev-tools/ or their area (decision 053); a
    // type such as the status code of an AppError is no route.
    files: ['server/infra/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['hono', 'hono/*', '@hono/*'], allowTypeImports: true, message: 'No HTTP in infra/: routes belong to http/, dev-tools/ or their area.' }],
      }],
    },
  },
  {
    files: ['**/*.test.ts', 'tests/**/*.ts'],
    // Playwright fixtures call a function named `use`, which is not React's.
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'react-hooks/rules-of-hooks': 'off' },
  },
);
