import { trackingFrom, type Tracking } from '#common/tracking.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ApiUser } from '#common/api-types.ts';
import type { SignupBody } from '#common/contracts/accounts.ts';
import { messageKey } from '#common/forms.ts';
import type { Language } from '#common/languages.ts';
import { REACTIVATION_WINDOW_DAYS } from '#common/constants.ts';
import { signupLander, type SignupLander } from '#common/landers.ts';
import { messageSchema, type SignupInput } from '#common/schemas.ts';
import type { Db } from '../db/client.ts';
import { queueTextChange } from '../moderation/text-reviews.ts';
import type { Site } from '../settings/settings.service.ts';
import { profiles, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError, authenticationRequired, isAppError } from '../infra/errors.ts';
import type { EventBus } from '../infra/events.ts';
import { addCredits } from '../credits/ledger.ts';
import { hashPassword } from './passwords.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import { actorFor, requireMember, type Actor } from '../actor.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { hiddenProfile, listedTo, meetsSite, siteOf } from './contact-rules.ts';
import type { SendInput } from '../chat/chat-send.ts';

/** Spec section 4: signups = all; with_trafficsource only with a (stored) network; anything else is invite-only. */
function signupAllowed(signups: string, tracking: Tracking): boolean {
  if (signups === 'all') return true;
  return signups === 'with_trafficsource' && Boolean(tracking.network);
}

const DAY_MS = 24 * 60 * 60 * 1000;

export type EmailStatus = 'free' | 'taken' | 'deleted';

type SignupMessageResult =
  | { status: 'sent'; conversation_id: number; credits: number }
  | { status: 'draft'; code: 'insufficient_credits' }
  | { status: 'failed'; code: string };

/** A sign-up as its entry points give it: the form, the visitor's first touch (the tracking and lander cookies), their language and browser. */
interface SignUpInput {
  form: SignupBody;
  /** The landing parameters stored on the visitor's first visit; without them, the form's own count. */
  firstTouch: Tracking | undefined;
  /** The first lander the visitor opened (its cookie); a name that is no lander's is dropped. */
  lander?: string | null;
  language: Language;
  userAgent: string | undefined;
}

