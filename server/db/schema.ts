import { STAFF_ROLES, type StaffRoleName } from '../../common/staff.ts';
import { MARKETING_CATEGORIES } from '../../common/notifications.ts';
import { sql } from 'drizzle-orm';
import type { FlagKind } from '../../common/moderation-flags.ts';
import type { BanReason } from '../../common/reports.ts';
import {
  bigint, bigserial, boolean, check, date, doublePrecision, index, integer, jsonb, pgSequence, pgTable, primaryKey, serial, text, timestamp, uniqueIndex,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();

export const companies = pgTable('companies', {
  id: serial().primaryKey(),
  name: text().notNull(),
  address: text().notNull(),
  kvk: text().notNull(),
  city: text().notNull(),
  country: text().notNull(),
  tradenames: jsonb().$type<string[]>().notNull().default([]),
  vatNumbers: jsonb().$type<string[]>().notNull().default([]),
  supportPhone: text().notNull().default(''),
  deleteDiscount: integer().notNull().default(0),
  added: createdAt(),
});

export const sites = pgTable('sites', {
  id: serial().primaryKey(),
  domain: text().notNull().unique(),
  isDefault: boolean().notNull().default(false),
  companyId: integer().notNull().references(() => companies.id),
  name: text().notNull(),
  indexTitle: text().notNull().default(''),
  description: text().notNull().default(''),
  domainLanguage: text(),
  /** Where built assets and public photos are served from (an https origin, optionally with a path); '' for this server. */
  cdnPrefix: text().notNull().default(''),
  /** 1–7: default, she, bdsm, bbw, gilf, milf, gay (NICHES): the default search, the home page's copy and hero image. */
  niche: integer().notNull().default(1),
  /** The site's colours (#rrggbb), applied at run time over the built Bootstrap theme (docs/decisions/038). */
  themePrimary: text().notNull().default('#0f8b8d'),
  themeSecondary: text().notNull().default('#c2187a'),
  themeDark: text().notNull().default('#2b1740'),
  /** The navbar logo: a path on this server or an https URL; '' shows the site's name as a text mark. */
  logoUrl: text().notNull().default(''),
  signups: text().notNull().default('all'),
  loggedOutSearch: text().notNull().default('all'),
  loggedOutSearchTrafficsource: text().notNull().default('none'),
  countries: jsonb().$type<string[]>().notNull().default([]),
  supportEmail: text().notNull().default(''),
  supportPhone: text().notNull().default(''),
  mailName: text().notNull().default(''),
  messageCredits: integer().notNull().default(5),
  signupCredits: integer().notNull().default(0),
  /** Messages a free member may send without credits (in at most FREE_CONVERSATIONS conversations). */
  freeMessages: integer().notNull().default(0),
  photoCredits: integer().notNull().default(10),
  giftCredits: integer().notNull().default(20),
  /** Per sender country: messages cost at least `costs` credits there (`currency`: the price shown). */
  minimumMessageCosts: jsonb().$type<Record<string, { costs: number; currency: string }>>().notNull().default({}),
  messageLength: integer().notNull().default(1000),
  refundDays: integer().notNull().default(14),
  /**
   * The site's members meet the members of its company's other sites that resell too (search, profiles, likes, chat);
   * off, they meet only each other (decision 051). Accounts, sessions and prices stay with each member's own site.
   */
  memberResell: boolean().notNull().default(false),
  enableSiteEntryPopup: boolean().notNull().default(true),
  /** Whether the visitor's GeoIP country preselects the sign-up country and the language choices (spec section 3). */
  geoipPreselect: boolean().notNull().default(true),
  /** The country assumed when GeoIP gives none or one outside the site's countries; null: the site's first country. */
  geoipDefaultCountry: text(),
  fictionalIcon: text().notNull().default(''),
  fictionalWarning: text().notNull().default(''),
  fictionalSingular: text().notNull().default(''),
  fictionalPlural: text().notNull().default(''),
  /** Whether a new member's search, swipe deck and like overlay leave fictional profiles out until they choose. */
  hideFictionalDefault: boolean().notNull().default(false),
  visibleProfileFields: jsonb().$type<string[]>().notNull().default([]),
  visibleProfileNotes: boolean().notNull().default(false),
  searchFields: jsonb().$type<string[]>().notNull().default(['gender', 'country', 'age']),
  /** The interests members of the site choose from (INTERESTS' keys, in their order); empty: every one. */
  interests: jsonb().$type<string[]>().notNull().default([]),
  /** 'after': new photos show at once and are reviewed afterwards; 'before': they wait for approval. */
  photoModeration: text().$type<'before' | 'after'>().notNull().default('after'),
  /**
   * Visitors (landers, the logged-out pages) meet a member only once their profile is this many days old, and only
   * with a photo a moderator approved: a member who joined minutes ago is not yet the site's shop window.
   */
  visitorNewMemberDays: integer().notNull().default(7),
  createdAt: createdAt(),
}, (t) => [
  check('sites_niche_range', sql`${t.niche} between 1 and 7`),
  check('sites_photo_moderation', sql`${t.photoModeration} in ('before', 'after')`),
  check('sites_theme_colours', sql`${t.themePrimary} ~ '^#[0-9a-f]{6}$' and ${t.themeSecondary} ~ '^#[0-9a-f]{6}$' and ${t.themeDark} ~ '^#[0-9a-f]{6}$'`),
]);

export const regions = pgTable('regions', {
  id: serial().primaryKey(),
  country: text().notNull(),
  code: text().notNull(),
  name: text().notNull(),
}, (t) => [uniqueIndex('regions_country_code').on(t.country, t.code)]);

export const users = pgTable('users', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id),
  email: text().notNull(),
  passwordHash: text().notNull(),
  status: text().$type<'not_confirmed' | 'active' | 'deleted'>().notNull().default('not_confirmed'),
  paidUser: boolean().notNull().default(false),
  credits: integer().notNull().default(0),
  language: text().notNull().default('en'),
  notificationsDisabled: jsonb().$type<string[]>().notNull().default([]),
  /** Failed log-ins in a row; reaching the limit locks the account until lockedUntil. */
  failedLogins: integer().notNull().default(0),
  lockedUntil: timestamp({ withTimezone: true }),
  activatedAt: timestamp({ withTimezone: true }),
  /** Invisible members do not appear in search, likes or visitor lists of others. */
  invisible: boolean().notNull().default(false),
  /** Read receipts both ways: off, the member neither shows nor sees them (a privacy setting, not an upsell). */
  readReceipts: boolean().notNull().default(true),
  /** Words and phrases this member never wants to read: matching messages are hidden and cost the sender nothing. */
  wordFilter: jsonb().$type<string[]>().notNull().default([]),
  /** E-mail categories switched off by the member (all are on by default). */
  /** The e-mail categories the member does not want; a new member has not opted in to marketing (decision 068). */
  emailOptOut: jsonb().$type<string[]>().notNull().default([...MARKETING_CATEGORIES]),
  pushState: text().$type<'unknown' | 'subscribed' | 'not_subscribed' | 'denied'>().notNull().default('unknown'),
  pushSubscription: jsonb().$type<{ endpoint: string; keys: { p256dh: string; auth: string } } | null>(),
  deletedAt: timestamp({ withTimezone: true }),
  deleteReason: text(),
  network: text(),
  ref: text(),
  sub1: text(),
  sub2: text(),
  sub3: text(),
  /** The lander the member first opened before signing up (a name of SIGNUP_LANDERS, decision 083); null when none. */
  lander: text(),
  signupDate: createdAt(),
  /** Last time a page of the member was open (page-hidden beacon). */
  lastActiveAt: timestamp({ withTimezone: true }),
  /**
   * A suspension by staff (decision 063): until then the member cannot log in and is hidden as a banned one is. It
   * ends by itself: every check compares it with the clock, so nothing has to lift it.
   */
  suspendedUntil: timestamp({ withTimezone: true }),
  /** The member's choice to leave fictional profiles out of search, the swipe deck and the like overlay; null: the site's default. */
  hideFictional: boolean(),
}, (t) => [
  // An account belongs to one site: the same address may hold an account on each site (decision 051).
  uniqueIndex('users_site_email_unique').on(t.siteId, sql`lower(${t.email})`),
  check('users_credits_non_negative', sql`${t.credits} >= 0`),
  // The reports count the open day's sign-ups and activations live (decision 081).
  index('users_signup_date').on(t.signupDate),
  index('users_activated_at').on(t.activatedAt),
]);

