// The whole suite: unit and integration tests (PGlite, and PostgreSQL when reachable), then browser tests.
// Ends with each part's count and time, then one line of totals: "Tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

// Not in test-results/: Playwright empties that folder when it starts.
mkdirSync('reports', { recursive: true });
const VITEST_JSON = 'reports/vitest.json';
const PLAYWRIGHT_JSON = 'reports/playwright.json';
for (const f of [VITEST_JSON, PLAYWRIGHT_JSON]) rmSync(f, { force: true });

// The build comes first: the unit phase's deployment tests start the built server (a page during a database
// outage), and the browser tests run on the same build.
const steps = [
  ['build', 'npm', ['run', 'build'], {}],
  ['unit and integration tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`], {}],
  ['browser tests', 'sh', ['-c', 'node scripts/ensure-chromium.mjs && npx playwright test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: PLAYWRIGHT_JSON }],
];
let ok = true;
const seconds = [];
for (const [name, cmd, args, env] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  seconds.push((Date.now() - started) / 1000);
  if (r.status !== 0) {
    ok = false;
    break;
  }
}

const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : null);
const vitest = read(VITEST_JSON);
const playwright = read(PLAYWRIGHT_JSON);
const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0);
const failed = (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0);
const skipped = (vitest?.numPendingTests ?? 0) + (playwright?.stats?.skipped ?? 0);
const time = (s) => (s === undefined ? 'not run' : `${Math.floor(s / 60)} min ${Math.floor(s % 60)} s`);
const part = (name, counts, s) => console.log(`${name}: ${counts ? `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped` : 'no report'} in ${time(s)}`);
console.log('');
console.log(`Build: ${time(seconds[0])}`);
part('Unit and integration tests', vitest && { passed: vitest.numPassedTests, failed: vitest.numFailedTests, skipped: vitest.numPendingTests }, seconds[1]);
part('Browser tests', playwright && { passed: playwright.stats.expected, failed: playwright.stats.unexpected + playwright.stats.flaky, skipped: playwright.stats.skipped }, seconds[2]);
console.log(`All in ${time(seconds.reduce((a, b) => a + b, 0))}`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(ok && failed === 0 ? 0 : 1);
