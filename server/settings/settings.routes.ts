import { Hono } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { AppError } from '../infra/errors.ts';

export const settingsRoutes = new Hono<AppEnv>()
  /** Spec section 7: the request host is the forced domain; page query params pass through. */
  .get('/settings.php', async (c) => {
    const ctx = c.get('ctx');
    const selected = c.req.query('country')?.toUpperCase() ?? null;
    const settings = ctx.services.settings.publicSettings(ctx.site, {
      geoipCountry: ctx.geoipCountry,
      geoipSelectedCountry: selected && ctx.site.countries.includes(selected) ? selected : ctx.geoipCountry,
    });
    return c.json({ settings: { ...settings, push_public_key: await ctx.services.push.publicKey() } });
  })
  .get('/companyinfo.php', async (c) => {
    const ctx = c.get('ctx');
    return c.json({ companyinfo: await ctx.services.settings.companyInfo(ctx.site) });
  })
  .get('/interests.php', (c) => {
    const ctx = c.get('ctx');
    const t = ctx.translator.fixed(ctx.lang);
    const interests = ctx.services.settings.publicSettings(ctx.site, { geoipCountry: null, geoipSelectedCountry: null }).interests
      .map((key) => ({ key, name: t(`interests.${key}`) }));
    return c.json({ interests });
  })
  .get('/regions.php', async (c) => {
    const ctx = c.get('ctx');
    const country = c.req.query('country')?.toUpperCase() || undefined;
    if (country !== undefined && !/^[A-Z]{2}$/.test(country)) throw new AppError(400, 'invalid_input', {}, { country: 'errors.invalid_input' });
    return c.json({ regions: await ctx.services.settings.regions(country) });
  });
