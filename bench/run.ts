/**
 * npm run bench -- <scenario>: runs one benchmark. Each prints `name: value unit` lines and exits with 1
 * when it misses a target (see docs/decisions/024-benchmarks.md).
 */
const SCENARIOS: Record<string, string> = {
  search: 'member search on 1,000,000 profiles (PostgreSQL)',
  api: 'authenticated API requests/s against a bare node:http + pg baseline, and queries per request',
  ssr: 'server rendering of /, /members and /members/{id} against renderToString of the same component tree',
  memory: 'resident memory of the built server on PostgreSQL and on PGlite',
  chat: 'live chat: send-to-socket latency on one and two instances, delivery of 10,000 messages, paid sends/s, memory per connection',
  overload: 'admission control: sends at the sustainable rate and at twice it, on one instance and across two (PostgreSQL, Redis)',
  load: 'simulated members (pages, search, profiles, likes, live chat, purchases) ramping up against two web instances and a worker behind nginx, next to bare node:http + pg',
  reports: 'the reports dashboard over a year of a 1,000,000-member site (PostgreSQL)',
  lighthouse: 'Lighthouse (mobile) scores, LCP, TBT and CLS of /, a lander, /members, /members/{id} and /chats',
};

const scenario = process.argv[2];
if (!scenario || !Object.hasOwn(SCENARIOS, scenario)) {
  console.error(`${scenario ? `Unknown scenario: ${scenario}` : 'Which scenario?'}\nUsage: npm run bench -- <scenario>\n\nScenarios:`);
  for (const [key, what] of Object.entries(SCENARIOS)) console.error(`  ${key.padEnd(10)} ${what}`);
  process.exit(2);
}
await import(`./${scenario}.ts`);

export {};
