import { and, asc, eq } from 'drizzle-orm';
import type { CreditPackage } from '#common/api-types.ts';
import { currencyForCountry, FREE_CONVERSATIONS, FREE_PHOTO_LIMIT, PREMIUM_PHOTO_LIMIT } from '#common/constants.ts';
import { requireMember, type Actor } from '../actor.ts';
import type { Db } from '../db/client.ts';
import { creditPackagePrices, creditPackages, profiles } from '../db/schema.ts';
import { AppError } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import { siteOf } from '../accounts/contact-rules.ts';
import type { Site } from '../settings/settings.service.ts';
import type { DiscountsService } from './discounts.service.ts';
import type { PaymentProviders } from './providers.ts';
import { atProvider } from './orders.ts';
import { codeFromLink, type CodeRefusal } from './link-codes.ts';

/** Who is paying and how: the payer's country and the currency they pay in. */
export interface Payer {
  /** A member's profile country; a visitor's (GeoIP) country, else their site's first; null when neither is known. */
  country: string | null;
  currency: string;
}

/** What the catalogue's use cases take besides the actor: where the request says a visitor is (GeoIP), for visitors only. */
export interface CatalogueInput {
  visitorCountry: string | null;
}

/**
 * The bundles and payment methods a payer sees, and the credits and premium pages' offer: members pay in the
 * currency of their profile's country, visitors in their (or their site's first) country's.
 */
export function createCatalogue(deps: {
  db: Db;
  providers: PaymentProviders;
  site: (siteId: number) => Promise<Site>;
  discounts: Pick<DiscountsService, 'quote'>;
  /** The look-ups of discount codes, which codes in the credits page's link count against too. */
  discountCodeLimit?: RateLimiter;
}) {
  const { db, providers } = deps;

  function siteIdOf(actor: Actor): number {
    const siteId = siteOf(actor);
    if (siteId === null) throw new AppError(403, 'forbidden');
    return siteId;
  }

  async function payer(actor: Actor, input: CatalogueInput): Promise<Payer> {
    let country: string | null;
    if (actor.kind === 'member') {
      const [row] = await db.select({ country: profiles.country }).from(profiles).where(eq(profiles.userId, actor.userId));
      country = row?.country ?? null;
    } else {
      country = input.visitorCountry ?? (await deps.site(siteIdOf(actor))).countries[0] ?? null;
    }
    return { country, currency: currencyForCountry(country) };
  }

  async function packages(currency: string): Promise<CreditPackage[]> {
    const rows = await db
      .select({ id: creditPackages.id, credits: creditPackages.credits, popular: creditPackages.popular, amount: creditPackagePrices.amountCents })
      .from(creditPackages)
      .innerJoin(creditPackagePrices, and(eq(creditPackagePrices.packageId, creditPackages.id), eq(creditPackagePrices.currency, currency)))
      .where(eq(creditPackages.active, true))
      .orderBy(asc(creditPackages.sort), asc(creditPackages.credits));
    return rows.map((r) => ({ ...r, currency }));
  }

  /**
   * The methods the site's provider offers the payer, per bundle (methods depend on amount, currency and
   * country). `recurring`: the methods that can start a mandate for repeat orders.
   */
  async function methods(actor: Actor, input: CatalogueInput) {
    const [{ country, currency }, sp] = await Promise.all([payer(actor, input), providers.forSite(siteIdOf(actor))]);
    const bundles = await packages(currency);
    const forSequence = async (sequenceType: 'oneoff' | 'first') => {
      const byPackage = await Promise.all(bundles.map(async (p) => ({
        id: p.id, methods: await atProvider(() => providers.methods(sp, { amountCents: p.amount, currency, country: country ?? '', sequenceType })),
      })));
      const all = [...new Set(byPackage.flatMap((p) => p.methods))];
      return all.map((id) => ({ id, package_ids: byPackage.filter((p) => p.methods.includes(id)).map((p) => p.id) }));
    };
    const [oneoff, recurring] = await Promise.all([forSequence('oneoff'), forSequence('first')]);
    return { provider: sp.provider.name, methods: oneoff, recurring };
  }

  /** The bundles in the payer's currency with what the pricing and premium pages say of them (the rules the services enforce). */
  async function catalogue(actor: Actor, input: CatalogueInput) {
    const [{ currency }, site] = await Promise.all([payer(actor, input), deps.site(siteIdOf(actor))]);
    return {
      packages: await packages(currency), currency, messageCredits: site.messageCredits,
      facts: {
        freePhotos: FREE_PHOTO_LIMIT, premiumPhotos: PREMIUM_PHOTO_LIMIT, freeConversations: FREE_CONVERSATIONS,
        freeMessages: site.freeMessages, messageCredits: site.messageCredits,
      },
    };
  }

  return {
    payer,
    packages,
    methods,
    catalogue,

    /**
     * What a purchase form needs (the credits, premium and direct-debit pages): the catalogue, the methods the site's
     * provider offers the member (null while it does not answer: the page still shows the bundles), and the prices
     * with the member's active discount (the rule that prices the order, so the price shown is the price charged),
     * with the code the link brought (`code`) and why it cannot be used (`codeRefusal`, for the page to say).
     */
    async purchase(actor: Actor, input: { code: string | null }) {
      const { userId } = requireMember(actor);
      const offer = await catalogue(actor, { visitorCountry: null });
      const [available, link] = await Promise.all([
        methods(actor, { visitorCountry: null }).catch(() => null), codeFromLink(deps.discountCodeLimit, userId, input.code),
      ]);
      const quote = await deps.discounts.quote(actor, offer.packages, link.code);
      const refusal: CodeRefusal | null = link.refusal ?? (quote.error ? { code: quote.error.code, params: quote.error.params } : null);
      return { ...offer, methods: available, prices: quote.prices, code: quote.code, codeRequested: input.code?.trim() || null, codeRefusal: refusal };
    },
  };
}

/** What premium really changes (the rules the services enforce), for the premium and pricing pages. */
export type PremiumFacts = Awaited<ReturnType<ReturnType<typeof createCatalogue>['catalogue']>>['facts'];
