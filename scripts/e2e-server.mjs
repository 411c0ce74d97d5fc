// Starts the built site for browser tests on a fresh embedded database in test-results/e2e-data.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';

const dataDir = 'test-results/e2e-data';
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, ['build/server/main.js'], {
  stdio: 'inherit',
  // TRUST_PROXY lets a test that creates many members give each its own address for the rate limits.
  env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'production', LOG_LEVEL: 'error', DATABASE_URL: '', TRUST_PROXY: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
