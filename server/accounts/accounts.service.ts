import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lte, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { ApiUser } from '#common/api-types.ts';
import type { Gender } from '#common/constants.ts';
import { soughtGender } from '#common/profile.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import { ACTIVE_STEP_MS, AUTH_COOKIE_MAX_AGE, SESSION_IDLE_DAYS } from '#common/constants.ts';
import type { Db } from '../db/client.ts';
import { chatListVersions, likes, memberBans, photos, profiles, sessions, users } from '../db/schema.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventBus } from '../infra/events.ts';
import type { RateLimiter } from '../infra/rate-limit.ts';
import { lastActiveOfJoinedUser, profileColumns, toProfileSummary, type ProfileRow, type ProfilesService } from '../profiles/profiles.service.ts';
import { requireMember, type Actor } from '../actor.ts';
import { listedTo, meetsSite, notBlockedWith } from './contact-rules.ts';
import { dummyPasswordHash, verifyPassword } from './passwords.ts';

/** Sessions are stored by this hash, so a leaked table holds no usable token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

const SESSION_IDLE_MS = SESSION_IDLE_DAYS * 24 * 3_600_000;
/** last_used_at moves at most this often per session: no write on every request. */
const LAST_USED_STEP_MS = 3_600_000;
/** Sessions whose unread count an instance keeps (see knownUnread): a few MB at most. */
const KNOWN_UNREAD_MAX = 50_000;

/** A device that logged in to this account before (its signed cookie). */
export interface KnownDevice {
  userId: number;
  id: string;
}

/** Log-in counters are keyed by the address as people type it in any case or spacing. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();
/**
 * Counter keys hold a hash of the address, not the address (they sit in Redis or a table for an hour). One address
 * may hold an account on each site (decision 051): each account has counters of its own.
 */
const throttleKey = (siteId: number, email: string) => createHash('sha256').update(`login:${siteId}:${email}`).digest('base64url');

