import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { DiscountsService } from './discounts.service.ts';
import { requireMember, requireRole, requireRoleSomewhere, sitesOf, type Actor } from '../actor.ts';
import { and, count, eq, gte, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import {
  DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS, SMS_CODE_MAX_ATTEMPTS, SMS_CODE_TTL_MINUTES, SMS_CODES_PER_MEMBER_PER_HOUR, SMS_CODES_PER_NUMBER_PER_HOUR,
} from '#common/constants.ts';
import { isSepaIban, maskPhone, normaliseIban, normalisePhone, type DirectDebitStart } from '#common/direct-debit.ts';
import type { Db } from '../db/client.ts';
import { blockedPaymentIdentifiers, directDebitRequests, sites } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, notFound } from '../infra/errors.ts';
import { maskAccount } from '../infra/payments/provider.ts';
import { SmsUnavailableError, type SmsSender } from '../infra/sms/sms.ts';
import type { PaymentsService } from './payments.service.ts';
import type { Language } from '#common/languages.ts';
import { createTranslator, type Translator } from '../i18n/i18n.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { Site } from '../settings/settings.service.ts';
import { codeFromLink } from './link-codes.ts';
import type { AuditLog } from '../staff/audit.ts';

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

/** What is kept of a blocked IBAN or number: a SHA-256 of its normalised form. */
export function identifierHash(kind: 'iban' | 'phone', value: string): string {
  return createHash('sha256').update(`${kind}:${value}`).digest('hex');
}

const codeHash = (requestId: string, code: string) => createHash('sha256').update(`${requestId}:${code}`).digest();

/**
 * SEPA direct debit confirmed by an SMS code (docs/decisions/034). Step 1 checks the form's IBAN and number
 * against the blocked list and the limits and texts a 6-digit code; step 2 checks the code (10 minutes, 5
 * tries) and then places the order with its mandate at the site's provider, once per request.
 */
