/**
 * Landing and chat pages show the adults-only warning only to visitors from these countries; the site can turn
 * it off (enable_site_entry_popup). Its other pages show it to every visitor from the site's countries.
 */
const WARNING_COUNTRIES: readonly string[] = ['NL', 'DE'];

export function countryWarns(settings: { enable_site_entry_popup: boolean; geoip_country: string | null }): boolean {
  return settings.enable_site_entry_popup && WARNING_COUNTRIES.includes(settings.geoip_country ?? '');
}
