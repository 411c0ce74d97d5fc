import { AppError, authenticationRequired } from './infra/errors.ts';

/** What staff may do. The operator console adds roles; today the operator token acts as `operator`. */
export type StaffRole = 'moderator' | 'operator';

/**
 * Who performs a use case. Entry points (Hono handlers, React Router loaders and actions, CLI
 * commands, jobs) say who is acting; the use case decides what that actor may do, so a rule holds the
 * same whichever door a request came through.
 */
export type Actor =
  | { kind: 'visitor'; siteId: number }
  | { kind: 'member'; userId: number; siteId: number }
  | { kind: 'staff'; role: StaffRole; siteId: number | null }
  | { kind: 'system'; job: string };

/** Who may review photos and ban members. */
export const MODERATORS: readonly StaffRole[] = ['moderator', 'operator'];

/** Who may move money and payment data by hand: refunds, blocked IBANs and numbers. */
export const OPERATORS: readonly StaffRole[] = ['operator'];

export type MemberActor = Extract<Actor, { kind: 'member' }>;

/** Operator commands (`npm run members:ban`, `photos:moderate`, …) run with the rights of whoever may run them on the server. */
export const OPERATOR_CLI: Actor = { kind: 'system', job: 'operator command' };

export function actorFor(siteId: number, userId: number | null): Actor {
  return userId ? { kind: 'member', userId, siteId } : { kind: 'visitor', siteId };
}

/** The member acting, or 401: the use case needs a signed-in member. */
export function requireMember(actor: Actor): MemberActor {
  if (actor.kind !== 'member') throw authenticationRequired();
  return actor;
}

/** Staff with one of `roles` (or the system itself), or 403. */
export function requireStaff(actor: Actor, roles: readonly StaffRole[]): void {
  if (actor.kind === 'system') return;
  if (actor.kind !== 'staff' || !roles.includes(actor.role)) throw new AppError(403, 'forbidden');
}

/** The member's id when a member acts, else null (a visitor, staff or a job sees public data only). */
export function viewerId(actor: Actor): number | null {
  return actor.kind === 'member' ? actor.userId : null;
}
