/** The landing pages for paid traffic (spec section 2): /landers/{name}/{slug?} and /landers/tinderswipe. */
export const LANDER_NAMES = [
  'alonetonight', 'collagelanding', 'gallery', 'iconslanding', 'maplanding', 'socialnetwork', 'transitionsvideolanding', 'video', 'tinderswipe',
] as const;
export type LanderName = (typeof LANDER_NAMES)[number];

/** tinderswipe is the one lander without a slug. */
export const SLUGLESS_LANDERS: readonly LanderName[] = ['tinderswipe'];

/** A slug or short-path token: lower-case letters, digits and dashes, as campaign URLs are written. */
export const URL_WORD = /^[a-z0-9](?:[a-z0-9-]{0,58}[a-z0-9])?$/;
