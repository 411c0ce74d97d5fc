import type { Tracking } from '#common/tracking.ts';
import { and, eq, sql } from 'drizzle-orm';
import type { Language } from '#common/languages.ts';
import { REACTIVATION_WINDOW_DAYS } from '#common/constants.ts';
import type { SignupInput } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import type { Site } from '../settings/settings.service.ts';
import { profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import { addCredits } from '../credits/ledger.ts';
import { hashPassword } from './passwords.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import { requireMember, type Actor } from '../actor.ts';
import { isUniqueViolation } from '../db/errors.ts';

/** Spec section 4: signups = all; with_trafficsource only with a (stored) network; anything else is invite-only. */
export function signupAllowed(signups: string, tracking: Tracking): boolean {
  if (signups === 'all') return true;
  return signups === 'with_trafficsource' && Boolean(tracking.network);
}

const DAY_MS = 24 * 60 * 60 * 1000;

export type EmailStatus = 'free' | 'taken' | 'deleted';

export function createSignupService(deps: { db: Db; clock: Clock; events: EventBus }) {
  const { db, clock } = deps;

  /**
   * What an address means for sign-up: free, taken by a living account (offer log-in), or a deleted
   * account still inside its reactivation window (offer reactivation). After the window the deletion
   * is final and the address is free again.
   */
  async function emailStatus(email: string): Promise<{ status: EmailStatus; userId: number | null }> {
    const [row] = await db
      .select({ id: users.id, status: users.status, deletedAt: users.deletedAt })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    if (!row) return { status: 'free', userId: null };
    if (row.status !== 'deleted') return { status: 'taken', userId: row.id };
    const deletedAt = row.deletedAt ?? clock();
    if (clock().getTime() - deletedAt.getTime() < REACTIVATION_WINDOW_DAYS * DAY_MS) return { status: 'deleted', userId: row.id };
    return { status: 'free', userId: row.id };
  }

  return {
    emailStatus,

    /** A new member of `site` (whose name and domain a password may not lean on). */
    async signup(
      site: Pick<Site, 'id' | 'signupCredits' | 'name' | 'domain' | 'mailName'>, input: SignupInput, language: Language, tracking: Tracking = {},
    ): Promise<number> {
      const { id: siteId, signupCredits } = site;
      const existing = await emailStatus(input.email);
      if (existing.status === 'taken') throw new AppError(409, 'email_taken', {}, { email: 'errors.email_taken' });
      if (existing.status === 'deleted') throw new AppError(409, 'account_deleted', {}, { email: 'errors.account_deleted' });
      // The shared schema checked length, e-mail and name; the list and the strength estimate live here.
      const owner = { email: input.email, name: input.name, birthDate: input.date_of_birth };
      const passwordHash = await hashPassword(await assertAcceptablePassword(input.password, owner, site));
      try {
        const userId = await db.transaction(async (tx) => {
          if (existing.userId) {
            // A finally deleted account gives its address up, so the person can start afresh.
            await tx.update(users)
              .set({ email: `deleted-${existing.userId}@deleted.invalid` })
              .where(and(eq(users.id, existing.userId), eq(users.status, 'deleted')));
          }
          const [user] = await tx
            .insert(users)
            .values({
              siteId, email: input.email, passwordHash, language, signupDate: clock(), lastActiveAt: clock(),
              network: tracking.network ?? null, ref: tracking.ref ?? null,
              sub1: tracking.sub1 ?? null, sub2: tracking.sub2 ?? null, sub3: tracking.sub3 ?? null,
            })
            .returning({ id: users.id });
          await tx.insert(profiles).values({
            userId: user.id, name: input.name, gender: input.gender, birthDate: input.date_of_birth,
            country: input.country, createdAt: clock(),
          });
          if (signupCredits > 0) await addCredits(tx, user.id, signupCredits, 'signup_bonus', String(user.id));
          // The activation mail is owed from the moment the account exists.
          await deps.events.record(tx, 'account.created', { userId: user.id });
          return user.id;
        });
        // The activation mail and anything else that greets a new member.
        deps.events.emit('account.created', { userId });
        return userId;
      } catch (error) {
        // Two sign-ups with one address at the same moment: the unique index decides.
        if (isUniqueViolation(error)) throw new AppError(409, 'email_taken', {}, { email: 'errors.email_taken' });
        throw error;
      }
    },

    /** The member a sign-up message goes to must exist and be visible. */
    async assertRecipient(profileId: number): Promise<void> {
      const [row] = await db.select({ status: users.status, profileStatus: profiles.status }).from(users)
        .innerJoin(profiles, eq(profiles.userId, users.id)).where(eq(users.id, profileId));
      if (!row || row.status === 'deleted' || row.profileStatus === 'disabled') throw new AppError(404, 'not_found');
    },

    async touch(actor: Actor): Promise<void> {
      const { userId } = requireMember(actor);
      await db.update(users).set({ lastActiveAt: clock() }).where(eq(users.id, userId));
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;