export const profiles = pgTable('profiles', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  gender: text().$type<'male' | 'female'>().notNull(),
  birthDate: date({ mode: 'string' }).notNull(),
  country: text().notNull(),
  region: text(),
  about: text().notNull().default(''),
  status: text().$type<'active' | 'disabled'>().notNull().default('active'),
  fictional: boolean().notNull().default(false),
  sexuality: text(),
  hairColor: text(),
  eyeColor: text(),
  bodyType: text(),
  relationshipStatus: text(),
  tattoos: text(),
  signupReason: text(),
  interests: jsonb().$type<string[]>().notNull().default([]),
  mainPhotoId: integer(),
  city: text(),
  latitude: doublePrecision(),
  longitude: doublePrecision(),
  createdAt: createdAt(),
}, (t) => [
  index('profiles_search').on(t.gender, t.country, t.birthDate),
  index('profiles_newest').on(t.createdAt.desc(), t.userId.desc()),
  // Member search walks one of these in (created_at, user_id) order and stops after a page:
  // every common filter combination has an index that starts with its equality columns.
  index('profiles_search_gender').on(t.gender, t.createdAt.desc(), t.userId.desc()).where(sql`status = 'active'`),
  index('profiles_search_country').on(t.country, t.createdAt.desc(), t.userId.desc()).where(sql`status = 'active'`),
  index('profiles_search_gender_country').on(t.gender, t.country, t.createdAt.desc(), t.userId.desc()).where(sql`status = 'active'`),
  index('profiles_search_region').on(t.country, t.region, t.createdAt.desc(), t.userId.desc()).where(sql`status = 'active'`),
  // The search's distance filter (docs/decisions/084): the located members in the page's order, their place in the key,
  // so a scan takes them newest first and leaves those outside the bounding box without reading their rows.
  index('profiles_search_located').on(t.createdAt.desc(), t.userId.desc(), t.latitude, t.longitude)
    .where(sql`status = 'active' and latitude is not null`),
]);

export const photos = pgTable('photos', {
  id: serial().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  filename: text().notNull(),
  thumbFilename: text().notNull(),
  status: text().$type<'pending' | 'active' | 'rejected'>().notNull().default('pending'),
  /** A moderator has looked at it. With moderation after publication a photo is active before that. */
  reviewed: boolean().notNull().default(false),
  isPrivate: boolean().notNull().default(false),
  /** A moderator holds the photo for ten minutes while deciding it (decision 060), as a member report. */
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  width: integer().notNull(),
  height: integer().notNull(),
  /** The member's order of their photos, lowest first (decision 007): the first public photo that is not rejected is the main one. */
  position: integer().notNull().default(0),
  createdAt: createdAt(),
}, (t) => [
  index('photos_user').on(t.userId),
  // Serving a file looks the photo up by its file name (access rules).
  uniqueIndex('photos_filename').on(t.filename),
  uniqueIndex('photos_thumb_filename').on(t.thumbFilename),
  index('photos_pending').on(t.status, t.createdAt),
  index('photos_unreviewed').on(t.reviewed, t.createdAt),
]);

export const sessions = pgTable('sessions', {
  id: text().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** The site the session was made on: on any other site it is no session (decision 051). */
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  /** Idle sessions end: a session unused for SESSION_IDLE_DAYS is no longer valid. */
  lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  userAgent: text().notNull().default(''),
}, (t) => [index('sessions_user').on(t.userId), index('sessions_created').on(t.createdAt)]);

export const likes = pgTable('likes', {
  likerId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  likedId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  isNew: boolean().notNull().default(true),
  /** Where the like was given: a profile page, the swipe game (4 a day), the match finder, or the swipe lander before sign-up. */
  source: text().$type<'profile' | 'swipe' | 'match_finder' | 'lander'>().notNull().default('profile'),
  createdAt: createdAt(),
}, (t) => [
  primaryKey({ columns: [t.likerId, t.likedId] }),
  index('likes_liked').on(t.likedId, t.createdAt),
  index('likes_liker_source').on(t.likerId, t.source, t.createdAt),
]);

/** Profiles a member passed in the swipe game: they do not come back, unless the pass is undone. */
export const swipePasses = pgTable('swipe_passes', {
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  profileId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.userId, t.profileId] }), index('swipe_passes_latest').on(t.userId, t.createdAt)]);

/** The match finder's questionnaire: what a member looks for. */
export const matchPreferences = pgTable('match_preferences', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  gender: text().$type<'male' | 'female'>(),
  minAge: integer().notNull(),
  maxAge: integer().notNull(),
  /** Kilometres from the member's place; null: anywhere in their country. */
  maxDistanceKm: integer(),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

export const conversations = pgTable('conversations', {
  id: serial().primaryKey(),
  userLow: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  userHigh: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  lastMessageAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('conversations_pair').on(t.userLow, t.userHigh),
  check('conversations_ordered_pair', sql`${t.userLow} < ${t.userHigh}`),
]);

export const conversationMembers = pgTable('conversation_members', {
  conversationId: integer().notNull().references(() => conversations.id, { onDelete: 'cascade' }),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  unreadCount: integer().notNull().default(0),
  hidden: boolean().notNull().default(false),
  /** The newest message of the other member this member has seen (read receipts). */
  lastReadId: bigint({ mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.conversationId, t.userId] }), index('conversation_members_user').on(t.userId)]);

