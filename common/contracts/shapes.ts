import { z } from 'zod';
import { ORDER_STATUSES } from '../constants.ts';
import { CANONICAL_ID, MAX_ID } from '../input.ts';
import { EMAIL_CATEGORIES } from '../notifications.ts';
import { DISTANCE_UNITS } from '../distance.ts';

/**
 * The shapes the JSON API answers with (spec sections 3 and 7), one zod schema each. Their TypeScript
 * types (common/api-types.ts) are inferred from them, so the contract and the code cannot drift apart.
 * Objects are strict: a field the contract does not name is an answer outside the contract.
 */

/** Schemas registered here become named components of the OpenAPI description. */
export const apiComponents = z.registry<{ id: string; description?: string }>();

function component<S extends z.ZodType>(id: string, schema: S, description?: string): S {
  apiComponents.add(schema, { id, ...(description ? { description } : {}) });
  return schema;
}

/** An instant as JSON carries it (Date#toJSON). */
export const isoDateTime = z.iso.datetime({ offset: true });
/** Ids are PostgreSQL `integer` columns. */
export const id = z.int().min(1).max(MAX_ID);
/**
 * An id in a request: a JSON number or a canonical decimal string (the rule of common/input.ts toId),
 * parsed to the number. Endpoints parse their bodies with these request schemas, so the contract is the rule.
 */
export const idParam = z.union([id, z.string().regex(CANONICAL_ID).transform(Number).pipe(id)]);
/** {profile_id}: the member a like, block or typing notice is about. */
export const profileIdBody = z.object({ profile_id: idParam });

/** A stored photo file's name (random, `.webp`); anything else names no file and is refused before any lookup. */
export const PHOTO_FILE_NAME = /^[A-Za-z0-9_-]{1,80}\.webp$/;

const photoStatus = z.enum(['active', 'pending', 'rejected']);

export const mainImageSchema = component('MainImage', z.strictObject({
  filename: z.string(),
  thumb_filename: z.string(),
  status: photoStatus,
}));

export const profileSummaryFields = {
  id,
  name: z.string(),
  age: z.number().int(),
  gender: z.enum(['male', 'female']),
  country: z.string(),
  region: z.string().nullable(),
  status: z.enum(['active', 'disabled']),
  main_image: mainImageSchema.nullable(),
  fictional: z.boolean(),
  /** Active within the last few minutes (never shown for invisible members). */
  online: z.boolean(),
  /**
   * How far away, rounded (common/distance.ts), in the viewer's unit: only in search results and the swipe deck, and
   * only when both the viewer and the member shared a location. The member's coordinates themselves are never sent.
   */
  distance: z.strictObject({ value: z.number().int().positive(), unit: z.enum(DISTANCE_UNITS), less_than: z.boolean() }).optional(),
};

export const profileSummarySchema = component('ProfileSummary', z.strictObject(profileSummaryFields), 'A member as lists and cards show them.');

/** A photo in a profile's gallery. `locked`: 'login' for visitors, 'premium' for free members. */
export const galleryPhotoSchema = component('GalleryPhoto', z.strictObject({
  id,
  filename: z.string().nullable(),
  thumb_filename: z.string().nullable(),
  status: photoStatus,
  is_private: z.boolean(),
  is_main: z.boolean(),
  locked: z.enum(['login', 'premium']).nullable(),
}));

export const profileDetailSchema = component('ProfileDetail', z.strictObject({
  ...profileSummaryFields,
  about: z.string(),
  liked: z.boolean(),
  liked_me: z.boolean(),
  conversation_id: id.nullable(),
  /** The attributes the site shows (setting visible_profile_fields) and the member filled in. */
  attributes: z.record(z.string(), z.string()),
  interests: z.array(z.string()),
  /** Photos as this viewer may see them; `locked` entries carry no file names. */
  photos: z.array(galleryPhotoSchema),
  /** The viewer blocked this member (only the blocker ever sees a blocked profile). */
  blocked: z.boolean(),
}), 'A member\'s profile as this viewer may see it.');

/** The member's own photos (GET/POST/PUT/DELETE /api/photos.php). */
export const ownPhotoSchema = component('OwnPhoto', z.strictObject({
  id,
  filename: z.string(),
  thumb_filename: z.string(),
  status: photoStatus,
  is_private: z.boolean(),
  is_main: z.boolean(),
}));

/** GET /api/profile.php (no id): the signed-in member's editable profile. */
export const ownProfileSchema = component('OwnProfile', z.strictObject({
  id,
  email: z.string(),
  name: z.string(),
  gender: z.enum(['male', 'female']),
  sexuality: z.string().nullable(),
  hair_color: z.string().nullable(),
  eye_color: z.string().nullable(),
  body_type: z.string().nullable(),
  relationship_status: z.string().nullable(),
  tattoos: z.string().nullable(),
  signup_reason: z.string().nullable(),
  interests: z.array(z.string()),
  about: z.string(),
  country: z.string(),
  region: z.string().nullable(),
}));

