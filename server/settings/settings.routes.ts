import { settingsContracts } from '#common/contracts/settings.ts';
import { selectedCountry } from '#common/site-settings.ts';
import { ApiRoutes } from '../http/endpoint.ts';

export const settingsRoutes = new ApiRoutes()
  /** Spec section 7: the request host is the forced domain; page query params pass through. */
  .endpoint(settingsContracts.settings, async (c, { query }) => {
    const ctx = c.get('ctx');
    const settings = ctx.services.settings.publicSettings(ctx.site, {
      geoipCountry: ctx.geoipCountry,
      geoipSelectedCountry: selectedCountry(ctx.site, ctx.geoipCountry, query.country),
    });
    return c.json({ settings: { ...settings, push_public_key: await ctx.services.push.publicKey() } });
  })
  .endpoint(settingsContracts.companyInfo, async (c) => {
    const ctx = c.get('ctx');
    return c.json({ companyinfo: await ctx.services.settings.companyInfo(ctx.site) });
  })
  .endpoint(settingsContracts.interests, (c) => {
    const ctx = c.get('ctx');
    const t = ctx.translator.fixed(ctx.lang);
    const interests = ctx.services.settings.publicSettings(ctx.site, { geoipCountry: null, geoipSelectedCountry: null }).interests
      .map((key) => ({ key, name: t(`interests.${key}`) }));
    return c.json({ interests });
  })
  .endpoint(settingsContracts.regions, async (c, { query }) => {
    const ctx = c.get('ctx');
    return c.json({ regions: await ctx.services.settings.regions(query.country) });
  });