/**
 * What each member's chat list was built from, as a stamp: the triggers of migration 0022 give a member a new
 * version (from `chat_list_version`) whenever something their list shows changes — a message in or out, a read,
 * a hidden chat, a block, the other member's profile, main photo, status or invisibility. The session lookup reads
 * it, and the server serves its copy of the list again while the version is the same (chat.service.ts). No foreign
 * key: a trigger may stamp a member whose account is being removed in the same statement.
 */
export const chatListVersions = pgTable('chat_list_versions', {
  userId: integer().primaryKey(),
  version: bigint({ mode: 'number' }).notNull(),
});
export const chatListVersion = pgSequence('chat_list_version');

/**
 * The gift catalogue. The built-in gifts' names are translated (gifts.<slug>) and their images ship in
 * public/gifts/<slug>.svg; a gift made in the console has its name per language in `names` and its image (WebP, checked
 * and re-encoded like a member photo) in the photo storage under `image`. `credits`: what sending it costs; null is the
 * site's gift_credits. A gift is never deleted (messages name it): it is retired (`active` false).
 */
export const gifts = pgTable('gifts', {
  id: serial().primaryKey(),
  slug: text().notNull().unique(),
  sort: integer().notNull().default(0),
  active: boolean().notNull().default(true),
  names: jsonb().$type<Record<string, string>>().notNull().default({}),
  image: text().unique(),
  credits: integer(),
});

/** A photo sent in a conversation: only its two members may fetch it; moderation may reject it afterwards. */
export const chatPhotos = pgTable('chat_photos', {
  id: serial().primaryKey(),
  conversationId: integer().notNull().references(() => conversations.id, { onDelete: 'cascade' }),
  senderId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  filename: text().notNull().unique(),
  thumbFilename: text().notNull().unique(),
  width: integer().notNull(),
  height: integer().notNull(),
  status: text().$type<'pending' | 'active' | 'rejected'>().notNull().default('pending'),
  reviewed: boolean().notNull().default(false),
  /** A moderator holds the photo for ten minutes while deciding it (decision 060). */
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('chat_photos_pending').on(t.status, t.createdAt), index('chat_photos_unreviewed').on(t.reviewed, t.createdAt)]);

export const messages = pgTable('messages', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  conversationId: integer().notNull().references(() => conversations.id, { onDelete: 'cascade' }),
  senderId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  kind: text().$type<'text' | 'gift' | 'photo'>().notNull().default('text'),
  body: text().notNull(),
  giftId: integer().references(() => gifts.id),
  chatPhotoId: integer().references(() => chatPhotos.id, { onDelete: 'set null' }),
  /** Hidden from the recipient by their word filter; the sender paid nothing for it. */
  filtered: boolean().notNull().default(false),
  /** Hidden by a moderator's decision (a statement of reasons says why); an appeal upheld shows it again. */
  removedAt: timestamp({ withTimezone: true }),
  creditsSpent: integer().notNull().default(0),
  idempotencyKey: text(),
  /** The staff member who wrote this answer of a fictional profile (answering.ts); no member's answer ever carries it. */
  answeredBy: integer().references(() => staffMembers.id),
  createdAt: createdAt(),
}, (t) => [
  index('messages_conversation').on(t.conversationId, t.id),
  uniqueIndex('messages_idempotency').on(t.senderId, t.idempotencyKey),
  // The reports' days: the summaries' job reads a day's messages, the dashboard today's (decision 081).
  index('messages_created').on(t.createdAt),
  // A send counts how many members got the same text from its sender within the hour (chat-send.ts sendChecks): by
  // the text's hash, not by reading every message the sender ever wrote.
  index('messages_sender_text').on(t.senderId, sql`md5(${t.body})`),
]);

export type LedgerReason = 'signup_bonus' | 'message' | 'gift' | 'chat_photo' | 'purchase' | 'demo_grant' | 'refund' | 'ban_refund' | 'adjustment';

/** Append-only: a row is never updated or deleted; users.credits caches the running balance. */
export const creditLedger = pgTable('credit_ledger', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  delta: integer().notNull(),
  balanceAfter: integer().notNull(),
  reason: text().$type<LedgerReason>().notNull(),
  reference: text().notNull(),
  createdAt: createdAt(),
}, (t) => [
  index('credit_ledger_user').on(t.userId, t.id),
  uniqueIndex('credit_ledger_reference').on(t.reason, t.reference),
  check('credit_ledger_balance_non_negative', sql`${t.balanceAfter} >= 0`),
]);

export const creditPackages = pgTable('credit_packages', {
  id: serial().primaryKey(),
  credits: integer().notNull(),
  popular: boolean().notNull().default(false),
  sort: integer().notNull().default(0),
  active: boolean().notNull().default(true),
}, (t) => [check('credit_packages_positive', sql`${t.credits} > 0`)]);

export const creditPackagePrices = pgTable('credit_package_prices', {
  packageId: integer().notNull().references(() => creditPackages.id, { onDelete: 'cascade' }),
  currency: text().notNull(),
  amountCents: integer().notNull(),
}, (t) => [primaryKey({ columns: [t.packageId, t.currency] }), check('credit_package_prices_positive', sql`${t.amountCents} > 0`)]);

export const orders = pgTable('orders', {
  id: text().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  packageId: integer().notNull().references(() => creditPackages.id),
  credits: integer().notNull(),
  amountCents: integer().notNull(),
  currency: text().notNull(),
  paymentmethod: text().notNull(),
  status: text().$type<'open' | 'pending' | 'completed' | 'failed' | 'cancelled'>().notNull().default('open'),
  idempotencyKey: text().notNull(),
  /** With a discount: the bundle's price before it (amountCents is what is charged), the code and its percentage. */
  originalAmountCents: integer(),
  discountCodeId: integer().references(() => discountCodes.id),
  discountCode: text(),
  discountBp: integer(),
  /**
   * The once-per-user code this order reserves, from the moment it is placed: set with discountCodeId when the
   * code is once per user, cleared when the order fails or is cancelled (and its payment can no longer be paid).
   * The unique index lets one order of a member hold a code, so two checkouts cannot both carry it.
   */
  discountHoldId: integer(),
  createdAt: createdAt(),
  completedAt: timestamp({ withTimezone: true }),
  /** EU right of withdrawal: when the member agreed that delivery starts at once and the right lapses (null: older orders). */
  withdrawalConsentAt: timestamp({ withTimezone: true }),
  /** Refunded by the operator or the system (within the site's refund_days); the order stays completed. */
  refundedAt: timestamp({ withTimezone: true }),
  /** Cents returned so far, in parts (decision 066); refundedAt is set once it reaches amountCents. */
  refundedCents: integer().notNull().default(0),
  /** The reason of the latest refund (of a part, or of the whole). */
  refundReason: text(),
  /** Given when the order completes (`<year>-<number>`, numbers from invoice_numbers), shown on its invoice. */
  invoiceNumber: text().unique(),
}, (t) => [
  uniqueIndex('orders_idempotency').on(t.userId, t.idempotencyKey), index('orders_user').on(t.userId, t.createdAt),
  uniqueIndex('orders_discount_hold').on(t.userId, t.discountHoldId),
  index('orders_completed').on(t.completedAt).where(sql`${t.status} = 'completed'`),
  check('orders_refunded_within_amount', sql`${t.refundedCents} >= 0 and ${t.refundedCents} <= ${t.amountCents}`),
]);