export function createDirectDebitService(deps: {
  db: Db; clock: Clock; payments: PaymentsService; discounts: Pick<DiscountsService, 'quote'>; sms: SmsSender; audit: AuditLog;
  /** The member's site: its name in the SMS. */
  site: (siteId: number) => Promise<Pick<Site, 'name'>>;
  /** The look-ups of discount codes, which a code in the page's link counts against too. */
  discountCodeLimit?: RateLimiter;
}) {
  const { db, clock, payments, sms } = deps;
  let translator: Promise<Translator> | undefined;

  /** Over the member's direct-debit limit with this amount more: 409. */
  async function requireWithinLimit(actor: Actor, amountCents: number) {
    const total = await payments.directDebitTotal(actor, new Date(clock().getTime() - 30 * DAY_MS));
    if (total + amountCents > DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS) {
      throw new AppError(409, 'direct_debit_limit_reached', { max: DIRECT_DEBIT_MAX_CENTS_PER_30_DAYS / 100 });
    }
  }

  async function blocked(siteId: number, kind: 'iban' | 'phone', value: string): Promise<boolean> {
    const rows = await db.select({ id: blockedPaymentIdentifiers.id }).from(blockedPaymentIdentifiers).where(and(
      or(eq(blockedPaymentIdentifiers.siteId, siteId), isNull(blockedPaymentIdentifiers.siteId)),
      eq(blockedPaymentIdentifiers.kind, kind), eq(blockedPaymentIdentifiers.valueHash, identifierHash(kind, value)),
    )).limit(1);
    return rows.length > 0;
  }

  return {
    /**
     * Step 1, for the page and the API alike. The bundle is priced for this member now, in their currency, by the
     * credits page's rule (the active discount, and `discountCode` when the page's link brought a usable one); the
     * SMS is written in `language` and names the member's site. Returns the request the code belongs to.
     */
    async start(actor: Actor, input: { form: DirectDebitStart; discountCode: string | null; language: Language }) {
      const { userId, siteId } = requireMember(actor);
      const { form } = input;
      const [{ currency, country }, site, link] = await Promise.all([
        payments.payer(actor, { visitorCountry: null }), deps.site(siteId), codeFromLink(deps.discountCodeLimit, userId, input.discountCode),
      ]);
      const pkg = (await payments.packages(currency)).find((p) => p.id === form.package_id);
      if (!pkg) throw new AppError(404, 'package_not_found', {}, { package_id: 'errors.package_not_found' });
      const quoted = (await deps.discounts.quote(actor, [pkg], link.code)).prices[pkg.id];
      const price = { amountCents: quoted.amount, discountCode: quoted.discount?.code ?? null };
      if (currency !== 'EUR') throw new AppError(422, 'direct_debit_unavailable');
      // Before any SMS: the site's provider must take direct debits for this amount.
      if (!(await payments.offersDirectDebit(siteId, { amountCents: price.amountCents, currency, country: country ?? '' }))) {
        throw new AppError(422, 'direct_debit_unavailable');
      }
      if (form.amount !== undefined && form.amount !== price.amountCents) throw new AppError(409, 'price_changed');
      if (await blocked(siteId, 'iban', form.iban)) throw new AppError(422, 'iban_blocked', {}, { iban: 'errors.iban_blocked' });
      if (await blocked(siteId, 'phone', form.mobile)) throw new AppError(422, 'phone_blocked', {}, { mobile: 'errors.phone_blocked' });
      await requireWithinLimit(actor, price.amountCents);
      const hourAgo = new Date(clock().getTime() - HOUR_MS);
      const [perNumber] = await db.select({ n: count() }).from(directDebitRequests)
        .where(and(eq(directDebitRequests.phone, form.mobile), gte(directDebitRequests.createdAt, hourAgo)));
      const [perMember] = await db.select({ n: count() }).from(directDebitRequests)
        .where(and(eq(directDebitRequests.userId, userId), gte(directDebitRequests.createdAt, hourAgo)));
      if (perNumber.n >= SMS_CODES_PER_NUMBER_PER_HOUR || perMember.n >= SMS_CODES_PER_MEMBER_PER_HOUR) {
        throw new AppError(429, 'sms_limit_reached');
      }
      const id = `dd_${randomBytes(12).toString('base64url')}`;
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.insert(directDebitRequests).values({
        id, userId, packageId: form.package_id, amountCents: price.amountCents, currency, discountCode: price.discountCode,
        accountHolder: form.account_holder, iban: form.iban, street: form.street, houseNumber: form.house_number, zip: form.zip, city: form.city,
        phone: form.mobile, codeHash: codeHash(id, code).toString('hex'),
        codeExpiresAt: new Date(clock().getTime() + SMS_CODE_TTL_MINUTES * 60_000), createdAt: clock(),
      });
      try {
        translator ??= createTranslator();
        const text = (await translator).t(input.language, 'direct_debit.sms_text', { code, site: site.name, minutes: SMS_CODE_TTL_MINUTES });
        await sms.send({ to: form.mobile, text, kind: 'direct_debit_code' });
      } catch (error) {
        if (!(error instanceof SmsUnavailableError)) throw error;
        // No code reached the member: the request cannot be confirmed, and it does not count against the number.
        await db.delete(directDebitRequests).where(eq(directDebitRequests.id, id));
        throw new AppError(502, 'sms_unavailable');
      }
      return { id, phone: maskPhone(form.mobile) };
    },

    /** The member's request waiting for its code (the second step's page); null when there is none. */
    async pending(actor: Actor, requestId: string) {
      const { userId } = requireMember(actor);
      const [row] = await db.select().from(directDebitRequests)
        .where(and(eq(directDebitRequests.id, requestId), eq(directDebitRequests.userId, userId)));
      if (!row) return null;
      return { id: row.id, packageId: row.packageId, amountCents: row.amountCents, currency: row.currency, phone: maskPhone(row.phone), status: row.status, orderId: row.orderId };
    },

    /**
     * Step 2: the code. Wrong: one try fewer (the 5th wrong try locks the request); expired: ask again. Right:
     * the order with its mandate and charge; a repeated confirmation (a double click, a retry after a lost
     * answer) returns the same order, never a second payment. `returnTo`: where the payment's status page
     * continues to (the conversation the purchase began in), as for other orders.
     */
    async confirm(actor: Actor, input: { requestId: string; code: string; returnTo?: string }) {
      const { userId } = requireMember(actor);
      const now = clock();
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(directDebitRequests)
          .where(and(eq(directDebitRequests.id, input.requestId), eq(directDebitRequests.userId, userId))).for('update');
        if (!row) return { kind: 'missing' as const };
        if (row.status === 'verified' || row.status === 'confirmed') return { kind: 'ok' as const, row };
        if (row.status === 'locked') return { kind: 'locked' as const };
        if (row.codeExpiresAt <= now) return { kind: 'expired' as const };
        const given = codeHash(row.id, input.code);
        if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) {
          const attempts = row.attempts + 1;
          const locked = attempts >= SMS_CODE_MAX_ATTEMPTS;
          await tx.update(directDebitRequests).set({ attempts, ...(locked ? { status: 'locked' as const } : {}) })
            .where(eq(directDebitRequests.id, row.id));
          return locked ? { kind: 'locked' as const } : { kind: 'wrong' as const, left: SMS_CODE_MAX_ATTEMPTS - attempts };
        }
        const [verified] = await tx.update(directDebitRequests).set({ status: 'verified' }).where(eq(directDebitRequests.id, row.id)).returning();
        return { kind: 'verified' as const, row: verified };
      });
      if (outcome.kind === 'missing') throw new AppError(404, 'sms_code_expired', {}, { code: 'errors.sms_code_expired' });
      if (outcome.kind === 'expired') throw new AppError(410, 'sms_code_expired', {}, { code: 'errors.sms_code_expired' });
      if (outcome.kind === 'locked') throw new AppError(429, 'sms_code_attempts');
      if (outcome.kind === 'wrong') throw new AppError(422, 'sms_code_wrong', { left: outcome.left }, { code: 'errors.sms_code_wrong' });
      const { row } = outcome;
      if (row.status === 'confirmed' && row.orderId) return payments.order(actor, row.orderId);
      // The limit again: another request may have been confirmed since this one's code was sent.
      if (outcome.kind === 'verified') await requireWithinLimit(actor, row.amountCents);
      const placed = await payments.directDebitOrder(actor, {
        packageId: row.packageId, idempotencyKey: `directdebit:${row.id}`, discountCode: row.discountCode, expectedAmount: row.amountCents,
        returnTo: input.returnTo,
        mandate: { consumerName: row.accountHolder, consumerAccount: row.iban, signatureDate: row.createdAt.toISOString().slice(0, 10) },
      });
      // The provider holds the mandate now: only the masked IBAN stays here.
      await db.update(directDebitRequests).set({ status: 'confirmed', orderId: placed.order.id, iban: maskAccount(row.iban) })
        .where(eq(directDebitRequests.id, row.id));
      return placed;
    },

    /**
     * Requests never confirmed, a day after they were made: their IBAN, address and number are not kept
     * (the hourly SMS limits look back one hour only). Runs with the hourly purge.
     */
    async purgeUnconfirmed(): Promise<number> {
      const removed = await db.delete(directDebitRequests).where(and(
        ne(directDebitRequests.status, 'confirmed'), lt(directDebitRequests.createdAt, new Date(clock().getTime() - DAY_MS)),
      )).returning({ id: directDebitRequests.id });
      return removed.length;
    },

    /**
     * Blocks an IBAN or a mobile number for direct debit, on one site (by domain) or on every site. For the
     * operator's command line (npm run payments:block). Blocking the same value again changes nothing.
     */
    async block(actor: Actor, input: { kind: 'iban' | 'phone'; value: string; siteDomain?: string; reason?: string }, from: { ip?: string | null } = {}) {
      requireRoleSomewhere(actor, 'finance');
      const value = input.kind === 'iban' ? normaliseIban(input.value) : normalisePhone(input.value);
      if (!value || (input.kind === 'iban' && !isSepaIban(value))) throw new AppError(400, input.kind === 'iban' ? 'iban_invalid' : 'phone_invalid');
      let siteId: number | null = null;
      if (input.siteDomain) {
        const [site] = await db.select({ id: sites.id }).from(sites).where(eq(sites.domain, input.siteDomain.toLowerCase()));
        if (!site) throw notFound();
        siteId = site.id;
      }
      // A block on every site is for finance staff of every site.
      const by = requireRole(actor, 'finance', siteId);
      const masked = input.kind === 'iban' ? maskAccount(value) : maskPhone(value);
      await db.transaction(async (tx) => {
        const [row] = await tx.insert(blockedPaymentIdentifiers).values({
          siteId, kind: input.kind, valueHash: identifierHash(input.kind, value), masked, reason: input.reason ?? '', createdAt: clock(),
        }).onConflictDoNothing().returning({ id: blockedPaymentIdentifiers.id });
        // Blocking again changes nothing, and writes nothing.
        if (row) {
          await deps.audit.record(tx, {
            actor: by, role: 'finance', action: 'payment_block.add', objectType: 'blocked_payment_identifier', objectId: row.id,
            after: { kind: input.kind, masked, site: input.siteDomain ?? null, reason: input.reason ?? '' }, ip: from.ip,
          });
        }
      });
      return { kind: input.kind, masked, site: input.siteDomain ?? null };
    },

    /** Lifts a block (the same value and scope as given to block). */
    async unblock(actor: Actor, input: { kind: 'iban' | 'phone'; value: string; siteDomain?: string }, from: { ip?: string | null } = {}) {
      requireRoleSomewhere(actor, 'finance');
      const [site] = input.siteDomain ? await db.select({ id: sites.id }).from(sites).where(eq(sites.domain, input.siteDomain.toLowerCase())) : [];
      if (input.siteDomain && !site) return 0;
      const by = requireRole(actor, 'finance', site?.id ?? null);
      const value = (input.kind === 'iban' ? normaliseIban(input.value) : normalisePhone(input.value)) ?? '';
      const siteCondition = input.siteDomain
        ? eq(blockedPaymentIdentifiers.siteId, sql`(select ${sites.id} from ${sites} where ${sites.domain} = ${input.siteDomain.toLowerCase()})`)
        : isNull(blockedPaymentIdentifiers.siteId);
      return db.transaction(async (tx) => {
        const removed = await tx.delete(blockedPaymentIdentifiers).where(and(
          siteCondition, eq(blockedPaymentIdentifiers.kind, input.kind), eq(blockedPaymentIdentifiers.valueHash, identifierHash(input.kind, value)),
        )).returning({ id: blockedPaymentIdentifiers.id, masked: blockedPaymentIdentifiers.masked });
        for (const row of removed) {
          await deps.audit.record(tx, {
            actor: by, role: 'finance', action: 'payment_block.remove', objectType: 'blocked_payment_identifier', objectId: row.id,
            before: { kind: input.kind, masked: row.masked, site: input.siteDomain ?? null }, ip: from.ip,
          });
        }
        return removed.length;
      });
    },

    /** Every block on the sites finance staff reach (and those on every site), masked. */
    async blocks(actor: Actor) {
      const reach = sitesOf(requireRoleSomewhere(actor, 'finance'));
      return db.select({
        id: blockedPaymentIdentifiers.id, kind: blockedPaymentIdentifiers.kind, masked: blockedPaymentIdentifiers.masked,
        reason: blockedPaymentIdentifiers.reason, site: sites.domain, createdAt: blockedPaymentIdentifiers.createdAt,
      }).from(blockedPaymentIdentifiers).leftJoin(sites, eq(sites.id, blockedPaymentIdentifiers.siteId))
        .where(reach ? or(isNull(blockedPaymentIdentifiers.siteId), inArray(blockedPaymentIdentifiers.siteId, [...reach])) : undefined)
        .orderBy(blockedPaymentIdentifiers.id);
    },
  };
}
