/**
 * Where the map lander puts a region's pin: the main city of a region (by the name profiles carry, from
 * the region list in `server/geo/region-list.ts`), as [latitude, longitude]. A region missing here is
 * pinned at the middle of its country's map.
 */
export const REGION_POINTS: Record<string, Record<string, [number, number]>> = {
  NL: {
    'Noord-Holland': [52.52, 4.79], 'Zuid-Holland': [52.0, 4.5], Utrecht: [52.09, 5.12], 'Noord-Brabant': [51.56, 5.08],
    Gelderland: [52.06, 5.9], Groningen: [53.22, 6.57], Limburg: [51.0, 5.9], Overijssel: [52.44, 6.45],
  },
  BE: {
    Antwerpen: [51.22, 4.4], 'Oost-Vlaanderen': [51.05, 3.72], 'West-Vlaanderen': [51.05, 3.0], Brussel: [50.85, 4.35],
    Liège: [50.63, 5.57], Hainaut: [50.45, 4.0],
  },
  DE: {
    Bayern: [48.9, 11.4], Berlin: [52.52, 13.4], Hamburg: [53.55, 10.0], 'Nordrhein-Westfalen': [51.45, 7.5],
    'Baden-Württemberg': [48.6, 9.0], Hessen: [50.6, 8.8], Sachsen: [51.05, 13.35],
  },
  AT: { Wien: [48.21, 16.37], Steiermark: [47.2, 15.2], Tirol: [47.26, 11.4], Salzburg: [47.6, 13.05], Oberösterreich: [48.2, 14.0] },
  FR: {
    'Île-de-France': [48.85, 2.35], 'Auvergne-Rhône-Alpes': [45.5, 4.6], 'Provence-Alpes-Côte-d’Azur': [43.7, 6.0],
    Occitanie: [43.6, 2.2], 'Nouvelle-Aquitaine': [45.2, 0.3], 'Hauts-de-France': [50.1, 2.8],
  },
  IT: {
    Lombardia: [45.6, 9.8], Lazio: [41.9, 12.5], Campania: [40.85, 14.5], Sicilia: [37.5, 14.1], Veneto: [45.5, 11.8],
    Toscana: [43.4, 11.1], Piemonte: [45.05, 7.7],
  },
  ES: {
    'Comunidad de Madrid': [40.42, -3.7], Catalunya: [41.8, 1.7], Andalucía: [37.4, -4.8], 'Comunidad Valenciana': [39.4, -0.5],
    'País Vasco': [43.0, -2.6], Galicia: [42.75, -8.0],
  },
  IE: { Dublin: [53.35, -6.26], Cork: [51.9, -8.47], Galway: [53.27, -9.05], Limerick: [52.66, -8.63] },
  FI: { Uusimaa: [60.3, 24.9], Pirkanmaa: [61.5, 23.76], 'Varsinais-Suomi': [60.45, 22.27], 'Pohjois-Pohjanmaa': [65.0, 25.5] },
  GB: {
    'City of London': [51.51, -0.09], Manchester: [53.48, -2.24], Birmingham: [52.48, -1.9], 'Glasgow City': [55.86, -4.25],
    'City of Edinburgh': [55.95, -3.19], Cardiff: [51.48, -3.18], 'Belfast City': [54.6, -5.93],
  },
  US: {
    California: [36.8, -119.4], 'New York': [42.9, -75.5], Texas: [31.5, -98.5], Florida: [28.3, -81.7], Illinois: [40.0, -89.2],
    Washington: [47.4, -120.5],
  },
  CA: { Ontario: [43.7, -79.4], Quebec: [46.8, -71.2], 'British Columbia': [49.3, -123.1], Alberta: [51.05, -114.07] },
  AU: { 'New South Wales': [-33.87, 151.2], Victoria: [-37.8, 144.96], Queensland: [-27.47, 153.02], 'Western Australia': [-31.95, 115.86] },
  NZ: { Auckland: [-36.85, 174.76], 'Greater Wellington': [-41.29, 174.78], Canterbury: [-43.53, 172.63] },
  CH: { Zürich: [47.37, 8.54], Bern: [46.95, 7.45], Genève: [46.2, 6.15], Vaud: [46.52, 6.63], Ticino: [46.0, 8.95] },
  PL: {
    Mazowieckie: [52.23, 21.0], Małopolskie: [50.06, 19.94], Śląskie: [50.26, 19.02], Wielkopolskie: [52.41, 16.93],
    Dolnośląskie: [51.11, 17.03], Pomorskie: [54.35, 18.65],
  },
  DK: { Hovedstaden: [55.68, 12.57], Midtjylland: [56.16, 10.2], Syddanmark: [55.4, 10.39], Nordjylland: [57.05, 9.92], Sjælland: [55.45, 11.8] },
  NO: { Oslo: [59.91, 10.75], Vestland: [60.39, 5.32], Trøndelag: [63.43, 10.4], Rogaland: [58.97, 5.73], Viken: [60.0, 9.6] },
  SE: {
    'Stockholms län': [59.33, 18.07], 'Västra Götalands län': [57.7, 11.97], 'Skåne län': [55.6, 13.2], 'Uppsala län': [59.86, 17.64],
    'Östergötlands län': [58.41, 15.62],
  },
};
