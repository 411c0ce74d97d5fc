// Bundles the HTTP server (server/main.ts) and the migration command (server/cli/migrate-cli.ts, for images without
// tsx) into plain JavaScript beside React Router's server build.
import { writeFile } from 'node:fs/promises';
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' };
await build({ ...common, entryPoints: ['server/main.ts'], outfile: 'build/server/server.js' });
await build({ ...common, entryPoints: ['server/cli/migrate-cli.ts'], outfile: 'build/server/migrate.js' });

// The start file: production unless NODE_ENV says otherwise, set before any package is loaded (React and others
// choose their development or production build by NODE_ENV when first imported; `npm start` sets none).
await writeFile('build/server/main.js', `// Built by scripts/build-server.mjs.
process.env.NODE_ENV ??= 'production';
await import('./server.js');
`);
