import { resolve } from 'node:path';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

const CLIENT_ROUTE = '?__react-router-build-client-route';
/** The routes around every page that runs at load: the root, the default layout (most pages) and its error boundary. */
const SHELL_ROUTES = ['app/root.tsx', 'app/layouts/default.tsx', 'app/layouts/page-boundary.tsx'].map((file) => resolve(file));
const SHELL_ENTRIES = [resolve('app/entry.client.tsx'), ...SHELL_ROUTES.map((route) => `${route}${CLIENT_ROUTE}`)];
const STYLESHEET = /\.s?css(\?|$)/;
type ChunkingContext = { getModuleInfo(id: string): { importedIds: readonly string[] } | null };
const shells = new WeakMap<ChunkingContext, Set<string>>();

/**
 * The shell chunk: every module that the entry and the shell routes import, in one file instead of some forty small
 * shared chunks, each a request of its own before the first paint on a connection limited to six at a time. The
 * route modules stay in their own chunks (React Router loads them by name), and stylesheets stay with the modules
 * that import them: the app's stylesheet belongs to the root route alone (docs/decisions/045).
 */
function inShell(id: string, ctx: ChunkingContext): boolean {
  let shell = shells.get(ctx);
  if (!shell) {
    shell = new Set();
    const queue = [...SHELL_ENTRIES];
    while (queue.length) {
      const next = queue.pop()!;
      if (shell.has(next)) continue;
      shell.add(next);
      queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
    }
    for (const own of [...SHELL_ENTRIES, ...SHELL_ROUTES]) shell.delete(own);
    shells.set(ctx, shell);
  }
  return shell.has(id) && !STYLESHEET.test(id);
}

export default defineConfig(({ command }) => ({
  plugins: [reactRouter()],
  css: { preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] } } },
  server: { hmr: { port: 24678 } },
  // Pages import react-bootstrap's components one by one (react-bootstrap/Button), and those import their helpers the
  // same way (dom-helpers/css): folders that Node cannot import by name, so the server bundles these packages. The
  // build also bundles the @restart packages, whose ES modules import each other without file extensions; the dev
  // server loads those as CommonJS instead, which its module runner does not evaluate.
  ssr: { noExternal: ['react-bootstrap', 'dom-helpers', 'react-transition-group', ...(command === 'build' ? ['@restart/ui', '@restart/hooks', 'uncontrollable'] : [])] },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [{ name: (id, ctx) => (inShell(id, ctx) ? 'shell' : null) }],
            },
          },
        },
      },
    },
  },
  experimental: {
    renderBuiltUrl: (_file, { hostType, ssr }) => (!ssr && (hostType === 'js' || hostType === 'css') ? { relative: true } : undefined),
  },
}));
