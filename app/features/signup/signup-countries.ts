import { useMemo } from 'react';
import { COUNTRIES } from '#common/constants.ts';
import type { Language } from '#common/languages.ts';
import { countryOptions } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useRootData } from '../../lib/root-data.ts';

/** The countries a member can sign up from (the site's, or all), named in the page's language and sorted by name. */
export function useSignupCountries() {
  const { settings } = useRootData();
  const { i18n } = useTranslation();
  const lang = i18n.language as Language;
  return useMemo(
    () => countryOptions(settings.countries.length ? settings.countries : COUNTRIES, lang),
    [settings.countries, lang],
  );
}