export const apiUserSchema = component('User', z.strictObject({
  id,
  email: z.string(),
  status: z.enum(['not_confirmed', 'active']),
  paid_user: z.boolean(),
  credits: z.number().int(),
  notifications_disabled: z.array(z.string()),
  language: z.string(),
  signup_date: z.string(),
  num_unread_messages: z.number().int().nonnegative(),
  num_new_likes: z.number().int().nonnegative(),
  profile: profileSummarySchema,
}), 'The signed-in member, with the counters the navigation badges need.');

export const chatMessageKindSchema = z.enum(['text', 'gift', 'photo']);

export const chatSummarySchema = component('ChatSummary', z.strictObject({
  conversation: z.strictObject({ id, last_message_at: isoDateTime.nullable() }),
  profile: profileSummarySchema,
  num_unread_messages: z.number().int().nonnegative(),
  last_message: z.strictObject({ kind: chatMessageKindSchema, text: z.string(), from_me: z.boolean(), created_at: isoDateTime }).nullable(),
  /** The other member deleted their account: the conversation stays readable, and nothing more can be sent. */
  left: z.boolean(),
}));

export const giftSchema = component('Gift', z.strictObject({
  id,
  slug: z.string(),
  /** The image's path on the site (public/gifts/<slug>.svg, or /gift-images/<file> for a gift made in the console). */
  image: z.string(),
  /** A gift made in the console: its name per language (a built-in gift's name is the translation gifts.<slug>). */
  names: z.record(z.string(), z.string()).optional(),
  /** What sending it costs when the gift has its own price (else the site's gift price). */
  credits: z.number().int().nonnegative().optional(),
}));

export const chatMessageSchema = component('ChatMessage', z.strictObject({
  id,
  conversation_id: id,
  from_me: z.boolean(),
  kind: chatMessageKindSchema,
  /** Empty for gifts and photos. */
  text: z.string(),
  created_at: isoDateTime,
  gift: giftSchema.optional(),
  /** A photo in the chat; null once moderation removed it. */
  photo: z.strictObject({ filename: z.string(), thumb_filename: z.string(), width: z.number().int(), height: z.number().int() }).nullable().optional(),
  /** My messages only: the recipient's word filter hid it, and it cost nothing. */
  filtered: z.literal(true).optional(),
  /** My messages only, when both members show read receipts: whether the other member has seen it. */
  read: z.boolean().optional(),
}));

export const chatPricesSchema = component('ChatPrices', z.strictObject({
  message: z.number().int().nonnegative(),
  gift: z.number().int().nonnegative(),
  photo: z.number().int().nonnegative(),
  /** The bundle a member short of credits would buy, for the money shown on paid buttons; null when none is sold in their currency. */
  credit_price: z.strictObject({ amount: z.number().int().positive(), credits: z.number().int().positive(), currency: z.string() }).nullable(),
}), 'What the chat\'s paid actions cost this member, in credits and (at their top-up bundle\'s rate) in money.');

export const creditPackageSchema = component('CreditPackage', z.strictObject({
  id,
  credits: z.number().int().positive(),
  /** In cents of `currency`. */
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  popular: z.boolean(),
}));

export const orderSchema = component('Order', z.strictObject({
  id: z.string(),
  credits: z.number().int().positive(),
  /** What is charged, in cents of `currency` (after the discount, if any). */
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  paymentmethod: z.string(),
  status: z.enum(ORDER_STATUSES),
  payment_id: z.string().nullable(),
  /** With a discount: the price before it, the code and its percentage; otherwise null. */
  original_amount: z.number().int().positive().nullable(),
  discount_code: z.string().nullable(),
  discount_percentage: z.number().positive().nullable(),
}));

export const discountKindSchema = z.enum(['code', 'welcome', 'time_bonus', 'personal']);

/** GET /api/discountcode.php?code= (spec section 3: code, percentage, minimum, country). */
export const discountCodeRecordSchema = component('DiscountCode', z.strictObject({
  code: z.string(),
  kind: discountKindSchema,
  /** Percent off, e.g. 25 or 12.5. */
  percentage: z.number().positive().max(90),
  /** The least order value in cents of `currency` (the member's); 0 when there is none. */
  minimum: z.number().int().nonnegative(),
  currency: z.string(),
  /** Only for members of this country; null: any. */
  country: z.string().nullable(),
  /** A code made for this member alone (e.g. the deletion offer). */
  personal: z.boolean(),
  expires: isoDateTime.nullable(),
}), 'A discount code as this member may use it.');

