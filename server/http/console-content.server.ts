import { data } from 'react-router';
import { isAppError } from '../infra/errors.ts';
import type { RequestContext } from './context.ts';
import { orForbidden } from './console-pages.server.ts';

/** The site a console page of site texts is about: `?site=` when it is a whole number, else the site it is opened on. */
export function consoleSiteId(ctx: RequestContext, request: Request): number {
  const raw = new URL(request.url).searchParams.get('site');
  if (raw === null) return ctx.site.id;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
}

/** A use case's 403 and 404 as the page's own (a path naming no token, language, page or mail). */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await orForbidden(work);
  } catch (error) {
    if (isAppError(error) && error.status === 404) throw data(null, { status: 404 });
    throw error;
  }
}
