import { describe, expect, it } from 'vitest';
import type { Site } from '../settings/settings.service.ts';
import { resolveLanguage } from './language.ts';

const site = (domainLanguage: string | null) => ({ domainLanguage }) as Site;

describe('resolveLanguage', () => {
  it('prefers the locale cookie', () => {
    expect(resolveLanguage({ cookie: 'pl', site: site('de_DE'), acceptLanguage: 'fr' })).toEqual({ lang: 'pl', setCookie: false });
  });
  it('uses the first two letters of domain_language and sets the cookie', () => {
    expect(resolveLanguage({ cookie: undefined, site: site('da_DK'), acceptLanguage: 'fr' })).toEqual({ lang: 'da', setCookie: true });
    expect(resolveLanguage({ cookie: 'zz', site: site('xx_XX'), acceptLanguage: undefined })).toEqual({ lang: 'en', setCookie: false });
  });
  it('falls back to the browser, mapping Norwegian to bokmål, then to English', () => {
    expect(resolveLanguage({ cookie: undefined, site: site(null), acceptLanguage: 'no-NO,en;q=0.5' }).lang).toBe('nb');
    expect(resolveLanguage({ cookie: undefined, site: site(null), acceptLanguage: 'ja,it;q=0.8' }).lang).toBe('it');
    expect(resolveLanguage({ cookie: undefined, site: site(null), acceptLanguage: undefined }).lang).toBe('en');
  });
});
