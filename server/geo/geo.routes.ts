import { Hono } from 'hono';
import { geocodeSchema } from '#common/schemas.ts';
import type { AppEnv } from '../http/context.ts';
import { parse } from '../http/helpers.ts';

export const geoRoutes = new Hono<AppEnv>()
  /** Spec section 7: the nearest place to the browser's position; the page stores it (or false on failure). */
  .get('/geocode.php', async (c) => {
    const ctx = c.get('ctx');
    const { lat, lon } = parse(geocodeSchema, c.req.query());
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