export function createAccountsService(deps: {
  db: Db; clock: Clock; profiles: ProfilesService; events: EventBus;
  limits: { loginPair: RateLimiter; loginEmail: RateLimiter; loginDevice: RateLimiter };
}) {
  const { db, clock, limits } = deps;
  // Every authenticated request runs one of these (a page also loads the member): prepared once, so none is built
  // again per request.
  const sessionColumns = {
    userId: sessions.userId, accountStatus: users.status, expiresAt: sessions.expiresAt, lastUsedAt: sessions.lastUsedAt,
    activeAt: users.lastActiveAt, chatListVersion: sql<number>`coalesce(${chatListVersions.version}, 0)`.mapWith(Number),
  };
  // A block hides the conversation, so its unread messages do not count either. Only conversations with unread
  // messages are looked at (most of a member's are read): the block check runs for those alone.
  const unreadOf = (userId: Placeholder | AnyColumn) => sql<number>`(select coalesce(sum(cm.unread_count), 0)::int from conversation_members cm join conversations c on c.id = cm.conversation_id
    where cm.user_id = ${userId} and cm.unread_count > 0 and not cm.hidden
    and ${notBlockedWith(userId, sql`(case when c.user_low = ${userId} then c.user_high else c.user_low end)`)})`;
  /**
   * The member as the API shows them, for the member `userId` (a placeholder or the session's column) of the site
   * `siteId` (the session's site placeholder, or their users row's site read again).
   */
  const memberColumns = (userId: Placeholder | AnyColumn, siteId: SQL = sql`(select m.site_id from ${users} m where m.id = ${userId})`) => ({
    ...profileColumns,
    // The statements join the member's users row: no subquery for the last activity.
    lastActiveAt: lastActiveOfJoinedUser,
    email: users.email, accountStatus: users.status, paidUser: users.paidUser, credits: users.credits, sexuality: profiles.sexuality,
    notificationsDisabled: users.notificationsDisabled, language: users.language, signupDate: users.signupDate,
    unread: unreadOf(userId),
    // Only the likes the likes list shows count: from members the listing rule lists to this member (not invisible,
    // deleted, disabled or blocked either way, of sites the member's site meets). Inside the count `users` and
    // `profiles` are the liker's (they hide the statement's own), as the rule names them.
    newLikes: sql<number>`(select count(*)::int from ${likes} l join ${users} on ${users.id} = l.liker_id join ${profiles} on ${profiles.userId} = l.liker_id
      where l.liked_id = ${userId} and l.is_new
      and ${listedTo(userId, meetsSite(siteId, users.siteId), sql.placeholder('now'))})`,
  });
  // A session is one only on the site it was made on, for a member of that site (decision 051): presented on another
  // site (another Host) it finds no row, as if there were no cookie.
  const onSite = and(
    eq(sessions.id, sql.placeholder('id')), eq(sessions.siteId, sql.placeholder('siteId')), eq(users.siteId, sql.placeholder('siteId')),
  );
  const sessionQuery = db
    .select(sessionColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(chatListVersions, eq(chatListVersions.userId, sessions.userId))
    .where(onSite)
    .prepare('session_user');
  // The same with the member (a member without a profile has no user object: its columns come back null). Without
  // `unread` where this instance knows the count at the member's chat list version (knownUnread).
  const sessionMember = (unread: SQL<number>) => db
    .select({ ...memberColumns(sessions.userId, sql`${sql.placeholder('siteId')}`), unread, ...sessionColumns })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(chatListVersions, eq(chatListVersions.userId, sessions.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(onSite);
  const sessionMemberQuery = sessionMember(unreadOf(sessions.userId)).prepare('session_member');
  const sessionMemberKnownUnreadQuery = sessionMember(sql<number>`null`).prepare('session_member_known_unread');
  // The count again, with the version it was read at, when the version moved since this instance learnt it.
  const unreadQuery = db
    .select({ unread: unreadOf(users.id), chatListVersion: sessionColumns.chatListVersion })
    .from(users)
    .leftJoin(chatListVersions, eq(chatListVersions.userId, users.id))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('member_unread');
  /**
   * What this instance learnt of each session's unread count, with the version of the member's chat list it was read
   * at (the same statement): every change the count depends on (a message, a read, a chat hidden, added or gone, a
   * block made or lifted) moves that version (database triggers, migration 0022), so while the version a request
   * reads with its session stands, so does the count. Most recently used last; the oldest go past KNOWN_UNREAD_MAX.
   */
  const knownUnread = new Map<string, { version: number; unread: number }>();
  const learnUnread = (sessionId: string, version: number, unread: number) => {
    knownUnread.delete(sessionId);
    knownUnread.set(sessionId, { version, unread });
    if (knownUnread.size > KNOWN_UNREAD_MAX) knownUnread.delete(knownUnread.keys().next().value!);
  };
  /** The session member's row with its unread count: from one statement, or two when the known count is out of date. */
  async function sessionMemberRow(id: string, siteId: number) {
    const now = clock().toISOString();
    const known = knownUnread.get(id);
    if (!known) {
      const [row] = await sessionMemberQuery.execute({ id, siteId, now });
      if (row) learnUnread(id, row.chatListVersion, row.unread);
      return row;
    }
    const [row] = await sessionMemberKnownUnreadQuery.execute({ id, siteId, now });
    if (!row) return row;
    if (row.chatListVersion === known.version) {
      learnUnread(id, known.version, known.unread);
      row.unread = known.unread;
      return row;
    }
    const [fresh] = await unreadQuery.execute({ userId: row.userId });
    learnUnread(id, fresh.chatListVersion, fresh.unread);
    row.unread = fresh.unread;
    return row;
  }
  const memberQuery = db
    .select(memberColumns(sql.placeholder('userId')))
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .leftJoin(photos, eq(photos.id, profiles.mainPhotoId))
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('api_user');
  type MemberRow = Awaited<ReturnType<typeof memberQuery.execute>>[number];

  function toMember(row: MemberRow | undefined): Member | null {
    if (!row || row.id === null || row.accountStatus === 'deleted') return null;
    const user: ApiUser = {
      id: row.id,
      email: row.email,
      status: row.accountStatus === 'active' ? 'active' : 'not_confirmed',
      paid_user: row.paidUser,
      credits: row.credits,
      notifications_disabled: row.notificationsDisabled,
      language: isLanguage(row.language) ? row.language : 'en',
      signup_date: row.signupDate.toISOString(),
      num_unread_messages: row.unread,
      num_new_likes: row.newLikes,
      profile: toProfileSummary(row as ProfileRow, clock(), true),
    };
    return { user, soughtGender: soughtGender(row.gender, row.sexuality) };
  }

  const service = {
    /**
     * A log-in attempt. Wrong passwords are throttled, never used to lock the owner out:
     * - per (normalised e-mail, client IP): LIMITS.loginPair failures, then 429 for that pair;
     * - per normalised e-mail from every address: LIMITS.loginEmail failures, then 429 for
     *   devices the account does not know;
     * - a known device (signed cookie bound to this account, set at a successful log-in or
     *   password reset) skips both and has its own LIMITS.loginDevice.
     * Known and unknown addresses go through the same steps (the unknown ones against a dummy
     * hash), so status, body and timing tell nothing about which addresses have accounts.
     * Deleted accounts cannot log in. An account logs in only on its own site (`siteId`, the request's): on another
     * site its address is as unknown as any other (decision 051).
     */
    async attemptLogin(
      siteId: number, emailInput: string, password: string, from: { ip: string; device: KnownDevice | null },
    ): Promise<{ userId: number } | { userId: null; retryAfter?: number; banned?: true; suspendedUntil?: Date }> {
      const email = normalizeEmail(emailInput);
      const key = throttleKey(siteId, email);
      const [user] = await db
        .select({ id: users.id, passwordHash: users.passwordHash, status: users.status, suspendedUntil: users.suspendedUntil })
        .from(users)
        .where(and(eq(users.siteId, siteId), sql`lower(${users.email}) = ${email}`));
      const account = user && user.status !== 'deleted' ? user : null;
      const device = account && from.device?.userId === account.id ? from.device.id : null;
      const counters: [RateLimiter, string][] = device
        ? [[limits.loginDevice, `${device}:${key}`]]
        : [[limits.loginPair, `${key}|${from.ip}`], [limits.loginEmail, key]];
      let retryAfter = 0;
      for (const [limiter, k] of counters) retryAfter = Math.max(retryAfter, await limiter.blocked(k));
      if (retryAfter > 0) return { userId: null, retryAfter };
      const ok = account
        ? await verifyPassword(account.passwordHash, password)
        : (await verifyPassword(await dummyPasswordHash(), password), false);
      if (ok && account) {
        // The pair's count starts again; the per-e-mail one does not, or each log-in of the owner would hand an attacker new tries.
        if (!device) await limits.loginPair.reset(`${key}|${from.ip}`);
        // A banned member learns it only with the right password (no way to probe which accounts are banned).
        if ((await db.$count(memberBans, eq(memberBans.userId, account.id))) > 0) return { userId: null, banned: true };
        // A suspension (decision 063) ends by itself at its time: compared with the clock, nothing lifts it.
        if (account.suspendedUntil && account.suspendedUntil > clock()) return { userId: null, suspendedUntil: account.suspendedUntil };
        return { userId: account.id };
      }
      for (const [limiter, k] of counters) await limiter.hit(k);
      return { userId: null };
    },

    /**
     * A password reset proved the mailbox: the account's log-in throttle starts again: across addresses, for the
     * address the reset came from, and for the device it was made on (now a known device of the account).
     */
    async clearLoginThrottle(siteId: number, email: string, from: { ip: string; device: KnownDevice }): Promise<void> {
      const key = throttleKey(siteId, normalizeEmail(email));
      await limits.loginEmail.reset(key);
      await limits.loginPair.reset(`${key}|${from.ip}`);
      await limits.loginDevice.reset(`${from.device.id}:${key}`);
    },

    /** A new session of the member on `siteId`, their own site (the request's): it is a session there only. */
    async createSession(userId: number, siteId: number, userAgent = ''): Promise<string> {
      const token = randomBytes(32).toString('base64url');
      const now = clock();
      await db.insert(sessions).values({
        id: hashToken(token), userId, siteId, createdAt: now, lastUsedAt: now, userAgent: userAgent.slice(0, 300),
        expiresAt: new Date(now.getTime() + AUTH_COOKIE_MAX_AGE * 1000),
      });
      return token;
    },

    /**
     * The member of a session on site `siteId` (the request's), or null. A session ends 30 days after log-in, or after
     * SESSION_IDLE_DAYS without use (last_used_at is kept to the hour, so "idle" may start up to an
     * hour early). An ended session's row goes at once. A session of another site, or of a member of another
     * site, is none here (decision 051).
     */
    async sessionUserId(token: string | undefined, siteId: number): Promise<number | null> {
      return (await service.session(token, siteId))?.userId ?? null;
    },

    /**
     * `sessionUserId` with what the request context takes from the same statement: the version of the member's chat
     * list (chat_list_versions; 0 before their first conversation), which lets the chat service serve its copy, and,
     * when the request will show the member (`withMember`), the member as `member` returns them.
     */
    async session(token: string | undefined, siteId: number, { withMember = false } = {}): Promise<Session | null> {
      if (!token || token.length > 100) return null;
      const id = hashToken(token);
      const [row] = withMember ? [await sessionMemberRow(id, siteId)] : await sessionQuery.execute({ id, siteId });
      if (!row) return null;
      const now = clock();
      if (row.expiresAt <= now || now.getTime() - row.lastUsedAt.getTime() >= SESSION_IDLE_MS) {
        await db.delete(sessions).where(eq(sessions.id, id));
        return null;
      }
      if (row.accountStatus === 'deleted') return null;
      if (now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_STEP_MS) {
        // Conditional, so parallel requests of one session write once.
        await db.update(sessions).set({ lastUsedAt: now })
          .where(and(eq(sessions.id, id), lte(sessions.lastUsedAt, new Date(now.getTime() - LAST_USED_STEP_MS))));
      }
      if (!row.activeAt || now.getTime() - row.activeAt.getTime() >= ACTIVE_STEP_MS) {
        // The member is active (online for others): at most one write a minute, however many requests and tabs.
        await db.update(users).set({ lastActiveAt: now })
          .where(and(eq(users.id, row.userId), or(isNull(users.lastActiveAt), lte(users.lastActiveAt, new Date(now.getTime() - ACTIVE_STEP_MS)))));
      }
      const session: Session = { userId: row.userId, chatListVersion: row.chatListVersion };
      // Left-joined: a session without a profile brings the member's columns as nulls (no id), which toMember turns into null.
      if (withMember) session.member = toMember(row as unknown as MemberRow);
      return session;
    },

    /** Log-out: the session's row goes, and its live sockets close. */
    async deleteSession(token: string | undefined): Promise<void> {
      if (!token) return;
      knownUnread.delete(hashToken(token));
      const [ended] = await db.delete(sessions).where(eq(sessions.id, hashToken(token))).returning({ id: sessions.id, userId: sessions.userId });
      if (ended) deps.events.emit('session.ended', { userId: ended.userId, sessionId: ended.id });
    },

    async setLanguage(actor: Actor, language: Language): Promise<void> {
      const { userId } = requireMember(actor);
      await db.update(users).set({ language }).where(eq(users.id, userId));
    },

    /**
     * The user object of spec section 3, with the counters the navigation badges need: one statement
     * (account, profile summary and both counters), as every signed-in page and the request context load it.
     */
    async apiUser(userId: number): Promise<ApiUser | null> {
      return (await service.member(userId))?.user ?? null;
    },

    /**
     * The signed-in member as the API shows them, and the gender their "looking for" answer seeks (for
     * the first search), from one statement: every page of a request shares it (RequestContext).
     */
    async member(userId: number): Promise<Member | null> {
      const [row] = await memberQuery.execute({ userId, now: clock().toISOString() });
      return toMember(row);
    },
  };
  return service;
}

/** The signed-in member as the API shows them, and the gender their "looking for" answer seeks. */
export interface Member {
  user: ApiUser;
  soughtGender: Gender | undefined;
}

/** A valid session: its member, and what the request context reads with it. */
export interface Session {
  userId: number;
  chatListVersion: number;
  /** Loaded with the session when asked for (null: no user object, e.g. no profile). */
  member?: Member | null;
}
