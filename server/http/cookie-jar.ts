import type { Context } from 'hono';
import { deleteCookie, generateCookie, getCookie, setCookie } from 'hono/cookie';
import { parse, type CookieOptions } from 'hono/utils/cookie';

/**
 * The cookies of one request and its answer, whichever entry point handles it: a Hono handler
 * writes them on its context, a React Router action collects them as Set-Cookie headers for the
 * answer it returns. Use cases that log in or out take a jar, so both entry points share them.
 */
export interface CookieJar {
  get(name: string): string | undefined;
  set(name: string, value: string, options: CookieOptions): void;
  delete(name: string, options: CookieOptions): void;
}

export function honoCookieJar(c: Context): CookieJar {
  return {
    get: (name) => getCookie(c, name),
    set: (name, value, options) => setCookie(c, name, value, options),
    delete: (name, options) => void deleteCookie(c, name, options),
  };
}

/** A jar over a page request: what is set lands in `headers`, to go out with the action's answer. */
export function requestCookieJar(request: Request): CookieJar & { headers: Headers } {
  const incoming = parse(request.headers.get('cookie') ?? '');
  const headers = new Headers();
  return {
    headers,
    get: (name) => incoming[name],
    set: (name, value, options) => headers.append('Set-Cookie', generateCookie(name, value, options)),
    delete: (name, options) => headers.append('Set-Cookie', generateCookie(name, '', { ...options, maxAge: 0, expires: new Date(0) })),
  };
}
