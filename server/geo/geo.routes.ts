import { settingsContracts } from '#common/contracts/settings.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const geoRoutes = new ApiRoutes()
  /** Spec section 7: the nearest place to the browser's position; the page stores it (or false on failure). */
  .endpoint(settingsContracts.geocode, async (c, { query: { lat, lon } }) => {
    const ctx = c.get('ctx');
    const place = ctx.services.geo.nearestPlace(lat, lon);
    if (!place) return c.json({ geocode: null });
    // The site's own name for the region, so the search can filter on it (profiles store that name).
    const siteRegion = place.region_code
      ? (await ctx.services.settings.regions(place.country)).find((r) => r.code === place.region_code)
      : undefined;
    return c.json({
      geocode: {
        city: place.city,
        region: place.region ?? siteRegion?.name ?? null,
        country: place.country,
        countryregion: siteRegion?.name ?? null,
        latitude: place.latitude,
        longitude: place.longitude,
      },
    });
  });
