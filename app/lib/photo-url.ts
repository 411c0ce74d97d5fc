import { cdnUrl } from '#common/site-theme.ts';
import { useRootData } from './root-data.ts';

/**
 * A photo file's URL. An approved main photo is open to everyone and comes from the site's CDN when it
 * has one (cdn_prefix); a pending or private file needs the member's session cookie, which only this
 * origin receives, so it stays here.
 */
export function usePhotoUrl(): (file: string, open: boolean) => string {
  const cdnPrefix = useRootData()?.settings.cdn_prefix ?? '';
  return (file, open) => (open ? cdnUrl(cdnPrefix, `/photos/${file}`) : `/photos/${file}`);
}
