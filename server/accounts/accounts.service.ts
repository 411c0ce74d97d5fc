import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { ApiUser } from '#common/api-types.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import { AUTH_COOKIE_MAX_AGE } from '#common/constants.ts';
import type { Db } from '../db/client.ts';
import { conversationMembers, likes, sessions, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import { AppError } from '../infra/errors.ts';
import { LOGIN_LOCK_ATTEMPTS, LOGIN_LOCK_MINUTES } from '#common/notifications.ts';
import type { ProfilesService } from '../profiles/profiles.service.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createAccountsService(deps: { db: Db; clock: Clock; profiles: ProfilesService }) {
  const { db, clock } = deps;

  return {
    /**
     * The user id for valid credentials, else null. Deleted accounts cannot log in.
     * LOGIN_LOCK_ATTEMPTS wrong passwords in a row block the account for LOGIN_LOCK_MINUTES
     * (spec section 8); while blocked even the right password is refused, and a successful
     * log-in resets the count.
     */
    async verifyCredentials(email: string, password: string): Promise<number | null> {
      const [user] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, failedLogins: users.failedLogins, lockedUntil: users.lockedUntil })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
      if (!user || user.status === 'deleted') {
        await verifyPassword(await dummyPasswordHash(), password);
        return null;
      }
      const now = clock();
      if (user.lockedUntil && user.lockedUntil > now) {
        throw new AppError(423, 'account_locked', { minutes: Math.ceil((user.lockedUntil.getTime() - now.getTime()) / 60_000) });
      }
      if (await verifyPassword(user.passwordHash, password)) {
        if (user.failedLogins > 0 || user.lockedUntil) await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
        return user.id;
      }
      const [row] = await db.update(users).set({ failedLogins: sql`${users.failedLogins} + 1` }).where(eq(users.id, user.id)).returning({ failed: users.failedLogins });
      if (row.failed >= LOGIN_LOCK_ATTEMPTS) {
        await db.update(users).set({ failedLogins: 0, lockedUntil: new Date(now.getTime() + LOGIN_LOCK_MINUTES * 60_000) }).where(eq(users.id, user.id));
        throw new AppError(423, 'account_locked', { minutes: LOGIN_LOCK_MINUTES });
      }
      return null;
    },

    async createSession(userId: number, userAgent = ''): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      await db.insert(sessions).values({
        id: hashToken(token), userId, createdAt: now, userAgent: userAgent.slice(0, 300),
        expiresAt: new Date(now.getTime() + AUTH_COOKIE_MAX_AGE * 1000),
      });
      return token;
    },

    async sessionUserId(token: string | undefined): Promise<number | null> {
      if (!token || token.length > 100) return null;
      const [row] = await db
        .select({ userId: sessions.userId, status: users.status })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, hashToken(token)), gt(sessions.expiresAt, clock())));
      return row && row.status !== 'deleted' ? row.userId : null;
    },

    async deleteSession(token: string | undefined): Promise<void> {
      if (token) await db.delete(sessions).where(eq(sessions.id, hashToken(token)));
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await db.update(users).set({ language }).where(eq(users.id, userId));
    },

    /** The user object of spec section 3, with the counters the navigation badges need. */
    async apiUser(userId: number): Promise<ApiUser | null> {
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user || user.status === 'deleted') return null;
      const profile = await deps.profiles.summary(userId, true);
      if (!profile) return null;
      const [{ unread }] = await db
        .select({ unread: sql<number>`coalesce(sum(${conversationMembers.unreadCount}), 0)::int` })
        .from(conversationMembers)
        .where(and(
          eq(conversationMembers.userId, userId), eq(conversationMembers.hidden, false),
          // A block hides the conversation, so its unread messages do not count either.
          sql`not exists (select 1 from conversations c, blocks b where c.id = ${conversationMembers.conversationId}
            and ((b.blocker_id = c.user_low and b.blocked_id = c.user_high) or (b.blocker_id = c.user_high and b.blocked_id = c.user_low)))`,
        ));
      // Likes from invisible, deleted or blocked members are not in the likes list, so not in the badge either.
      const [{ newLikes }] = await db
        .select({ newLikes: sql<number>`count(*)::int` })
        .from(likes)
        .innerJoin(users, eq(users.id, likes.likerId))
        .where(and(
          eq(likes.likedId, userId), eq(likes.isNew, true), eq(users.invisible, false), sql`${users.status} <> 'deleted'`,
          sql`not exists (select 1 from blocks b where (b.blocker_id = ${likes.likerId} and b.blocked_id = ${likes.likedId})
            or (b.blocker_id = ${likes.likedId} and b.blocked_id = ${likes.likerId}))`,
        ));
      return {
        id: user.id,
        email: user.email,
        status: user.status === 'active' ? 'active' : 'not_confirmed',
        paid_user: user.paidUser,
        credits: user.credits,
        notifications_disabled: user.notificationsDisabled,
        language: isLanguage(user.language) ? user.language : 'en',
        signup_date: user.signupDate.toISOString(),
        num_unread_messages: unread,
        num_new_likes: newLikes,
        profile,
      };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
