import { asc, eq, or, sql } from 'drizzle-orm';
import { MOLLIE_API_KEY } from '#common/site-settings.ts';
import type { Db } from '../db/client.ts';
import { companies, paymentAccounts, sites } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { createMollieProvider } from '../infra/payments/mollie-provider.ts';
import type { MethodsQuery, PaymentProvider } from '../infra/payments/provider.ts';
import type { TestProvider } from '../infra/payments/test-provider.ts';

/** A provider with the account whose credentials it uses (null: the built-in test provider). */
export interface SiteProvider {
  provider: PaymentProvider;
  accountId: number | null;
}

const METHODS_TTL_MS = 5 * 60_000;

/** Mollie API keys: test_ or live_ followed by 30 letters and digits. */

/** A key shown to the operator: its mode and last 4 characters only. */
export function maskApiKey(key: string | null): string {
  if (!key) return '';
  return `${key.slice(0, key.indexOf('_') + 1)}••••${key.slice(-4)}`;
}
const METHODS_MAX_ENTRIES = 2_000;

/**
 * Which provider takes a site's payments: the site's own payment account, else its company's, else the
 * built-in test provider (the embedded default). Credentials are read here and handed to the provider
 * only; nothing returns them.
 */
export function createPaymentProviders(deps: { db: Db; clock: Clock; testProvider: TestProvider; mollieApiEndpoint?: string }) {
  const { db, clock, testProvider } = deps;
  /** One Mollie client per account and key (a new key after rotation gets a new client). */
  const clients = new Map<string, PaymentProvider>();
  const methodsCache = new Map<string, { at: number; methods: string[] }>();

  function fromAccount(account: typeof paymentAccounts.$inferSelect | undefined): SiteProvider {
    if (!account || account.provider === 'test') return { provider: testProvider, accountId: account?.id ?? null };
    if (!account.apiKey) throw new Error(`Payment account ${account.id} (mollie) has no API key`);
    const cacheKey = `${account.id}:${account.apiKey}`;
    let provider = clients.get(cacheKey);
    if (!provider) {
      provider = createMollieProvider({ apiKey: account.apiKey, apiEndpoint: deps.mollieApiEndpoint });
      clients.set(cacheKey, provider);
    }
    return { provider, accountId: account.id };
  }

  // Every page asks (the test payments banner): prepared once.
  const siteAccounts = db.select().from(paymentAccounts).where(or(
    eq(paymentAccounts.siteId, sql.placeholder('siteId')),
    eq(paymentAccounts.companyId, sql`(select ${sites.companyId} from ${sites} where ${sites.id} = ${sql.placeholder('siteId')})`),
  )).prepare('site_payment_accounts');

  const providers = {
    /** The site's provider: its own account wins over its company's. */
    async forSite(siteId: number): Promise<SiteProvider> {
      const rows = await siteAccounts.execute({ siteId });
      return fromAccount(rows.find((r) => r.siteId === siteId) ?? rows[0]);
    },

    /** The provider of a stored payment or mandate, with the credentials that created it. */
    async forAccount(accountId: number | null): Promise<SiteProvider> {
      if (accountId === null) return { provider: testProvider, accountId: null };
      const [account] = await db.select().from(paymentAccounts).where(eq(paymentAccounts.id, accountId));
      if (!account) throw new Error(`Payment account ${accountId} is gone`);
      return fromAccount(account);
    },

    /**
     * Sets (or replaces) the payment account of a site or of a company: `test` needs no key, `mollie`
     * a Mollie API key. For the operator's command line; nothing on the web reaches it.
     */
    async setAccount(owner: { siteId: number } | { companyId: number }, provider: 'test' | 'mollie', apiKey?: string) {
      if (provider === 'mollie' && !(apiKey && MOLLIE_API_KEY.test(apiKey))) throw new Error('A Mollie API key starts with test_ or live_ followed by at least 30 letters and digits');
      const values = { provider, apiKey: provider === 'mollie' ? apiKey! : null };
      // Updated in place: stored payments and mandates keep pointing at the account (a rotated key
      // fetches them as before).
      const where = 'siteId' in owner ? eq(paymentAccounts.siteId, owner.siteId) : eq(paymentAccounts.companyId, owner.companyId);
      const [updated] = await db.update(paymentAccounts).set(values).where(where).returning({ id: paymentAccounts.id });
      if (!updated) await db.insert(paymentAccounts).values({ ...owner, ...values });
      methodsCache.clear();
    },

    /** Every payment account with its owner; keys masked. */
    async accounts() {
      const rows = await db.select({
        id: paymentAccounts.id, provider: paymentAccounts.provider, apiKey: paymentAccounts.apiKey,
        site: sites.domain, company: companies.name,
      }).from(paymentAccounts)
        .leftJoin(sites, eq(sites.id, paymentAccounts.siteId))
        .leftJoin(companies, eq(companies.id, paymentAccounts.companyId))
        .orderBy(asc(paymentAccounts.id));
      return rows.map(({ apiKey, ...r }) => ({ ...r, key: maskApiKey(apiKey) }));
    },

    /** The provider by the name a webhook gives. */
    isKnown(name: string): name is PaymentProvider['name'] {
      return name === 'test' || name === 'mollie';
    },

    /** The methods a provider offers for one amount and country, cached briefly (they change rarely; pages ask often). */
    async methods(sp: SiteProvider, query: MethodsQuery): Promise<string[]> {
      const key = `${sp.provider.name}:${sp.accountId ?? 0}:${query.sequenceType}:${query.country}:${query.currency}:${query.amountCents}`;
      const now = clock().getTime();
      const held = methodsCache.get(key);
      if (held && now - held.at < METHODS_TTL_MS) return held.methods;
      const methods = await sp.provider.methods(query);
      if (methodsCache.size >= METHODS_MAX_ENTRIES) methodsCache.clear();
      methodsCache.set(key, { at: now, methods });
      return methods;
    },
  };
  return providers;
}

export type PaymentProviders = ReturnType<typeof createPaymentProviders>;
