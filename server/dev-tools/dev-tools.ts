import type { Context } from 'hono';
import type { Env } from '../env.ts';
import { isOperatorRequest } from './mail-outbox.routes.ts';

/**
 * Who may see the dev viewers (/dev/outbox, /dev/sms): only with DEV_TOOLS=1, only the operator at this machine (a
 * loopback peer, no forwarding header, TRUST_PROXY off) and never on a public deployment, whatever the headers say.
 * A reverse proxy that adds no forwarding header connects from loopback like the operator, so the flag is what an
 * operator turns on for local work; the public check holds even when it is set on a server by mistake. Public is
 * asked per request, so a public domain added while running turns the viewers off at once.
 */
export function devViewerGate(env: Pick<Env, 'DEV_TOOLS' | 'TRUST_PROXY'>, isPublicDeployment: () => Promise<boolean>) {
  return async (c: Context): Promise<boolean> => env.DEV_TOOLS && isOperatorRequest(c, env) && !(await isPublicDeployment());
}

/** What the start says about the dev viewers: nothing when DEV_TOOLS is off. */
export function devToolsNotice(input: {
  env: Pick<Env, 'DEV_TOOLS' | 'TRUST_PROXY'>;
  /** Whether the deployment is public at start (PUBLIC_URL or a site domain that is not local). */
  isPublic: boolean;
  /** The viewers this configuration has: /dev/outbox without SMTP_URL, /dev/sms without SMS_URL. */
  viewers: string[];
}): { level: 'info' | 'error'; message: string } | null {
  const { env, isPublic, viewers } = input;
  if (!env.DEV_TOOLS || viewers.length === 0) return null;
  const list = viewers.join(' and ');
  if (isPublic) return { level: 'error', message: `DEV_TOOLS=1 is ignored on a public deployment: ${list} stay off.` };
  if (env.TRUST_PROXY) return { level: 'info', message: `DEV_TOOLS=1, but TRUST_PROXY is set: ${list} answer nobody (they are for a machine without a proxy).` };
  return { level: 'info', message: `DEV_TOOLS=1: ${list} are on for the operator on this machine (loopback, no proxy).` };
}