/**
 * One refund of an order, whole or a part (decision 066). The key the console form or the command line sends makes
 * a resent request answer the first refund instead of refunding again.
 */
export const orderRefunds = pgTable('order_refunds', {
  id: serial().primaryKey(),
  orderId: text().notNull().references(() => orders.id, { onDelete: 'cascade' }),
  amountCents: integer().notNull(),
  creditsTaken: integer().notNull(),
  reason: text().notNull(),
  idempotencyKey: text().notNull(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('order_refunds_idempotency').on(t.orderId, t.idempotencyKey),
  index('order_refunds_created').on(t.createdAt),
  check('order_refunds_positive', sql`${t.amountCents} > 0 and ${t.creditsTaken} >= 0`),
]);

/** Invoice numbers, one per completed order. */
export const invoiceNumbers = pgSequence('invoice_numbers', { startWith: 1000 });

/**
 * A member's own spend cap (credits per local day or month). `pending*` is a raise or removal that waits for
 * its cooling-off period (pendingFrom); a stricter cap replaces the current one at once.
 */
export const spendCaps = pgTable('spend_caps', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  /** null: no cap in force (yet). */
  period: text().$type<'day' | 'month'>(),
  credits: integer(),
  pendingPeriod: text().$type<'day' | 'month'>(),
  /** With pendingFrom set: null means the cap is removed then. */
  pendingCredits: integer(),
  pendingFrom: timestamp({ withTimezone: true }),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
}, (t) => [
  check('spend_caps_period', sql`${t.period} in ('day', 'month') and ${t.pendingPeriod} in ('day', 'month')`),
  check('spend_caps_positive', sql`${t.credits} > 0 and ${t.pendingCredits} > 0`),
]);

/**
 * Discount codes. `siteId` null: every site (the welcome time bonus TIMEBONUS25). `userId`: a personal
 * code only that member may use (the deletion offer). Percentages in basis points (2500 = 25%).
 * `minimums`: the least order value in cents per currency; empty means none, and a code with minimums
 * is valid only in the currencies it names.
 */
export const discountCodes = pgTable('discount_codes', {
  id: serial().primaryKey(),
  siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
  /** Stored in capitals; members may type it in any case. */
  code: text().notNull(),
  kind: text().$type<'code' | 'welcome' | 'time_bonus' | 'personal'>().notNull().default('code'),
  percentBp: integer().notNull(),
  minimums: jsonb().$type<Record<string, number>>().notNull().default({}),
  /** Only members of this country (ISO 3166-1 alpha-2); null: any. */
  country: text(),
  validity: text().$type<'once-per-user' | 'unlimited'>().notNull().default('once-per-user'),
  userId: integer().references(() => users.id, { onDelete: 'cascade' }),
  active: boolean().notNull().default(true),
  /** The validity window: from `startsAt` (null: from its creation) until `expiresAt` (null: no end). */
  startsAt: timestamp({ withTimezone: true }),
  expiresAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('discount_codes_code').on(sql`coalesce(${t.siteId}, 0)`, t.code),
  index('discount_codes_user').on(t.userId),
  check('discount_codes_percent', sql`${t.percentBp} between 1 and 9000`),
  check('discount_codes_kind', sql`${t.kind} in ('code', 'welcome', 'time_bonus', 'personal')`),
  check('discount_codes_validity', sql`${t.validity} in ('once-per-user', 'unlimited')`),
  check('discount_codes_upper', sql`${t.code} = upper(${t.code})`),
]);

/**
 * The account-deletion page's retention offer: made at most once per member (a member belongs to one site), when
 * the member on their way out gives their reason and asks for it. Asking again gives this same code while it can
 * be used, and nothing once it is used or expired; a member never gets a second one (docs/decisions/048).
 */
export const retentionOffers = pgTable('retention_offers', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  codeId: integer().notNull().unique().references(() => discountCodes.id, { onDelete: 'cascade' }),
  /** Why the member wanted to leave (DELETE_REASONS); null for offers made before the reason was recorded. */
  reason: text(),
  createdAt: createdAt(),
});

/**
 * A code used by a member: written in the transaction that completes the order and books its credits.
 * The partial unique index keeps a once-per-user code to one use per member, also when two orders complete at once.
 */
export const discountRedemptions = pgTable('discount_redemptions', {
  id: serial().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  codeId: integer().notNull().references(() => discountCodes.id, { onDelete: 'cascade' }),
  orderId: text().notNull().unique().references(() => orders.id, { onDelete: 'cascade' }),
  oncePerUser: boolean().notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('discount_redemptions_once').on(t.userId, t.codeId).where(sql`once_per_user`)]);

export const payments = pgTable('payments', {
  id: serial().primaryKey(),
  orderId: text().notNull().references(() => orders.id, { onDelete: 'cascade' }),
  provider: text().notNull(),
  providerRef: text().notNull(),
  status: text().notNull().default('open'),
  /** Where the payer pays; null for a recurring payment (charged on a mandate, no checkout). */
  checkoutUrl: text(),
  /** The payment account whose credentials opened it (null: the built-in test provider); webhooks fetch it with the same ones. */
  accountId: integer().references(() => paymentAccounts.id),
  /** Mollie's sequenceType: 'first' asks for a mandate, 'recurring' charges one. */
  sequenceType: text().$type<'oneoff' | 'first' | 'recurring'>().notNull().default('oneoff'),
  createdAt: createdAt(),
  updatedAt: createdAt(),
}, (t) => [
  uniqueIndex('payments_provider_ref').on(t.provider, t.providerRef), index('payments_order').on(t.orderId),
  index('payments_charged_back').on(t.updatedAt).where(sql`${t.status} = 'charged_back'`),
]);

/**
 * Which payment provider a site (or every site of a company) uses, with its credentials. A site's own row
 * wins over its company's; without either the built-in test provider takes the payments. The API key never
 * leaves the server: no endpoint selects this table's secret column.
 */
