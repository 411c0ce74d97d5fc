import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  css: { preprocessorOptions: { scss: { quietDeps: true, silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'] } } },
  server: { hmr: { port: 24678 } },
  experimental: {
    // In the browser, chunks and stylesheets find each other relative to their own URL (not '/assets/…'), so a
    // site with a cdn_prefix loads every one of them from its CDN (docs/decisions/038).
    renderBuiltUrl: (_file, { hostType, ssr }) => (!ssr && (hostType === 'js' || hostType === 'css') ? { relative: true } : undefined),
  },
});
