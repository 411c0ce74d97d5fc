import type { MiddlewareHandler } from 'hono';
import { CONTRACTS } from '#common/contracts/index.ts';
import { requireMember } from '../actor.ts';
import type { AppEnv } from './context.ts';

const MEMBER_ONLY = new Set(CONTRACTS.filter((c) => c.auth === 'member').map((c) => `${c.method.toUpperCase()} ${c.path}`));

/**
 * The API's door to member-only endpoints: where an endpoint's contract says `auth: 'member'`, a
 * visitor is refused (403 authentication_required) before the handler reads anything, so a visitor
 * learns nothing from a body's errors. The use cases behind check their actor again, whichever door
 * the call came through (docs/decisions/036).
 */
export const memberOnlyByContract: MiddlewareHandler<AppEnv> = async (c, next) => {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  if (MEMBER_ONLY.has(`${method} ${c.req.path}`)) requireMember(c.get('ctx').actor);
  await next();
};
