import { isLocalHostname } from '#common/site-settings.ts';
import type { Env } from '../env.ts';

export { isLocalHostname };

/** What a site's canonical origin depends on. */
export type OriginConfig = Pick<Env, 'PUBLIC_URL' | 'PORT'>;

/**
 * The one place that says where a site lives: every link the server builds (mails, payment return and
 * webhook URLs) starts with this, never with the request's Host header. PUBLIC_URL wins when set; a
 * localhost site is served by this process on PORT; any other site is its own domain over https.
 */
export function siteOrigin(config: OriginConfig, domain: string): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = domain.trim().toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return `http://${host}:${config.PORT}`;
  return `https://${host}`;
}

/**
 * A deployment is public when PUBLIC_URL or any configured site domain is not a local name. Public
 * deployments must not simulate payments or keep mail in a local outbox without the operator knowing.
 */
export function isPublicOrigin(config: Pick<Env, 'PUBLIC_URL'>, domains: readonly string[]): boolean {
  if (config.PUBLIC_URL && !isLocalHostname(new URL(config.PUBLIC_URL).hostname)) return true;
  return domains.some((d) => !isLocalHostname(d));
}
