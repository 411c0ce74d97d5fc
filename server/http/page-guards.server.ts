import { data, redirect } from 'react-router';
import type { RequestContext } from './context.ts';
import { isAppError } from '../infra/errors.ts';
import { requireMember, type MemberActor } from '../actor.ts';

/**
 * Member pages need a session; others are sent to log in and come back. The member acting, for the
 * use cases, which check the actor themselves (a visitor who got past this would get their 403).
 */
export function requireMemberActor(ctx: RequestContext, back: string): MemberActor {
  if (ctx.actor.kind !== 'member') throw redirect(`/login?redirect=${encodeURIComponent(back)}`);
  return requireMember(ctx.actor);
}

/** A rule's 404 becomes the page's 404, with no hint why. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}
