// `npm run payments:account -- --list`
// `npm run payments:account -- --site <domain> | --company <id> --provider test|mollie` (a Mollie key is read from stdin)
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { sites } from '../db/schema.ts';
import { loadEnv } from '../env.ts';
import { systemClock } from '../infra/clock.ts';
import { createTestProvider } from '../infra/payments/test-provider.ts';
import { ROOT_DIR } from '../paths.ts';
import { createPaymentProviders } from '../payments/providers.ts';

const USAGE = 'Usage: npm run payments:account -- --list | (--site <domain> | --company <id>) --provider test|mollie  (pipe the Mollie API key in: never on the command line)';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  let data = '';
  for await (const chunk of process.stdin) data += chunk;
  return data.trim();
}

const { values } = parseArgs({ options: { list: { type: 'boolean' }, site: { type: 'string' }, company: { type: 'string' }, provider: { type: 'string' } } });
const env = loadEnv();
const dataDir = resolve(ROOT_DIR, env.DATA_DIR);
const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATABASE_URL ? null : join(dataDir, 'db') });
try {
  await database.migrate();
  const db = database.db;
  const providers = createPaymentProviders({ db, clock: systemClock, testProvider: createTestProvider({ db, clock: systemClock }) });
  const provider = values.provider;
  if (values.list) {
    const accounts = await providers.accounts();
    if (!accounts.length) console.log('No payment accounts: every site uses the built-in test provider.');
    for (const a of accounts) console.log(`${a.site ? `site ${a.site}` : `company ${a.company}`}\t${a.provider}\t${a.key}`);
  } else if ((values.site || values.company) && (provider === 'test' || provider === 'mollie')) {
    let owner: { siteId: number } | { companyId: number };
    if (values.site) {
      const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.domain, values.site));
      if (!site) throw new Error(`No site with domain ${values.site}`);
      owner = { siteId: site.id };
    } else {
      if (!/^\d+$/.test(values.company!)) throw new Error('--company takes a company id');
      owner = { companyId: Number(values.company) };
    }
    await providers.setAccount(owner, provider, provider === 'mollie' ? await readStdin() : undefined);
    console.log(`Payments of ${values.site ? `site ${values.site}` : `company ${values.company}`} now go through ${provider}. Running servers pick it up with the next order.`);
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
