import { cdnUrl } from '#common/site-theme.ts';
import { useRootData } from '../lib/root-data.ts';

/**
 * The site's logo from its settings (logo_url; a path is served from the CDN when the site has one),
 * or its name as a text mark when it has none: one build serves every brand.
 */
export function SiteLogo() {
  const { settings } = useRootData();
  if (!settings.logo_url) return <span className="site-logo-text" data-logo="text">{settings.name}</span>;
  const src = settings.logo_url.startsWith('/') ? cdnUrl(settings.cdn_prefix, settings.logo_url) : settings.logo_url;
  return <img className="site-logo" src={src} alt={settings.name} height={32} data-logo="image" />;
}