/** GET /api/discountcode.php?welcome=true, exactly as spec section 3 names it. */
export const welcomeBonusRecordSchema = component('WelcomeTimeBonus', z.strictObject({
  code: z.literal('TIMEBONUS25'),
  country: z.string(),
  user_id: id,
  expires: isoDateTime,
  value_percentage: z.string().regex(/^\d+\.\d$/),
  currency: z.string(),
  minimum_order_value: z.number().int().nonnegative(),
  status: z.literal('active'),
  validity: z.literal('once-per-user'),
  expired: z.literal(false),
  paymentmethods: z.array(z.string()),
}), 'The welcome time bonus: 25% once per member, within 14,400 s of signing up.');

/** A bundle's price for this member: with the active discount, `original_amount` is the price before it. */
export const packagePriceSchema = z.strictObject({
  amount: z.number().int().positive(),
  original_amount: z.number().int().positive().nullable(),
  discount: z.strictObject({ code: z.string(), kind: discountKindSchema, percentage: z.number().positive() }).nullable(),
});

export const notificationSettingsSchema = component('NotificationSettings', z.strictObject({
  email: z.strictObject(Object.fromEntries(EMAIL_CATEGORIES.map((c) => [c, z.boolean()])) as Record<(typeof EMAIL_CATEGORIES)[number], z.ZodBoolean>),
  notifications_disabled: z.array(z.string()),
  invisible: z.boolean(),
  /** Read receipts both ways (off: neither shown to others nor seen). */
  read_receipts: z.boolean(),
  /** Fictional profiles left out of search, the swipe deck and the like overlay. */
  hide_fictional: z.boolean(),
  /** Words and phrases whose messages are hidden from this member (and cost their sender nothing). */
  word_filter: z.array(z.string()),
}));

/** Every refusal: `code` is stable for clients, `message` is in the member's language, `details` per field. */
export const apiErrorSchema = component('Error', z.strictObject({
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.string()).optional(),
  }),
}), 'A refused request.');

export const okSchema = component('Ok', z.strictObject({ ok: z.literal(true) }));

/** An order as the member's records show it. */
export const transactionOrderSchema = component('TransactionOrder', z.strictObject({
  id: z.string(),
  package_id: id,
  credits: z.number().int().positive(),
  /** In cents of `currency`. */
  amount: z.number().int().nonnegative(),
  currency: z.string(),
  paymentmethod: z.string(),
  status: z.enum(ORDER_STATUSES),
  created_at: isoDateTime,
  completed_at: isoDateTime.nullable(),
  /** Refunded in full (within the site's refund_days); the order stays completed. */
  refunded_at: isoDateTime.nullable(),
  /** Cents of `currency` refunded so far, in one or more parts; equals `amount` once refunded in full. */
  refunded_amount: z.number().int().nonnegative(),
  /** Completed orders only: the number on its invoice. */
  invoice_number: z.string().nullable(),
  /** When the member agreed that delivery starts at once and the right of withdrawal lapses. */
  withdrawal_consent_at: isoDateTime.nullable(),
}));

const ledgerReason = z.enum(['signup_bonus', 'message', 'gift', 'chat_photo', 'purchase', 'demo_grant', 'refund', 'ban_refund', 'adjustment']);

/** One row of the member's credit ledger. */
export const ledgerEntrySchema = component('LedgerEntry', z.strictObject({
  id: z.number().int().positive(),
  /** Credits added (positive) or spent and taken back (negative). */
  delta: z.number().int(),
  balance_after: z.number().int().nonnegative(),
  reason: ledgerReason,
  created_at: isoDateTime,
  /** Purchases and refunds: their order. */
  order_id: z.string().nullable(),
}));

export const transactionOrderDetailSchema = component('TransactionOrderDetail', transactionOrderSchema.extend({
  refund_reason: z.string().nullable(),
  payments: z.array(z.strictObject({ id: z.string(), status: z.string(), created_at: isoDateTime, updated_at: isoDateTime })),
  ledger: z.array(ledgerEntrySchema),
}));

const spendCapPeriod = z.enum(['day', 'month']);

/** The member's own spend cap: in force now, what they spent in its window, and a raise or removal still cooling off. */
export const spendCapSchema = component('SpendCap', z.strictObject({
  period: spendCapPeriod.nullable(),
  credits: z.number().int().positive().nullable(),
  /** Credits spent in the cap's current local day or month (0 without a cap). */
  spent: z.number().int().nonnegative(),
  /** Takes effect at `from`; credits null: the cap is removed then. */
  pending: z.strictObject({ period: spendCapPeriod.nullable(), credits: z.number().int().positive().nullable(), from: isoDateTime }).nullable(),
  cooling_off_hours: z.number().int().positive(),
}));