export const paymentAccounts = pgTable('payment_accounts', {
  id: serial().primaryKey(),
  siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
  companyId: integer().references(() => companies.id, { onDelete: 'cascade' }),
  provider: text().$type<'test' | 'mollie'>().notNull(),
  apiKey: text(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('payment_accounts_site').on(t.siteId),
  uniqueIndex('payment_accounts_company').on(t.companyId),
  check('payment_accounts_owner', sql`(${t.siteId} is null) <> (${t.companyId} is null)`),
  check('payment_accounts_provider', sql`${t.provider} in ('test', 'mollie')`),
]);

/** The member's customer at a provider account (Mollie: cst_…), made for the first recurring payment. */
export const paymentCustomers = pgTable('payment_customers', {
  id: serial().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  provider: text().notNull(),
  /** 0: the built-in test provider (no account row). */
  accountKey: integer().notNull().default(0),
  customerId: text().notNull(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('payment_customers_user').on(t.userId, t.provider, t.accountKey)]);

/** Mandates for repeat orders: what the provider holds, with masked details only (card or IBAN last 4). */
export const paymentMandates = pgTable('payment_mandates', {
  id: serial().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  provider: text().notNull(),
  accountId: integer().references(() => paymentAccounts.id),
  customerId: text().notNull(),
  mandateId: text().notNull(),
  method: text().notNull(),
  /** e.g. "Mastercard •••• 4242" or "NL•• •••• 1234"; never a full number. */
  details: text().notNull().default(''),
  status: text().$type<'valid' | 'pending' | 'invalid' | 'revoked'>().notNull(),
  createdAt: createdAt(),
  updatedAt: createdAt(),
}, (t) => [uniqueIndex('payment_mandates_ref').on(t.provider, t.mandateId), index('payment_mandates_user').on(t.userId)]);

/** The test provider's own side: what a hosted checkout would keep on the provider's servers. */
export const testCheckouts = pgTable('test_checkouts', {
  id: text().primaryKey(),
  amountCents: integer().notNull(),
  currency: text().notNull(),
  description: text().notNull(),
  method: text().notNull(),
  status: text().$type<'open' | 'paid' | 'failed' | 'canceled' | 'pending' | 'charged_back'>().notNull().default('open'),
  redirectUrl: text().notNull(),
  webhookUrl: text().notNull(),
  sequenceType: text().$type<'oneoff' | 'first' | 'recurring'>().notNull().default('oneoff'),
  customerId: text(),
  /** Set when a first payment is paid (the mandate it created) or for a recurring one (the mandate it charged). */
  mandateId: text(),
  createdAt: createdAt(),
});

/** The test provider's mandates, as a provider keeps them. */
export const testMandates = pgTable('test_mandates', {
  id: text().primaryKey(),
  customerId: text().notNull(),
  method: text().notNull(),
  details: text().notNull(),
  status: text().$type<'valid' | 'invalid'>().notNull().default('valid'),
  createdAt: createdAt(),
});

/** One-time links sent by e-mail. Only the SHA-256 of the token is stored. */
export const accountTokens = pgTable('account_tokens', {
  id: text().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  purpose: text().$type<'activation' | 'password_reset' | 'email_change' | 'reactivation'>().notNull(),
  newEmail: text(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [index('account_tokens_user_purpose').on(t.userId, t.purpose, t.createdAt)]);

/** Bounces and spam complaints reported for an address. */
export const mailEvents = pgTable('mail_events', {
  id: serial().primaryKey(),
  email: text().notNull(),
  type: text().$type<'bounce' | 'complaint'>().notNull(),
  detail: text().notNull().default(''),
  createdAt: createdAt(),
}, (t) => [index('mail_events_email').on(t.email)]);

export const blocks = pgTable('blocks', {
  blockerId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  blockedId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked').on(t.blockedId)]);

/** Generated secrets the instances share (the VAPID key pair), created on first start when not configured. */
export const appSecrets = pgTable('app_secrets', {
  key: text().primaryKey(),
  value: text().notNull(),
  createdAt: createdAt(),
});

/**
 * Fixed-window counters shared by every instance when there is no Redis (rate limits, throttles).
 * A row whose window has ended counts as empty and is overwritten by the next hit.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text().primaryKey(),
  count: integer().notNull(),
  resetAt: timestamp({ withTimezone: true }).notNull(),
}, (t) => [index('rate_limits_reset').on(t.resetAt)]);

/**
 * Small values every instance must agree on when there is no Redis: memos (the search's "1000+"),
 * version stamps (the site cache). A row with expires_at in the past counts as absent; null never expires.
 */
export const sharedCache = pgTable('shared_cache', {
  key: text().primaryKey(),
  value: jsonb().$type<unknown>().notNull(),
  expiresAt: timestamp({ withTimezone: true }),
}, (t) => [index('shared_cache_expires').on(t.expiresAt)]);

/**
 * Domain events owed to a durable subscriber (mail, push), written in the transaction of the change
 * that caused them: one row per event and subscriber, so a subscriber that fails is retried alone.
 */
export const outbox = pgTable('outbox', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  event: text().notNull(),
  subscriber: text().notNull(),
  payload: jsonb().notNull(),
  /** Not before this (retries back off). */
  availableAt: timestamp({ withTimezone: true }).notNull(),
  /** A worker holds the row until then; after a crash another takes it over. */
  lockedUntil: timestamp({ withTimezone: true }),
  attempts: integer().notNull().default(0),
  lastError: text(),
  /** Given up after too many attempts (kept for the operator). */
  dead: boolean().notNull().default(false),
  createdAt: createdAt(),
}, (t) => [index('outbox_due').on(t.availableAt, t.id).where(sql`not dead`)]);

/** One row per scheduled job run: the instance that inserts it runs the job, the others skip. */
export const jobRuns = pgTable('job_runs', {
  job: text().notNull(),
  slot: text().notNull(),
  startedAt: timestamp({ withTimezone: true }).notNull(),
}, (t) => [primaryKey({ columns: [t.job, t.slot] })]);

/** Page-bounce log (`?lb` on a landing link): how long a visitor stayed before leaving, per site and path. */
export const pageBounces = pgTable('page_bounces', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  path: text().notNull(),
  seconds: integer().notNull(),
  network: text(),
  ref: text(),
  createdAt: createdAt(),
}, (t) => [index('page_bounces_site').on(t.siteId, t.createdAt)]);

/**
 * Visits to landers, one row per site, lander and day (UTC): a visitor's page view of a lander adds one, in one upsert,
 * so the reports read a year of a busy site in a few hundred rows per lander instead of one row per view. A member's
 * landing pages count under the names their sign-ups record (SIGNUP_LANDERS: `member-landing`, … for all members).
 */
export const landerVisits = pgTable('lander_visits', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  lander: text().notNull(),
  day: date({ mode: 'string' }).notNull(),
  visits: integer().notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.day, t.lander] })]);

/**
 * The reports' summaries (decision 081): each site's counts of one closed UTC day, written by the hourly job
 * (server/reports/report-summaries.ts) from the same SQL the dashboard runs live on the days after them.
 */
export const reportDays = pgTable('report_days', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  day: date({ mode: 'string' }).notNull(),
  signups: integer().notNull().default(0),
  activations: integer().notNull().default(0),
  firstPurchases: integer().notNull().default(0),
  messagesPaid: integer().notNull().default(0),
  messagesFree: integer().notNull().default(0),
  messagesToFictional: integer().notNull().default(0),
  gifts: integer().notNull().default(0),
  giftsToFictional: integer().notNull().default(0),
  pageBounces: integer().notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.day] })]);

