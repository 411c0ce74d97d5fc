import { z } from 'zod';
import { LANGUAGE_CODES, type Language } from '../languages.ts';
import { DELETE_REASONS } from '../notifications.ts';
import { loginSchema, mailChangeSchema, passwordResetRequestSchema, reactivateSchema, signupSchema } from '../schemas.ts';
import { TRACKING_KEYS, type TrackingKey } from '../tracking.ts';
import { checkedByUseCase, contracts } from './contract.ts';
import { MAX_PENDING_LIKES } from '../constants.ts';
import { apiUserSchema, id, idParam, isoDateTime, notificationSettingsSchema, okSchema } from './shapes.ts';

const language = z.enum(LANGUAGE_CODES as [Language, ...Language[]]);
const userAnswer = z.strictObject({ user: apiUserSchema });
const ok = { description: 'Done.', schema: okSchema };
const token = z.object({ token: z.string().optional() });
export const languageBody = z.object({ language: z.enum(LANGUAGE_CODES as [Language, ...Language[]], { error: 'errors.language_invalid' }) });

/** The push part of POST /api/user.php (with ?push=1): a PushSubscription, false, or 'denied'. */
export const pushSubscriptionBodySchema = z.object({
  subscription: z.union([
    z.object({ endpoint: z.url({ error: 'errors.push_subscription_invalid' }), keys: z.object({ p256dh: z.string(), auth: z.string() }) }),
    z.literal(false),
    z.null(),
    z.literal('denied'),
  ], { error: 'errors.push_subscription_invalid' }),
});
export const pushStateSchema = z.enum(['unknown', 'subscribed', 'not_subscribed', 'denied']);

const signupMessageResultSchema = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('sent'), conversation_id: id, credits: z.number().int() }),
  z.strictObject({ status: z.literal('draft'), code: z.literal('insufficient_credits') }),
  z.strictObject({ status: z.literal('failed'), code: z.string() }),
]);

/** The sign-up body on a given day (the age rule): the form, the landing's tracking, and an optional first message. */
export function signupBody(today: Date) {
  return z.intersection(signupSchema(today), z.object({
    ...Object.fromEntries(TRACKING_KEYS.map((k) => [k, z.string().optional()])) as Record<TrackingKey, z.ZodOptional<z.ZodString>>,
    /** A first message to this member, sent once the account exists. */
    profile_id: z.union([idParam, z.null(), z.literal('')]).optional(),
    signup_message: z.string().optional(),
    /**
     * Members the visitor liked before the account existed (the swipe lander keeps them in the browser): each becomes
     * a like of the new member through the like use case, which drops any that is not there for them. A form sends one
     * field per id (a single one arrives as a string).
     */
    pending_likes: z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(idParam).max(MAX_PENDING_LIKES)).optional(),
  }));
}
/** A sign-up as the shared schema gives it: the account, tracking parameters and a first message. */
export type SignupBody = z.output<ReturnType<typeof signupBody>>;
/**
 * The document's sign-up body. The age rule depends on the day, so the route checks the body with the service clock's
 * `signupBody`, after the site has said whether it takes sign-ups at all.
 */
const signupBodySchema = checkedByUseCase(signupBody(new Date()));

const exportSchema = z.strictObject({
  exported_at: isoDateTime,
  account: z.strictObject({
    id,
    email: z.string(),
    status: z.enum(['not_confirmed', 'active', 'deleted']),
    language: z.string(),
    signup_date: isoDateTime,
    activated_at: isoDateTime.nullable(),
    credits: z.number().int(),
    paid_user: z.boolean(),
    invisible: z.boolean(),
    email_opt_out: z.array(z.string()),
    notifications_disabled: z.array(z.string()),
    push_state: pushStateSchema,
    tracking: z.strictObject({
      network: z.string().nullable(), ref: z.string().nullable(), sub1: z.string().nullable(), sub2: z.string().nullable(), sub3: z.string().nullable(),
    }),
    /** The lander the member first opened before signing up, if any. */
    lander: z.string().nullable(),
  }),
  profile: z.strictObject({
    name: z.string(),
    gender: z.enum(['male', 'female']),
    birth_date: z.iso.date(),
    country: z.string(),
    region: z.string().nullable(),
    city: z.string().nullable(),
    about: z.string(),
    sexuality: z.string().nullable(),
    hair_color: z.string().nullable(),
    eye_color: z.string().nullable(),
    body_type: z.string().nullable(),
    relationship_status: z.string().nullable(),
    tattoos: z.string().nullable(),
    signup_reason: z.string().nullable(),
    interests: z.array(z.string()),
  }).nullable(),
  photos: z.array(z.strictObject({ id, filename: z.string(), status: z.enum(['active', 'pending', 'rejected']), is_private: z.boolean(), created_at: isoDateTime })),
  likes: z.strictObject({
    given: z.array(z.strictObject({ profile_id: id, created_at: isoDateTime })),
    received: z.array(z.strictObject({ profile_id: id, created_at: isoDateTime })),
  }),
  blocks: z.array(z.strictObject({ profile_id: id, created_at: isoDateTime })),
  messages: z.array(z.strictObject({
    id, conversation_id: id, sender_id: id, text: z.string(), credits_spent: z.number().int(), created_at: isoDateTime,
  })),
  orders: z.array(z.strictObject({
    id: z.string(), credits: z.number().int(), amount_cents: z.number().int(), currency: z.string(), paymentmethod: z.string(),
    status: z.string(), created_at: isoDateTime, completed_at: isoDateTime.nullable(),
  })),
  ledger: z.array(z.strictObject({
    delta: z.number().int(), balance_after: z.number().int(), reason: z.string(), reference: z.string(), created_at: isoDateTime,
  })),
});