export function createSignupService(deps: {
  db: Db; clock: Clock; events: EventBus;
  /** The site a visitor signs up on: whether it takes sign-ups, its credits for new members, its message length. */
  site: (siteId: number) => Promise<Site>;
  accounts: { createSession(userId: number, siteId: number, userAgent?: string): Promise<string>; apiUser(userId: number): Promise<ApiUser | null> };
  /** The likes a visitor gave before signing up, given as any like is (who may be liked is that use case's rule). */
  likes: { like(actor: Actor, likedId: number, options: { source: 'lander' }): Promise<unknown> };
  /** The first message, sent as any message is (its price, its refusals). */
  chat: { send(actor: Actor, input: SendInput): Promise<{ message: { conversation_id: number }; credits: number }> };
}) {
  const { db, clock } = deps;

  /**
   * What an address means for sign-up: free, taken by a living account (offer log-in), or a deleted
   * account still inside its reactivation window (offer reactivation). After the window the deletion
   * is final and the address is free again. Each site has its own accounts (decision 051): an account on another
   * site leaves the address free here.
   */
  async function emailStatus(siteId: number, email: string): Promise<{ status: EmailStatus; userId: number | null }> {
    const [row] = await db
      .select({ id: users.id, status: users.status, deletedAt: users.deletedAt })
      .from(users)
      .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email.toLowerCase()}`));
    if (!row) return { status: 'free', userId: null };
    if (row.status !== 'deleted') return { status: 'taken', userId: row.id };
    const deletedAt = row.deletedAt ?? clock();
    if (clock().getTime() - deletedAt.getTime() < REACTIVATION_WINDOW_DAYS * DAY_MS) return { status: 'deleted', userId: row.id };
    return { status: 'free', userId: row.id };
  }

  /** The actor's site, or 403 signup_disabled where it takes no sign-ups with this tracking; and the tracking the sign-up is booked on. */
  async function openSite(actor: Actor, input: Pick<SignUpInput, 'firstTouch'> & { form: Record<string, unknown> }) {
    // Whoever signs up does it on the site of the request (a member who signs up again makes a second account).
    const siteId = siteOf(actor);
    if (siteId === null) throw new AppError(403, 'forbidden');
    const site = await deps.site(siteId);
    // First touch wins: the stored landing parameters, else what the sign-up brings.
    const tracking = input.firstTouch && Object.keys(input.firstTouch).length ? input.firstTouch : trackingFrom(input.form);
    if (!signupAllowed(site.signups, tracking)) throw new AppError(403, 'signup_disabled');
    return { site, tracking };
  }

  /** A new member of `site` (whose name and domain a password may not lean on). */
  async function createMember(site: Site, input: SignupInput, language: Language, tracking: Tracking, lander: SignupLander | null): Promise<number> {
    const { id: siteId, signupCredits } = site;
    const existing = await emailStatus(siteId, input.email);
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
            sub1: tracking.sub1 ?? null, sub2: tracking.sub2 ?? null, sub3: tracking.sub3 ?? null, lander,
          })
          .returning({ id: users.id });
        await tx.insert(profiles).values({
          userId: user.id, name: input.name, gender: input.gender, birthDate: input.date_of_birth,
          country: input.country, createdAt: clock(),
        });
        // A new member's name is shown at once and waits for a moderator's look (decision 061).
        await queueTextChange(tx, clock(), { siteId, memberId: user.id, field: 'name', before: null, after: input.name });
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
  }

  /** The first message of a sign-up, checked before the account is made: the message rule, the site's length, a recipient who is there. */
  /**
   * The visitor's likes from before the account (the swipe lander), given by the new member through the like use case:
   * one that is not there for them (no such member, deleted, hidden, blocked, of a site theirs does not meet, themselves)
   * is dropped without failing the sign-up. A new member has no likes yet, so none of these is a match.
   */
  async function givePendingLikes(site: Site, userId: number, ids: readonly number[]): Promise<number[]> {
    // Only members a visitor of this site could have been shown: listed (active, not invisible, not suspended), of a site it meets.
    const listed = await db.select({ id: users.id }).from(users).innerJoin(profiles, eq(profiles.userId, users.id))
      .where(and(inArray(users.id, [...new Set(ids)]), listedTo(userId, meetsSite(site.id, users.siteId), clock())));
    const shown = new Set(listed.map((r) => r.id));
    const actor = actorFor(site.id, userId);
    const liked: number[] = [];
    for (const id of ids.filter((x, i) => shown.has(x) && ids.indexOf(x) === i)) {
      try {
        await deps.likes.like(actor, id, { source: 'lander' });
        liked.push(id);
      } catch (error) {
        if (!isAppError(error)) throw error;
      }
    }
    return liked;
  }

  async function firstMessage(site: Site, form: SignupBody): Promise<{ profileId: number; text: string } | null> {
    if (typeof form.profile_id !== 'number' || !form.signup_message?.trim()) return null;
    const checked = messageSchema.safeParse({ text: form.signup_message });
    if (!checked.success) {
      const key = messageKey(checked.error.issues[0].message);
      throw new AppError(400, key.replace(/^errors\./, ''), {}, { signup_message: key });
    }
    const { text } = checked.data;
    if (text.length > site.messageLength) {
      throw new AppError(400, 'message_too_long', { max: site.messageLength }, { signup_message: 'errors.message_too_long' });
    }
    // The member it goes to must exist and be visible on this site (a site it meets, decision 051).
    const [row] = await db.select({ status: users.status, profileStatus: profiles.status, suspendedUntil: users.suspendedUntil }).from(users)
      .innerJoin(profiles, eq(profiles.userId, users.id)).where(and(eq(users.id, form.profile_id), meetsSite(site.id, users.siteId)));
    if (!row || row.status === 'deleted' || hiddenProfile(row, clock())) throw new AppError(404, 'not_found');
    return { profileId: form.profile_id, text };
  }

  return {
    emailStatus,

    /** Whether the visitor's site takes this sign-up at all (403 signup_disabled), before anything else of it is looked at. */
    async assertOpen(actor: Actor, input: Pick<SignUpInput, 'firstTouch'> & { form: Record<string, unknown> }): Promise<void> {
      await openSite(actor, input);
    },

    /**
     * Sign-up, for both entry points (POST /api/signup.php and the sign-up form's page action), on the visitor's site:
     * whether it takes sign-ups (with the first touch's tracking), the credits it gives a new member. Creates the
     * member, opens their session (the entry point sets its cookie) and sends the first message to a member once the
     * account exists; it costs what any message of theirs costs, and without enough credits it comes back as a draft.
     * An address in use answers 409 email_taken (offer log-in) or account_deleted (offer reactivation).
     */
    async signUp(actor: Actor, input: SignUpInput): Promise<{ user: ApiUser; session: string; signup_message?: SignupMessageResult; liked?: number[] }> {
      const { site, tracking } = await openSite(actor, input);
      const message = await firstMessage(site, input.form);
      const userId = await createMember(site, input.form, input.language, tracking, signupLander(input.lander));
      const session = await deps.accounts.createSession(userId, site.id, input.userAgent);
      const liked = input.form.pending_likes?.length ? await givePendingLikes(site, userId, input.form.pending_likes) : undefined;
      let signupMessage: SignupMessageResult | undefined;
      if (message) {
        try {
          // The new member writes it: the request began as a visitor's.
          const sent = await deps.chat.send(actorFor(site.id, userId), {
            recipientId: message.profileId, content: { kind: 'text', text: message.text }, idempotencyKey: `signup-${userId}`,
          });
          signupMessage = { status: 'sent', conversation_id: sent.message.conversation_id, credits: sent.credits };
        } catch (error) {
          if (!isAppError(error)) throw error;
          signupMessage = error.code === 'insufficient_credits' ? { status: 'draft', code: 'insufficient_credits' } : { status: 'failed', code: error.code };
        }
      }
      const user = await deps.accounts.apiUser(userId);
      if (!user) throw authenticationRequired();
      return { user, session, ...(signupMessage ? { signup_message: signupMessage } : {}), ...(liked ? { liked } : {}) };
    },

    async touch(actor: Actor): Promise<void> {
      const { userId } = requireMember(actor);
      await db.update(users).set({ lastActiveAt: clock() }).where(eq(users.id, userId));
    },
  };
}