/**
 * Per lander, a site's closed day (decision 083): sign-ups, activations and first purchases of the members who came
 * from that lander (users.lander), each on the day it happened, as report_days counts them for all members.
 */
export const reportLanderDays = pgTable('report_lander_days', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  day: date({ mode: 'string' }).notNull(),
  lander: text().notNull(),
  signups: integer().notNull().default(0),
  activations: integer().notNull().default(0),
  firstPurchases: integer().notNull().default(0),
}, (t) => [primaryKey({ columns: [t.siteId, t.day, t.lander] })]);

/**
 * Money of a site's closed day: completed orders per currency, method, country and package; refunds and chargebacks
 * per currency (their method, country and package empty). Package ids, not their credits: a package edited later is
 * shown as it is now, as the live figures show it.
 */
export const reportMoneyDays = pgTable('report_money_days', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  day: date({ mode: 'string' }).notNull(),
  kind: text().$type<'order' | 'refund' | 'chargeback'>().notNull(),
  currency: text().notNull(),
  paymentmethod: text().notNull(),
  country: text().notNull(),
  packageId: integer().notNull(),
  orders: integer().notNull(),
  cents: bigint({ mode: 'number' }).notNull(),
}, (t) => [primaryKey({ columns: [t.siteId, t.day, t.kind, t.currency, t.paymentmethod, t.country, t.packageId] })]);

/** The closed days a member was active (sent a message or signed in): where each active day's previous one is found. */
export const reportMemberDays = pgTable('report_member_days', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  userId: integer().notNull(),
  day: date({ mode: 'string' }).notNull(),
}, (t) => [primaryKey({ columns: [t.siteId, t.userId, t.day] }), index('report_member_days_day').on(t.day)]);

/**
 * Members active on a site's closed day, by the day each was active before it (null: never before). The members active
 * in any span of days are the rows of its days whose previous day lies before the span: exact distinct counts by sums.
 */
export const reportActiveDays = pgTable('report_active_days', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  day: date({ mode: 'string' }).notNull(),
  previousDay: date({ mode: 'string' }),
  members: integer().notNull(),
}, (t) => [index('report_active_days_site_day').on(t.siteId, t.day)]);

/** The days the summaries hold, for every site: the dashboard counts the days after the latest live. */
export const reportBuilds = pgTable('report_builds', {
  day: date({ mode: 'string' }).primaryKey(),
  builtAt: timestamp({ withTimezone: true }).notNull(),
});

export { BAN_REASONS, type BanReason } from '../../common/reports.ts';

/** Members the operator banned: the profile is disabled, and for a fake profile or a scammer the credits others spent on it come back. */
export const memberBans = pgTable('member_bans', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  reason: text().$type<BanReason>().notNull(),
  note: text().notNull().default(''),
  createdAt: createdAt(),
});

/**
 * Notices of illegal or unacceptable content (EU DSA Art. 16), from members and visitors alike.
 * `reference` is what the reporter quotes; `followToken` opens the follow page from the mails
 * (it only reads this notice, and the reporter's own mails carry it, so it is kept as sent).
 */
export const notices = pgTable('notices', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  reference: text().notNull().unique(),
  followToken: text().notNull(),
  kind: text().$type<'profile' | 'photo' | 'message' | 'other'>().notNull(),
  /** The reported profile (user id), photo or message id; for "other" where the content is, as the reporter described it. */
  contentRef: text().notNull(),
  reason: text().$type<'illegal' | 'fake_or_scam' | 'minor' | 'harassment' | 'intellectual_property' | 'other'>().notNull(),
  explanation: text().notNull().default(''),
  reporterName: text().notNull().default(''),
  reporterEmail: text().notNull(),
  /** The signed-in member who sent it; visitors may send notices too. */
  reporterUserId: integer().references(() => users.id, { onDelete: 'set null' }),
  /** The language the mails to the reporter are written in. */
  language: text().notNull().default('en'),
  bonaFide: boolean().notNull(),
  status: text().$type<'received' | 'in_review' | 'removed' | 'no_action'>().notNull().default('received'),
  decision: text(),
  decidedAt: timestamp({ withTimezone: true }),
  /** A moderator holds the notice for ten minutes while deciding it (decision 057), as a member report. */
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  index('notices_site_status').on(t.siteId, t.status, t.createdAt),
  check('notices_kind', sql`${t.kind} in ('profile', 'photo', 'message', 'other')`),
  check('notices_status', sql`${t.status} in ('received', 'in_review', 'removed', 'no_action')`),
  check('notices_reason', sql`${t.reason} in ('illegal', 'fake_or_scam', 'minor', 'harassment', 'intellectual_property', 'other')`),
]);

/**
 * A member's report of another member, a photo of theirs or a message they sent (decision 057). One per reporter and
 * thing reported: reporting it again answers the existing one. A moderator claims an open report for ten minutes
 * (`claimedBy`, `claimedUntil`, set by a conditional update) so that no two decide it; the decision is a statement.
 */
export const memberReports = pgTable('member_reports', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  reporterId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  reportedId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  kind: text().$type<'profile' | 'photo' | 'message'>().notNull(),
  /** The photo or message id; 0 for a profile (so that the unique index sees one profile report per pair). */
  contentId: bigint({ mode: 'number' }).notNull().default(0),
  reason: text().$type<'fake' | 'scam' | 'harassment' | 'sexual' | 'minor' | 'hate' | 'spam' | 'other'>().notNull(),
  text: text().notNull().default(''),
  status: text().$type<'open' | 'actioned' | 'dismissed'>().notNull().default('open'),
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  decidedBy: integer().references(() => staffMembers.id),
  decidedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('member_reports_once').on(t.reporterId, t.reportedId, t.kind, t.contentId),
  index('member_reports_queue').on(t.status, t.createdAt),
  index('member_reports_reported').on(t.reportedId, t.createdAt),
  check('member_reports_kind', sql`${t.kind} in ('profile', 'photo', 'message')`),
  check('member_reports_status', sql`${t.status} in ('open', 'actioned', 'dismissed')`),
]);

/**
 * Decisions that restrict a member, each with its statement of reasons (DSA Art. 17): what was restricted, the facts,
 * the ground (terms or law, from the catalogue in common/reports.ts), whether it was automated, what led to it and who
 * decided. `token` opens the statement page from the mail without signing in. `removed` keeps what a text removal
 * took away, so that an appeal upheld can put it back.
 */
