/** The landing pages for paid traffic (spec section 2): /landers/{name}/{slug?} and /landers/tinderswipe. */
export const LANDER_NAMES = [
  'alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video', 'tinderswipe',
] as const;
export type LanderName = (typeof LANDER_NAMES)[number];

/** A member's landing pages (/members/{id}/landing, landing2 and landing3), as a sign-up's lander names them. */
export const MEMBER_LANDERS = ['member-landing', 'member-landing2', 'member-landing3'] as const;

/** What a sign-up records as the lander its member came from (users.lander): a lander or a member's landing page. */
export const SIGNUP_LANDERS = [...LANDER_NAMES, ...MEMBER_LANDERS] as const;
export type SignupLander = (typeof SIGNUP_LANDERS)[number];

/** A lander name read from a cookie or another untrusted place: a known one, else null (never an error). */
export function signupLander(name: unknown): SignupLander | null {
  return typeof name === 'string' && (SIGNUP_LANDERS as readonly string[]).includes(name) ? name as SignupLander : null;
}

/** tinderswipe is the one lander without a slug. */
export const SLUGLESS_LANDERS: readonly LanderName[] = ['tinderswipe'];

/** A slug or short-path token: lower-case letters, digits and dashes, as campaign URLs are written. */
export const URL_WORD = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
