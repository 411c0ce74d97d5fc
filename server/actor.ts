import type { StaffRoleName } from '#common/staff.ts';
import { AppError, authenticationRequired } from './infra/errors.ts';

/**
 * A staff member acting, built from a console session or an API token (decision 055). `roles` are the ones this
 * session or token acts with (a token's scopes narrow its owner's roles); `siteIds` are the sites they reach (their
 * own list and every site of their companies), null for every site.
 */
export interface StaffActor {
  kind: 'staff';
  staffId: number;
  roles: readonly StaffRoleName[];
  siteIds: readonly number[] | null;
  companyIds: readonly number[] | null;
}

/**
 * Who performs a use case. Entry points (Hono handlers, React Router loaders and actions, CLI
 * commands, jobs) say who is acting; the use case decides what that actor may do, so a rule holds the
 * same whichever door a request came through.
 */
export type Actor =
  | { kind: 'visitor'; siteId: number }
  | { kind: 'member'; userId: number; siteId: number }
  | StaffActor
  | { kind: 'system'; job: string };

export type MemberActor = Extract<Actor, { kind: 'member' }>;

/** Jobs: whoever may run them on the server may do what they do. */
export type SystemActor = Extract<Actor, { kind: 'system' }>;

/** Who writes staff use cases and audit rows. */
export type StaffOrSystem = StaffActor | SystemActor;

export function actorFor(siteId: number, userId: number | null): Actor {
  return userId ? { kind: 'member', userId, siteId } : { kind: 'visitor', siteId };
}

/** The member acting, or 401: the use case needs a signed-in member. */
export function requireMember(actor: Actor): MemberActor {
  if (actor.kind !== 'member') throw authenticationRequired();
  return actor;
}

/**
 * Whether the staff member may act as `role` on site `siteId` (null: something of no one site, such as other staff
 * accounts, which only staff of every site may touch). `admin` may do what every other role may.
 */
export function can(actor: StaffActor, role: StaffRoleName, siteId: number | null): boolean {
  if (!actor.roles.includes(role) && !actor.roles.includes('admin')) return false;
  if (actor.siteIds === null) return true;
  return siteId !== null && actor.siteIds.includes(siteId);
}

/**
 * Staff with `role` on site `siteId` (or a job), or 403: members and visitors never pass. Returns the actor as
 * staff or system, for the audit row.
 */
export function requireRole(actor: Actor, role: StaffRoleName, siteId: number | null): StaffOrSystem {
  if (actor.kind === 'system') return actor;
  if (actor.kind !== 'staff' || !can(actor, role, siteId)) throw new AppError(403, 'forbidden');
  return actor;
}

/** A staff member (never a job) with `role` on site `siteId` (null: every site), or 403: the console's screens. */
export function requireStaffRole(actor: Actor, role: StaffRoleName, siteId: number | null): StaffActor {
  if (actor.kind !== 'staff' || !can(actor, role, siteId)) throw new AppError(403, 'forbidden');
  return actor;
}

/** A staff member (never a job) with `role` on at least one site, or 403: console lists narrowed to their sites. */
export function requireStaffRoleSomewhere(actor: Actor, role: StaffRoleName): StaffActor {
  const staff = requireRoleSomewhere(actor, role);
  if (staff.kind !== 'staff') throw new AppError(403, 'forbidden');
  return staff;
}

/**
 * Staff with `role` on at least one site (or a job), or 403: for lists, which the use case then narrows to
 * `sitesOf(actor)`.
 */
export function requireRoleSomewhere(actor: Actor, role: StaffRoleName): StaffOrSystem {
  if (actor.kind === 'system') return actor;
  if (actor.kind !== 'staff' || !(actor.roles.includes(role) || actor.roles.includes('admin'))) throw new AppError(403, 'forbidden');
  if (actor.siteIds !== null && actor.siteIds.length === 0) throw new AppError(403, 'forbidden');
  return actor;
}

/** The sites a staff member's lists are narrowed to; null for every site (staff of every site, jobs). */
export function sitesOf(actor: StaffOrSystem): readonly number[] | null {
  return actor.kind === 'staff' ? actor.siteIds : null;
}

/** The member's id when a member acts, else null (a visitor, staff or a job sees public data only). */
export function viewerId(actor: Actor): number | null {
  return actor.kind === 'member' ? actor.userId : null;
}
