/**
 * Every rate limit and throttle in one place (docs/decisions: h3 shared rate limits). Windows are
 * fixed; counters live in Redis or in the rate_limits table, so they hold across instances.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const LIMITS = {
  /** Every log-in attempt per client IP (credential stuffing over many addresses). */
  login: { limit: 20, windowMs: 15 * MINUTE },
  signup: { limit: 10, windowMs: HOUR },
  /** Every endpoint that sends a mail (reset, activation, e-mail change, reactivation), per IP. */
  mail: { limit: 10, windowMs: HOUR },
  /**
   * Password-reset mails for one account. Counted per (account, client address) first, so one address cannot
   * spend the account's budget alone; the account's budget from all addresses is large enough that keeping it
   * spent takes four fresh client addresses every hour, and small enough to bound mail bombing.
   * A device that logged in to the account before asks on a budget of its own (an attacker has none).
   */
  resetMailsPerAddress: { limit: 3, windowMs: HOUR },
  resetMailsPerAccount: { limit: 10, windowMs: HOUR },
  resetMailsPerDevice: { limit: 3, windowMs: HOUR },
  /** Token links and one-click unsubscribes, per IP: enough for people, too few for guessing. */
  links: { limit: 60, windowMs: 15 * MINUTE },
  /** Notices of illegal content (/complaints), per client IP and per reporter (member, else e-mail address). */
  noticesPerIp: { limit: 10, windowMs: HOUR },
  noticesPerReporter: { limit: 5, windowMs: DAY },
  /** Member reports (profile, photo, message), per member. */
  reportsPerMember: { limit: 20, windowMs: DAY },
  /** Direct-debit SMS codes asked for, per IP (the per-number and per-member limits are in common/constants.ts). */
  smsCodes: { limit: 10, windowMs: HOUR },
  /** Page-bounce records (`?lb`), per IP. */
  pageBounces: { limit: 60, windowMs: HOUR },

  /** Failed log-ins per (normalised e-mail, client IP): then 429 for that pair. */
  loginPair: { limit: 5, windowMs: 15 * MINUTE },
  /** Failed log-ins per normalised e-mail from all addresses: then 429 for devices the account does not know. */
  loginEmail: { limit: 20, windowMs: HOUR },
  /** Failed log-ins per known device (it skips the two above). */
  loginDevice: { limit: 10, windowMs: 15 * MINUTE },

  /**
   * Failed staff sign-ins (a wrong password or a wrong second factor), per client address and per staff e-mail
   * address from every client. Staff have no known devices yet, so the second also holds back their owner for its
   * window: small windows, and the second factor makes a guessed password alone worth nothing.
   */
  staffSignInPerIp: { limit: 10, windowMs: 15 * MINUTE },
  staffSignInPerAccount: { limit: 20, windowMs: HOUR },

  /** Likes and unlikes together, per member. */
  likesPerMinute: { limit: 30, windowMs: MINUTE },
  likesPerHour: { limit: 300, windowMs: HOUR },
  /** Messages sent, per member. */
  messagesPerMinute: { limit: 20, windowMs: MINUTE },
  messagesPerHour: { limit: 300, windowMs: HOUR },
  /** Discount codes tried, per member (the code field and codes in links): enough for people, too few for guessing. */
  discountCodes: { limit: 30, windowMs: HOUR },
  /** Typing signals, per member (the page sends at most one every 3 seconds). */
  typingPerMinute: { limit: 40, windowMs: MINUTE },

  /** A new-like (or new-match) mail per liker → liked pair: a like/unlike loop mails once a day at most. */
  likeMailPerPair: { limit: 1, windowMs: DAY },
  /** A profile-visit mail per visitor → visited pair, and at most a few a day per member (the rest are not news). */
  visitMailPerPair: { limit: 1, windowMs: 7 * DAY },
  visitMailsPerRecipient: { limit: 3, windowMs: DAY },
  /** Notification mails (messages, likes, matches, visits) per recipient. */
  mailsPerRecipient: { limit: 10, windowMs: HOUR },
  /** The same two for push notifications. */
  likePushPerPair: { limit: 1, windowMs: DAY },
  pushesPerRecipient: { limit: 30, windowMs: HOUR },
} as const;

export type LimitName = keyof typeof LIMITS;