export const moderationDecisions = pgTable('moderation_decisions', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  memberId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  token: text().notNull().unique(),
  restriction: text().$type<'photo_removed' | 'text_removed' | 'message_hidden' | 'suspended' | 'banned'>().notNull(),
  contentKind: text().$type<'photo' | 'chat_photo' | 'about' | 'name' | 'message' | 'account'>().notNull(),
  contentId: bigint({ mode: 'number' }),
  suspendedUntil: timestamp({ withTimezone: true }),
  facts: text().notNull().default(''),
  ground: text().notNull(),
  automated: boolean().notNull().default(false),
  reportId: integer().references(() => memberReports.id, { onDelete: 'set null' }),
  noticeId: integer().references(() => notices.id, { onDelete: 'set null' }),
  /** Null for the command line and automatic decisions. */
  staffId: integer().references(() => staffMembers.id),
  removed: jsonb().$type<{ about?: string; name?: string } | null>(),
  status: text().$type<'in_force' | 'reversed'>().notNull().default('in_force'),
  createdAt: createdAt(),
}, (t) => [
  index('moderation_decisions_member').on(t.memberId, t.createdAt),
  index('moderation_decisions_site').on(t.siteId, t.createdAt),
  check('moderation_decisions_restriction', sql`${t.restriction} in ('photo_removed', 'text_removed', 'message_hidden', 'suspended', 'banned')`),
  check('moderation_decisions_status', sql`${t.status} in ('in_force', 'reversed')`),
]);

/**
 * A member's appeal of a decision (DSA Art. 20): once per decision, within the window, decided by a staff member other
 * than the one who decided; claimed like a report. `outcome` reversed lifts the restriction.
 */
export const appeals = pgTable('appeals', {
  id: serial().primaryKey(),
  decisionId: integer().notNull().unique().references(() => moderationDecisions.id, { onDelete: 'cascade' }),
  memberId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  text: text().notNull(),
  status: text().$type<'open' | 'decided'>().notNull().default('open'),
  outcome: text().$type<'reversed' | 'confirmed'>(),
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  decidedBy: integer().references(() => staffMembers.id),
  decidedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  index('appeals_queue').on(t.status, t.createdAt),
  check('appeals_status', sql`${t.status} in ('open', 'decided')`),
  check('appeals_outcome', sql`${t.outcome} is null or ${t.outcome} in ('reversed', 'confirmed')`),
]);

/**
 * A member's new or changed display name or about-me text, waiting for a moderator (decision 061): the text shows at
 * once (moderation after publication); the queue is for review. One open item per member and field: a newer change
 * replaces the waiting one's text and keeps its place and its `oldText` (what a moderator last let stand, or null for
 * a new member). Claimed for ten minutes like a report; approved, or removed with a statement of reasons.
 */
export const textReviews = pgTable('text_reviews', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  memberId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  field: text().$type<'name' | 'about'>().notNull(),
  oldText: text(),
  newText: text().notNull(),
  status: text().$type<'open' | 'approved' | 'removed'>().notNull().default('open'),
  claimedBy: integer().references(() => staffMembers.id),
  claimedUntil: timestamp({ withTimezone: true }),
  decidedBy: integer().references(() => staffMembers.id),
  decidedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  uniqueIndex('text_reviews_open').on(t.memberId, t.field).where(sql`status = 'open'`),
  index('text_reviews_queue').on(t.status, t.createdAt, t.id),
  check('text_reviews_field', sql`${t.field} in ('name', 'about')`),
  check('text_reviews_status', sql`${t.status} in ('open', 'approved', 'removed')`),
]);

/**
 * IBANs and mobile numbers the operator blocked for direct debit (`npm run payments:block`): for one site, or
 * for every site when siteId is null. Only a SHA-256 of the normalised value is kept (and a masked form for
 * listings), so the table holds no account or phone numbers.
 */
export const blockedPaymentIdentifiers = pgTable('blocked_payment_identifiers', {
  id: serial().primaryKey(),
  siteId: integer().references(() => sites.id, { onDelete: 'cascade' }),
  kind: text().$type<'iban' | 'phone'>().notNull(),
  valueHash: text().notNull(),
  masked: text().notNull(),
  reason: text().notNull().default(''),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('blocked_payment_identifiers_value').on(sql`coalesce(${t.siteId}, 0)`, t.kind, t.valueHash),
  check('blocked_payment_identifiers_kind', sql`${t.kind} in ('iban', 'phone')`),
]);

/**
 * A direct-debit purchase between its two steps: the form's details and the SMS code (a SHA-256 of it, with its
 * expiry and wrong tries). Confirmed, it names the order it made (one per request); the full IBAN is then
 * replaced by its masked form.
 */
