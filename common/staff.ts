/** What a staff member may do (decision 055); `admin` may do everything the others may. */
export const STAFF_ROLES = ['moderator', 'support', 'finance', 'admin'] as const;
export type StaffRoleName = (typeof STAFF_ROLES)[number];

/** The console session's cookie: a name of its own, never the members' `auth.session` (decision 059). */
export const STAFF_COOKIE = 'console.session';

/** Secret scanners find staff API tokens by this prefix. */
export const STAFF_TOKEN_PREFIX = 'amora_st_';
