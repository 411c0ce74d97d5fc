import { createContext } from 'react-router';
import type { RequestContext } from '#server/http/context.ts';

/** The server's per-request context (site, member, language, services), given to every loader. */
export const requestContext = createContext<RequestContext>();
