import { createHash, randomBytes } from 'node:crypto';
import type { PhotoStorage } from '../infra/storage.ts';
import { and, asc, count, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import { emailSchema } from '#common/schemas.ts';
import {
  DELETE_REASONS, EMAIL_CATEGORIES, REACTIVATION_DAYS,
} from '#common/notifications.ts';
import type { Db, Tx } from '../db/client.ts';
import {
  accountTokens, blocks, conversationMembers, conversations, creditLedger, likes, mailEvents, messages, orders, photos, profiles, sessions, sites, users,
} from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import type { MailService } from '../notifications/mail.service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { requireMember, type Actor } from '../actor.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import type { KnownDevice } from './accounts.service.ts';
import { normalizePassword } from '#common/passwords.ts';

type Purpose = (typeof accountTokens.$inferSelect)['purpose'];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** How long a mailed link works. */
export const TOKEN_TTL: Record<Purpose, number> = {
  activation: 7 * DAY,
  password_reset: 2 * HOUR,
  email_change: DAY,
  reactivation: DAY,
};
/** Activation and e-mail-change mails per account per 24 hours (password reset: the resetMails* limits). */
const OTHER_MAILS_PER_DAY = 5;
/** Reactivation mails per account per 24 hours; more requests are answered the same way but send nothing. */
const REACTIVATION_MAILS_PER_DAY = 3;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The account lifecycle around e-mail: activation, password reset and change, e-mail change,
 * deletion with a 14-day reactivation window, the final purge, and the member's data export.
 * Every link is a single-use token; only its SHA-256 is stored. These mails go to addresses a visitor
 * typed, so they carry no name (TYPED_ADDRESS_MAILS in notifications/mail.service.ts).
 */
export function createLifecycleService(deps: {
  db: Db; clock: Clock; mail: MailService; storage: PhotoStorage;
  limits: { resetMailsPerAddress: RateLimiter; resetMailsPerAccount: RateLimiter; resetMailsPerDevice: RateLimiter };
}) {
  const { db, clock, mail, limits } = deps;

  async function issueToken(userId: number, purpose: Purpose, options: { newEmail?: string; expiresAt?: Date } = {}): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = clock();
    await db.insert(accountTokens).values({
      id: hashToken(token), userId, purpose, newEmail: options.newEmail ?? null, createdAt: now,
      expiresAt: options.expiresAt ?? new Date(now.getTime() + TOKEN_TTL[purpose]),
    });
    return token;
  }

  /** Uses a token up: one UPDATE, so two clicks at once cannot both succeed. */
  async function consumeToken(token: unknown, purpose: Purpose): Promise<{ userId: number; newEmail: string | null } | null> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
    const now = clock();
    const [row] = await db.update(accountTokens)
      .set({ usedAt: now })
      .where(and(eq(accountTokens.id, hashToken(token)), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
      .returning({ userId: accountTokens.userId, newEmail: accountTokens.newEmail });
    return row ?? null;
  }

  async function tokenIsValid(token: unknown, purpose: Purpose): Promise<boolean> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return false;
    const [row] = await db.select({ id: accountTokens.id }).from(accountTokens)
      .where(and(eq(accountTokens.id, hashToken(token)), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, clock())));
    return Boolean(row);
  }

  async function mailsToday(userId: number, purpose: Purpose): Promise<number> {
    const since = new Date(clock().getTime() - DAY);
    const [row] = await db.select({ n: count() }).from(accountTokens)
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), gt(accountTokens.createdAt, since)));
    return row.n;
  }

  async function account(userId: number) {
    const [u] = await db.select({ id: users.id, email: users.email, status: users.status, language: users.language, siteId: users.siteId, passwordHash: users.passwordHash, name: profiles.name })
      .from(users).leftJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, userId));
    return u ?? null;
  }

  /** The account of `siteId` with this address: each site has its own accounts (decision 051). */
  async function byEmail(siteId: number, email: string) {
    const [u] = await db.select({ id: users.id }).from(users).where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
    return u ? account(u.id) : null;
  }

  /**
   * The new password by the one rule (server/accounts/password-policy.ts), held against the member's
   * own details and their site's name, then the confirmation (compared as the hash will see both).
   */
  async function validPassword(password: unknown, confirm: unknown, userId: number): Promise<string> {
    const [owner] = await db
      .select({ email: users.email, name: profiles.name, birthDate: profiles.birthDate, site: { name: sites.name, domain: sites.domain, mailName: sites.mailName } })
      .from(users).innerJoin(sites, eq(sites.id, users.siteId)).leftJoin(profiles, eq(profiles.userId, users.id))
      .where(eq(users.id, userId));
    if (!owner) throw new AppError(404, 'not_found');
    const newPassword = await assertAcceptablePassword(password, owner, owner.site);
    if (typeof confirm !== 'string' || normalizePassword(newPassword) !== normalizePassword(confirm)) {
      throw new AppError(400, 'passwords_mismatch', {}, { password_confirm: 'errors.passwords_mismatch' });
    }
    return newPassword;
  }

  /** The owner of a usable token, without using it up. */
  async function tokenOwner(token: unknown, purpose: Purpose): Promise<number | null> {
    if (typeof token !== 'string' || token.length < 20 || token.length > 100) return null;
    const [row] = await db.select({ userId: accountTokens.userId }).from(accountTokens)
      .where(and(eq(accountTokens.id, hashToken(token)), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, clock())));
    return row?.userId ?? null;
  }

  /** Every reset link of the member still out there stops working. */
  async function voidResetLinks(executor: Db | Tx, userId: number, now: Date) {
    await executor.update(accountTokens).set({ usedAt: now })
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, 'password_reset'), isNull(accountTokens.usedAt)));
  }

  async function endSessions(userId: number, keepToken?: string) {
    await db.delete(sessions).where(and(eq(sessions.userId, userId), keepToken ? ne(sessions.id, hashToken(keepToken)) : undefined));
  }

  const service = {
    tokenIsValid,

    /** The activation mail after sign-up (and on request). */
    async sendActivation(userId: number): Promise<void> {
      const u = await account(userId);
      if (!u || u.status !== 'not_confirmed') return;
      const token = await issueToken(userId, 'activation');
      await mail.send({ to: u.email, lang: u.language, siteId: u.siteId, kind: 'activation', link: `/api/activate.php?token=${token}` });
    },

    /** A password-reset link to the member's own address, asked for by customer service for them (no member limits). */
    async sendPasswordReset(userId: number): Promise<void> {
      const u = await account(userId);
      if (!u || u.status === 'deleted') return;
      const token = await issueToken(u.id, 'password_reset');
      await mail.send({ to: u.email, lang: u.language, siteId: u.siteId, kind: 'password_reset', link: `/reset-password/do?token=${token}` });
    },

    async resendActivation(actor: Actor): Promise<void> {
      const { userId } = requireMember(actor);
      const u = await account(userId);
      if (!u) throw new AppError(404, 'not_found');
      if (u.status !== 'not_confirmed') throw new AppError(409, 'already_activated');
      if ((await mailsToday(userId, 'activation')) >= OTHER_MAILS_PER_DAY) throw new AppError(429, 'mail_limit');
      await service.sendActivation(userId);
    },

    /** The link in the activation mail: single use. Returns whether it activated the account. */
    async activate(token: unknown): Promise<boolean> {
      const used = await consumeToken(token, 'activation');
      if (!used) return false;
      const [u] = await db.update(users).set({ status: 'active', activatedAt: clock() })
        .where(and(eq(users.id, used.userId), eq(users.status, 'not_confirmed'))).returning({ id: users.id });
      return Boolean(u);
    },

    /**
     * Spec section 8 names "e-mail not found" as an error of the reset form, so the form says so;
     * the per-IP limit on this endpoint keeps anyone from probing many addresses.
     *
     * The reset mail is the owner's way in when someone else is guessing their password, so whoever
     * else asks for it must not use it up: requests count per (account, client address) first, and
     * only those that pass count against the account's budget from all addresses; a device that
     * logged in to the account before (`from.device`) asks on a budget of its own. The account is the one of the
     * site asked (`siteId`).
     */
    async requestPasswordReset(siteId: number, emailInput: unknown, from: { ip: string; device: KnownDevice | null }): Promise<void> {
      const parsed = emailSchema.safeParse(emailInput);
      if (!parsed.success) throw new AppError(400, 'email_invalid', {}, { email: 'errors.email_invalid' });
      const u = await byEmail(siteId, parsed.data);
      if (!u || u.status === 'deleted') throw new AppError(404, 'email_not_found', {}, { email: 'errors.email_not_found' });
      const counters: [RateLimiter, string][] = from.device?.userId === u.id
        ? [[limits.resetMailsPerDevice, `${u.id}:${from.device.id}`]]
        : [[limits.resetMailsPerAddress, `${u.id}|${from.ip}`], [limits.resetMailsPerAccount, String(u.id)]];
      for (const [limiter, key] of counters) {
        const wait = await limiter.hit(key);
        if (wait > 0) throw new AppError(429, 'reset_mail_limit', { count: Math.ceil(wait / 60), retry_after: wait });
      }
      await service.sendPasswordReset(u.id);
    },

    /**
     * A new password from the reset link: every session ends (whoever asked for the reset may not be
     * the only one signed in), and so does every other reset link of the member: an older mail in the
     * inbox must not set the password again. The link works on the member's own site (`siteId`, the request's), where
     * the mail sent it.
     */
    async resetPassword(siteId: number, token: unknown, password: unknown, confirm: unknown): Promise<{ userId: number; email: string }> {
      const userId = await tokenOwner(token, 'password_reset');
      const u = userId ? await account(userId) : null;
      if (!u || u.status === 'deleted' || u.siteId !== siteId) throw new AppError(400, 'reset_link_invalid');
      const passwordHash = await hashPassword(await validPassword(password, confirm, u.id));
      await db.transaction(async (tx) => {
        // One reset at a time per member: a second link used at the same moment finds itself void.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, u.id)).for('update');
        const now = clock();
        const [used] = await tx.update(accountTokens).set({ usedAt: now })
          .where(and(eq(accountTokens.id, hashToken(token as string)), eq(accountTokens.purpose, 'password_reset'), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, now)))
          .returning({ userId: accountTokens.userId });
        if (!used) throw new AppError(400, 'reset_link_invalid');
        await voidResetLinks(tx, u.id, now);
        await tx.update(users).set({
          passwordHash, failedLogins: 0, lockedUntil: null,
          // The link reached the member's mailbox: that confirms the address too.
          ...(u.status === 'not_confirmed' ? { status: 'active' as const, activatedAt: now } : {}),
        }).where(eq(users.id, u.id));
        await tx.delete(sessions).where(eq(sessions.userId, u.id));
      });
      return { userId: u.id, email: u.email };
    },

    /**
     * Changing the password while signed in: the old one is needed; every other session ends, this
     * one stays, and reset links still out there stop working.
     */
    async changePassword(actor: Actor, currentSession: string | undefined, oldPassword: unknown, password: unknown, confirm: unknown): Promise<void> {
      const { userId } = requireMember(actor);
      const u = await account(userId);
      if (!u) throw new AppError(404, 'not_found');
      if (typeof oldPassword !== 'string' || !(await verifyPassword(u.passwordHash, oldPassword))) {
        throw new AppError(400, 'old_password_wrong', {}, { old_password: 'errors.old_password_wrong' });
      }
      const newPassword = await validPassword(password, confirm, u.id);
      await db.update(users).set({ passwordHash: await hashPassword(newPassword) }).where(eq(users.id, userId));
      await voidResetLinks(db, userId, clock());
      await endSessions(userId, currentSession);
    },

    /** Spec: a new address needs confirmation from that address; until then the old one stays. */
    async requestEmailChange(actor: Actor, emailInput: unknown, password: unknown): Promise<void> {
      const { userId } = requireMember(actor);
      const parsed = emailSchema.safeParse(emailInput);
      if (!parsed.success) throw new AppError(400, 'email_invalid', {}, { email: 'errors.email_invalid' });
      const u = await account(userId);
      if (!u) throw new AppError(404, 'not_found');
      if (typeof password !== 'string' || !(await verifyPassword(u.passwordHash, password))) {
        throw new AppError(400, 'password_wrong', {}, { password: 'errors.password_wrong' });
      }
      if (parsed.data === u.email.toLowerCase()) throw new AppError(400, 'email_unchanged', {}, { email: 'errors.email_unchanged' });
      if (await byEmail(u.siteId, parsed.data)) throw new AppError(409, 'email_taken', {}, { email: 'errors.email_taken' });
      if ((await mailsToday(userId, 'email_change')) >= OTHER_MAILS_PER_DAY) throw new AppError(429, 'mail_limit');
      const token = await issueToken(userId, 'email_change', { newEmail: parsed.data });
      await mail.send({ to: parsed.data, lang: u.language, siteId: u.siteId, kind: 'email_change', link: `/mail-change/do?token=${token}` });
    },

    /** The link in the mail to the new address. */
    async confirmEmailChange(token: unknown): Promise<'changed' | 'invalid' | 'taken'> {
      const used = await consumeToken(token, 'email_change');
      if (!used?.newEmail) return 'invalid';
      const u = await account(used.userId);
      if (!u || u.status === 'deleted') return 'invalid';
      if (await byEmail(u.siteId, used.newEmail)) return 'taken';
      try {
        await db.update(users).set({
          email: used.newEmail,
          // The new address works: a bounce recorded for the old one no longer applies.
          notificationsDisabled: sql`coalesce((select jsonb_agg(r) from jsonb_array_elements_text(${users.notificationsDisabled}) r where r <> 'bounce'), '[]'::jsonb)`,
          ...(u.status === 'not_confirmed' ? { status: 'active' as const, activatedAt: clock() } : {}),
        }).where(eq(users.id, used.userId));
      } catch (error) {
        const e = error as { code?: string; cause?: { code?: string } };
        if (e.code === '23505' || e.cause?.code === '23505') return 'taken';
        throw error;
      }
      return 'changed';
    },

    /** Instead of leaving: invisible, and no more e-mail. */
    async pause(actor: Actor): Promise<void> {
      const { userId } = requireMember(actor);
      await db.update(users).set({ invisible: true, emailOptOut: [...EMAIL_CATEGORIES] }).where(eq(users.id, userId));
    },

    /** Deletion needs the password; the account can come back by e-mail link for 14 days (spec section 9). */
    async deleteAccount(actor: Actor, password: unknown, reason: unknown): Promise<void> {
      const { userId } = requireMember(actor);
      const u = await account(userId);
      if (!u || u.status === 'deleted') throw new AppError(404, 'not_found');
      if (typeof password !== 'string' || !(await verifyPassword(u.passwordHash, password))) {
        throw new AppError(400, 'password_wrong', {}, { password: 'errors.password_wrong' });
      }
      const why = typeof reason === 'string' && (DELETE_REASONS as readonly string[]).includes(reason) ? reason : null;
      await db.update(users).set({ status: 'deleted', deletedAt: clock(), deleteReason: why }).where(eq(users.id, userId));
      await endSessions(userId);
    },

    /**
     * POST /api/reactivate.php {email}: mails a reactivation link when the address belongs to an
     * account deleted less than 14 days ago. The caller always answers the same, so nobody learns
     * whether an address has an account. The account is the one of the site asked (`siteId`).
     */
    async requestReactivation(siteId: number, email: string): Promise<void> {
      const u = await byEmail(siteId, email);
      if (!u || u.status !== 'deleted') return;
      const [row] = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, u.id));
      const windowEnd = row.deletedAt ? row.deletedAt.getTime() + REACTIVATION_DAYS * DAY : 0;
      const now = clock().getTime();
      if (windowEnd <= now || /@purged\.invalid$/.test(u.email)) return;
      if ((await mailsToday(u.id, 'reactivation')) >= REACTIVATION_MAILS_PER_DAY) return;
      const token = await issueToken(u.id, 'reactivation', { expiresAt: new Date(Math.min(now + TOKEN_TTL.reactivation, windowEnd)) });
      await mail.send({ to: u.email, lang: u.language, siteId: u.siteId, kind: 'reactivation', params: { days: REACTIVATION_DAYS }, link: `/api/reactivate.php?token=${token}` });
    },

    /**
     * The reactivation link: the account is back and active (the link proved the address). Returns the user id to sign
     * in. It works on the member's own site (`siteId`, the request's), where the mail sent it: the session is made there.
     */
    async reactivate(siteId: number, token: unknown): Promise<number | null> {
      const owner = await tokenOwner(token, 'reactivation');
      if (!owner || (await account(owner))?.siteId !== siteId) return null;
      const used = await consumeToken(token, 'reactivation');
      if (!used) return null;
      const since = new Date(clock().getTime() - REACTIVATION_DAYS * DAY);
      const now = clock();
      const [u] = await db.update(users)
        .set({ status: 'active', activatedAt: sql`coalesce(${users.activatedAt}, ${now.toISOString()}::timestamptz)`, deletedAt: null, deleteReason: null })
        .where(and(eq(users.id, used.userId), eq(users.status, 'deleted'), gt(users.deletedAt, since)))
        .returning({ id: users.id });
      return u?.id ?? null;
    },

    /**
     * Deletes accounts for good 14 days after deletion. Removed: profile, photos (files too), likes,
     * blocks, sessions, tokens, conversations the member took part in (with every message in them:
     * a half conversation with a nameless partner helps nobody), mail events for the address.
     * Kept, without personal data: the users row as a tombstone (e-mail replaced, password unusable)
     * so that orders, payments and the credit ledger stay complete for the bookkeeping the law requires.
     */
    async purgeDeletedAccounts(): Promise<number> {
      const cutoff = new Date(clock().getTime() - REACTIVATION_DAYS * DAY);
      const due = await db.select({ id: users.id, email: users.email }).from(users)
        .where(and(eq(users.status, 'deleted'), lte(users.deletedAt, cutoff), sql`${users.email} not like '%@purged.invalid'`));
      for (const u of due) {
        const files = await db.select({ f: photos.filename, t: photos.thumbFilename }).from(photos).where(eq(photos.userId, u.id));
        await db.transaction(async (tx) => {
          const convIds = (await tx.select({ id: conversationMembers.conversationId }).from(conversationMembers).where(eq(conversationMembers.userId, u.id))).map((r) => r.id);
          if (convIds.length) await tx.delete(conversations).where(inArray(conversations.id, convIds));
          await tx.delete(likes).where(or(eq(likes.likerId, u.id), eq(likes.likedId, u.id)));
          await tx.delete(blocks).where(or(eq(blocks.blockerId, u.id), eq(blocks.blockedId, u.id)));
          await tx.delete(photos).where(eq(photos.userId, u.id));
          await tx.delete(profiles).where(eq(profiles.userId, u.id));
          await tx.delete(sessions).where(eq(sessions.userId, u.id));
          await tx.delete(accountTokens).where(eq(accountTokens.userId, u.id));
          // The provider's reports about the address stay while an account of another site still uses it (decision 051).
          await tx.delete(mailEvents).where(and(
            sql`lower(${mailEvents.email}) = ${u.email.toLowerCase()}`,
            sql`not exists (select 1 from ${users} where lower(${users.email}) = ${u.email.toLowerCase()} and ${users.id} <> ${u.id})`,
          ));
          await tx.update(users).set({
            email: `${u.id}@purged.invalid`, passwordHash: '!purged', notificationsDisabled: [], emailOptOut: [],
            pushSubscription: null, pushState: 'unknown', network: null, ref: null, sub1: null, sub2: null, sub3: null, lander: null,
            failedLogins: 0, lockedUntil: null, invisible: true,
          }).where(eq(users.id, u.id));
        });
        for (const f of files) {
          await deps.storage.delete(f.f);
          await deps.storage.delete(f.t);
        }
      }
      return due.length;
    },

    /** GET /api/export.php: everything the site keeps about the member (GDPR art. 15 and 20). */
    async exportData(actor: Actor) {
      const { userId } = requireMember(actor);
      const [u] = await db.select().from(users).where(eq(users.id, userId));
      if (!u) throw new AppError(404, 'not_found');
      const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId));
      const photoRows = await db.select({ id: photos.id, filename: photos.filename, status: photos.status, is_private: photos.isPrivate, created_at: photos.createdAt }).from(photos).where(eq(photos.userId, userId));
      const given = await db.select({ profile_id: likes.likedId, created_at: likes.createdAt }).from(likes).where(eq(likes.likerId, userId));
      const received = await db.select({ profile_id: likes.likerId, created_at: likes.createdAt }).from(likes).where(eq(likes.likedId, userId));
      const convIds = (await db.select({ id: conversationMembers.conversationId }).from(conversationMembers).where(eq(conversationMembers.userId, userId))).map((r) => r.id);
      const messageRows = convIds.length
        ? await db.select({ id: messages.id, conversation_id: messages.conversationId, sender_id: messages.senderId, text: messages.body, credits_spent: messages.creditsSpent, created_at: messages.createdAt })
          .from(messages).where(inArray(messages.conversationId, convIds)).orderBy(asc(messages.id))
        : [];
      const orderRows = await db.select({ id: orders.id, credits: orders.credits, amount_cents: orders.amountCents, currency: orders.currency, paymentmethod: orders.paymentmethod, status: orders.status, created_at: orders.createdAt, completed_at: orders.completedAt })
        .from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt));
      const ledger = await db.select({ delta: creditLedger.delta, balance_after: creditLedger.balanceAfter, reason: creditLedger.reason, reference: creditLedger.reference, created_at: creditLedger.createdAt })
        .from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(asc(creditLedger.id));
      const blocked = await db.select({ profile_id: blocks.blockedId, created_at: blocks.createdAt }).from(blocks).where(eq(blocks.blockerId, userId));
      return {
        exported_at: clock().toISOString(),
        account: {
          id: u.id, email: u.email, status: u.status, language: u.language, signup_date: u.signupDate, activated_at: u.activatedAt,
          credits: u.credits, paid_user: u.paidUser, invisible: u.invisible, email_opt_out: u.emailOptOut,
          notifications_disabled: u.notificationsDisabled, push_state: u.pushState,
          tracking: { network: u.network, ref: u.ref, sub1: u.sub1, sub2: u.sub2, sub3: u.sub3 },
          lander: u.lander,
        },
        profile: profile ? {
          name: profile.name, gender: profile.gender, birth_date: profile.birthDate, country: profile.country, region: profile.region, city: profile.city,
          about: profile.about, sexuality: profile.sexuality, hair_color: profile.hairColor, eye_color: profile.eyeColor, body_type: profile.bodyType,
          relationship_status: profile.relationshipStatus, tattoos: profile.tattoos, signup_reason: profile.signupReason, interests: profile.interests,
        } : null,
        photos: photoRows,
        likes: { given, received },
        blocks: blocked,
        messages: messageRows,
        orders: orderRows,
        ledger,
      };
    },
  };
  return service;
}