export const accountContracts = contracts({
  user: {
    method: 'get', path: '/api/user.php', auth: 'member', summary: 'The signed-in member',
    responses: { 200: { description: 'The member.', schema: userAnswer } },
  },
  logIn: {
    method: 'post', path: '/api/user.php', summary: 'Log in, or (with ?push=1) store the push subscription',
    description: 'Without ?push=1 a log-in with {email, password}: sets the session cookie. With ?push=1 (signed in) {subscription}: a PushSubscription, false or \'denied\'.',
    // Anything but push=1 is a log-in.
    query: z.object({ push: z.literal('1').optional().catch(undefined) }),
    body: z.union([loginSchema, pushSubscriptionBodySchema]),
    responses: {
      200: [
        { description: 'Logged in.', schema: userAnswer },
        { description: 'The push state (with ?push=1).', schema: z.strictObject({ push: z.strictObject({ state: pushStateSchema }) }) },
      ],
    },
  },
  setLanguage: {
    method: 'put', path: '/api/user.php', summary: 'Choose the language',
    description: 'Kept in the locale cookie, and on the account when signed in.',
    body: languageBody,
    responses: {
      200: [
        { description: 'Signed in: the member.', schema: userAnswer },
        { description: 'A visitor: the language.', schema: z.strictObject({ user: z.null(), language: language }) },
      ],
    },
  },
  deleteAccount: {
    method: 'delete', path: '/api/user.php', auth: 'member', summary: 'Delete the account',
    description: 'Reactivation is possible for 14 days; every session ends.',
    // The password is checked, and an unknown reason ignored, by the use case.
    body: z.object({ password: checkedByUseCase(z.string()), reason: checkedByUseCase(z.enum(DELETE_REASONS).optional()) }),
    responses: { 200: ok },
  },
  logOut: { method: 'post', path: '/api/logout.php', summary: 'Log out', responses: { 200: ok } },
  logOutLink: {
    method: 'get', path: '/api/logout.php', summary: 'Log out (GET alias)',
    description: 'Only from this site (fetch metadata, Origin, Referer or X-Request-Type: client); otherwise 403.',
    responses: { 200: ok },
  },
  signUp: {
    method: 'post', path: '/api/signup.php', summary: 'Sign up',
    description: 'Creates the member and signs them in. A first message to profile_id is sent once the account exists; without enough credits it comes back as a draft. The pending_likes (likes given before the account existed) become likes of the new member; liked names those that did (any other is dropped).',
    body: signupBodySchema,
    responses: {
      201: {
        description: 'The new member, what became of the first message, and the pending likes given.',
        schema: z.strictObject({ user: apiUserSchema, signup_message: signupMessageResultSchema.optional(), liked: z.array(id).optional() }),
      },
    },
  },
  activate: {
    method: 'get', path: '/api/activate.php', summary: 'The activation link',
    query: token,
    responses: { 302: { description: 'To /activate/done or /activate/error.' } },
  },
  activationMail: { method: 'post', path: '/api/activation-mail.php', auth: 'member', summary: 'Send the activation mail again', responses: { 200: ok } },
  passwordResetMail: {
    method: 'post', path: '/api/password-reset.php', summary: 'Mail a password reset link',
    body: passwordResetRequestSchema,
    responses: { 200: ok },
  },
  passwordReset: {
    method: 'put', path: '/api/password-reset.php', summary: 'Set a new password from the reset link',
    // The link is checked before the new password, by the use case.
    body: z.object({ token: checkedByUseCase(z.string()), password: checkedByUseCase(z.string()), password_confirm: checkedByUseCase(z.string()) }),
    responses: { 200: ok },
  },
  passwordChange: {
    method: 'put', path: '/api/password.php', auth: 'member', summary: 'Change the password',
    description: 'The other sessions end.',
    // The old password is checked before the new one, by the use case.
    body: z.object({ old_password: checkedByUseCase(z.string()), password: checkedByUseCase(z.string()), password_confirm: checkedByUseCase(z.string()) }),
    responses: { 200: ok },
  },
  mailChange: {
    method: 'post', path: '/api/mail-change.php', auth: 'member', summary: 'Change the e-mail address',
    description: 'Mails a confirmation link to the new address.',
    body: mailChangeSchema,
    responses: { 200: ok },
  },
  pause: {
    method: 'post', path: '/api/account-pause.php', auth: 'member', summary: 'Pause the account',
    description: 'Invisible, and no e-mail: answers the notification settings.',
    responses: { 200: { description: 'The notification settings.', schema: notificationSettingsSchema } },
  },
  reactivationMail: {
    method: 'post', path: '/api/reactivate.php', summary: 'Mail a reactivation link',
    description: 'The same answer for every valid address.',
    body: reactivateSchema,
    responses: { 200: ok },
  },
  reactivate: {
    method: 'get', path: '/api/reactivate.php', summary: 'The reactivation link',
    query: token,
    responses: { 302: { description: 'Signed in, to /members?reactivated=1; or to /activate/error.' } },
  },
  export: {
    method: 'get', path: '/api/export.php', auth: 'member', summary: 'Download the member\'s own data',
    responses: { 200: { description: 'Everything stored about the member (a JSON attachment).', schema: exportSchema } },
  },
});
