// The whole suite: unit and integration tests (PGlite, and PostgreSQL when reachable), then browser tests.
import { spawnSync } from 'node:child_process';

const steps = [
  ['unit and integration tests', 'npx', ['vitest', 'run']],
  ['browser tests', 'npm', ['run', 'test:e2e']],
];
const results = [];
for (const [name, cmd, args] of steps) {
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  results.push([name, r.status === 0]);
  if (r.status !== 0) break;
}
const passed = results.filter(([, ok]) => ok).length;
const failed = results.length - passed + (steps.length - results.length);
console.log(`\nSuites: ${results.map(([n, ok]) => `${n} ${ok ? 'passed' : 'FAILED'}`).join(', ')}`);
process.exit(failed === 0 ? 0 : 1);