export const directDebitRequests = pgTable('direct_debit_requests', {
  id: text().primaryKey(),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  packageId: integer().notNull().references(() => creditPackages.id),
  amountCents: integer().notNull(),
  currency: text().notNull(),
  discountCode: text(),
  accountHolder: text().notNull(),
  iban: text().notNull(),
  street: text().notNull(),
  houseNumber: text().notNull(),
  zip: text().notNull(),
  city: text().notNull(),
  phone: text().notNull(),
  codeHash: text().notNull(),
  codeExpiresAt: timestamp({ withTimezone: true }).notNull(),
  attempts: integer().notNull().default(0),
  status: text().$type<'awaiting_code' | 'verified' | 'confirmed' | 'locked'>().notNull().default('awaiting_code'),
  orderId: text().references(() => orders.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
}, (t) => [
  index('direct_debit_requests_user').on(t.userId, t.createdAt),
  index('direct_debit_requests_phone').on(t.phone, t.createdAt),
  check('direct_debit_requests_status', sql`${t.status} in ('awaiting_code', 'verified', 'confirmed', 'locked')`),
]);

/** What a staff member may do (decision 055), shared with the contracts. */
export { STAFF_ROLES, type StaffRoleName };

/**
 * Staff accounts, apart from members (decision 055). Scope: null site and company lists reach every site; otherwise
 * the listed sites and every site of the listed companies. The TOTP secret (base32) is needed to check codes, so it is
 * kept as it is; `totpLastStep` is the last 30-second step a code was accepted for, so a code is never taken twice.
 * Staff are disabled, never deleted: the audit log names them.
 */
export const staffMembers = pgTable('staff_members', {
  id: serial().primaryKey(),
  /** Lower-cased and trimmed. */
  email: text().notNull(),
  name: text().notNull(),
  passwordHash: text().notNull(),
  roles: text().array().$type<StaffRoleName[]>().notNull(),
  siteIds: integer().array(),
  companyIds: integer().array(),
  language: text().notNull().default('en'),
  totpSecret: text().notNull(),
  totpConfirmedAt: timestamp({ withTimezone: true }),
  totpLastStep: bigint({ mode: 'number' }),
  disabledAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('staff_members_email').on(t.email),
  check('staff_members_roles', sql`${t.roles} <@ array['moderator', 'support', 'finance', 'admin']::text[] and cardinality(${t.roles}) > 0`),
]);

/** One-time recovery codes for a lost authenticator (SHA-256 of each; they are long random strings). */
export const staffRecoveryCodes = pgTable('staff_recovery_codes', {
  id: serial().primaryKey(),
  staffId: integer().notNull().references(() => staffMembers.id, { onDelete: 'cascade' }),
  codeHash: text().notNull(),
  usedAt: timestamp({ withTimezone: true }),
}, (t) => [uniqueIndex('staff_recovery_codes_hash').on(t.staffId, t.codeHash)]);

/** Console sessions: the SHA-256 of the cookie's token; they end 12 h after sign-in or after 30 idle minutes. */
export const staffSessions = pgTable('staff_sessions', {
  id: text().primaryKey(),
  staffId: integer().notNull().references(() => staffMembers.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('staff_sessions_staff').on(t.staffId)]);

/** Tokens for automation, per staff member: shown once, kept as a SHA-256; `scopes` are the roles the token acts with. */
export const staffApiTokens = pgTable('staff_api_tokens', {
  id: serial().primaryKey(),
  staffId: integer().notNull().references(() => staffMembers.id, { onDelete: 'cascade' }),
  tokenHash: text().notNull().unique(),
  name: text().notNull(),
  scopes: text().array().$type<StaffRoleName[]>().notNull(),
  createdAt: createdAt(),
  lastUsedAt: timestamp({ withTimezone: true }),
  revokedAt: timestamp({ withTimezone: true }),
}, (t) => [index('staff_api_tokens_staff').on(t.staffId)]);

/**
 * Passkeys (WebAuthn) a staff member added as a second factor beside TOTP (decision 062). A passkey belongs to the
 * domain it was made on (`rpId`): the console offers, on each domain, the passkeys made there.
 */
export const staffPasskeys = pgTable('staff_passkeys', {
  id: serial().primaryKey(),
  staffId: integer().notNull().references(() => staffMembers.id, { onDelete: 'cascade' }),
  /** The credential's id as the browser gives it (base64url). */
  credentialId: text().notNull().unique(),
  /** The COSE public key, base64url. */
  publicKey: text().notNull(),
  /** The authenticator's signature counter (0 when it keeps none). */
  counter: bigint({ mode: 'number' }).notNull().default(0),
  transports: text().array().$type<string[]>().notNull().default(sql`'{}'::text[]`),
  rpId: text().notNull(),
  name: text().notNull(),
  createdAt: createdAt(),
  lastUsedAt: timestamp({ withTimezone: true }),
  /** The sign-in challenge it last answered: the same answer cannot open a second session. */
  lastChallenge: text(),
}, (t) => [index('staff_passkeys_staff').on(t.staffId)]);

/**
 * Who did what, in the same transaction as the deed. Append-only: the code has no update or delete path and a
 * trigger (migration 0025) refuses both. `staffId` is null for the command line and jobs (`role` is then `system`).
 * `memberId` is not a foreign key: the row outlives the member.
 */
export const auditLog = pgTable('audit_log', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  staffId: integer().references(() => staffMembers.id),
  role: text().notNull(),
  action: text().notNull(),
  objectType: text().notNull(),
  objectId: text(),
  memberId: integer(),
  before: jsonb(),
  after: jsonb(),
  ip: text(),
  at: timestamp({ withTimezone: true }).notNull(),
}, (t) => [
  index('audit_log_at').on(t.at),
  index('audit_log_staff').on(t.staffId, t.at),
  index('audit_log_member').on(t.memberId, t.at),
  index('audit_log_object').on(t.objectType, t.objectId),
]);

/**
 * Automatic flags (issue 26): evidence that puts a member in the moderators' members queue. A flag never restricts
 * anyone by itself. One open flag per member and kind gathers its hits; a moderator's decision closes it, and a later
 * hit opens a new one.
 */
export const memberFlags = pgTable('member_flags', {
  id: serial().primaryKey(),
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  userId: integer().notNull().references(() => users.id, { onDelete: 'cascade' }),
  kind: text().$type<FlagKind>().notNull(),
  /** What was found: up to ten pieces (message id, what matched, an excerpt), the first ones kept. */
  evidence: jsonb().$type<FlagEvidence[]>().notNull(),
  hits: integer().notNull().default(1),
  firstAt: timestamp({ withTimezone: true }).notNull(),
  lastAt: timestamp({ withTimezone: true }).notNull(),
  resolvedAt: timestamp({ withTimezone: true }),
  resolvedBy: integer().references(() => staffMembers.id),
}, (t) => [
  uniqueIndex('member_flags_open').on(t.userId, t.kind).where(sql`resolved_at is null`),
  index('member_flags_queue').on(t.siteId, t.firstAt).where(sql`resolved_at is null`),
  check('member_flags_kind', sql`${t.kind} in ('off_site_contact', 'money_request', 'repeated_text', 'mass_messaging', 'many_reports')`),
]);

export interface FlagEvidence {
  messageId?: number;
  recipientId?: number;
  matched?: string[];
  excerpt?: string;
  count?: number;
  at: string;
}

/** A conversation with a fictional profile held by one staff member while they write its answer (answering.ts). */
export const fictionalAnswerClaims = pgTable('fictional_answer_claims', {
  conversationId: integer().primaryKey().references(() => conversations.id, { onDelete: 'cascade' }),
  staffId: integer().notNull().references(() => staffMembers.id),
  until: timestamp({ withTimezone: true }).notNull(),
});

/** Staff's notes on a fictional profile (its story, what it said before); members never see them. */
export const fictionalNotes = pgTable('fictional_notes', {
  userId: integer().primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  notes: text().notNull().default(''),
  updatedAt: timestamp({ withTimezone: true }).notNull(),
});

/**
 * A site's short paths (`/{token}`, decision 023; kept in the console since decision 074): each opens a lander (with an
 * optional slug) or a static page with its own tracking parameters. Read through the site cache.
 */
export const sitePageTokens = pgTable('site_page_tokens', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  token: text().notNull(),
  lander: text(),
  slug: text(),
  page: text(),
  tracking: jsonb().$type<Record<string, string>>().notNull().default({}),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  primaryKey({ columns: [t.siteId, t.token] }),
  check('site_page_tokens_target', sql`(${t.lander} is null) <> (${t.page} is null)`),
]);

/** A site's own text of a static page in one language, instead of the file in content/ (decision 074). */
export const sitePageTexts = pgTable('site_page_texts', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  language: text().notNull(),
  page: text().notNull(),
  /** The page as markdown, its first line `# Title` as in the files. */
  markdown: text().notNull(),
  /** The terms' version date: set when the terms' text is saved, shown on the page as its date. */
  versionDate: timestamp({ withTimezone: true }).notNull(),
}, (t) => [primaryKey({ columns: [t.siteId, t.language, t.page] })]);

/** A site's own wording of one mail in one language: each part left null keeps the translation (decision 074). */
export const siteMailTexts = pgTable('site_mail_texts', {
  siteId: integer().notNull().references(() => sites.id, { onDelete: 'cascade' }),
  language: text().notNull(),
  kind: text().notNull(),
  subject: text(),
  intro: text(),
  button: text(),
  note: text(),
}, (t) => [primaryKey({ columns: [t.siteId, t.language, t.kind] })]);
