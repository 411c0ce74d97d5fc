import { z } from 'zod';
import { geocodeSchema } from '../schemas.ts';
import { contracts } from './contract.ts';
import { id, isoDateTime } from './shapes.ts';

const countryCode = z.string().regex(/^[A-Z]{2}$/);
/** A country code in a query is taken in any case; empty is none. */
const countryQuery = <S extends z.ZodType>(schema: S) => z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() || undefined : v), schema);

/** Spec section 7: the site's public settings. */
export const siteSettingsSchema = z.strictObject({
  name: z.string(),
  domain: z.string(),
  domain_language: z.string().nullable(),
  index_title: z.string(),
  description: z.string(),
  cdn_prefix: z.string(),
  niche: z.number().int().min(1).max(7),
  /** The site's colours (#rrggbb), applied over the built theme at run time. */
  theme: z.strictObject({ primary: z.string(), secondary: z.string(), dark: z.string() }),
  /** The navbar logo's URL; '' shows the name as a text mark. */
  logo_url: z.string(),
  countries: z.array(z.string()),
  signups: z.string(),
  logged_out_search: z.string(),
  logged_out_search_trafficsource: z.string(),
  geoip_country: z.string().nullable(),
  geoip_selected_country: z.string().nullable(),
  support_email: z.string(),
  support_phone: z.string(),
  mail_name: z.string(),
  message_credits: z.number().int(),
  signup_credits: z.number().int(),
  photo_credits: z.number().int(),
  gift_credits: z.number().int(),
  minimum_message_costs: z.record(z.string(), z.strictObject({ costs: z.number().int(), currency: z.string() })),
  photo_moderation: z.enum(['before', 'after']),
  message_length: z.number().int(),
  refund_days: z.number().int(),
  member_resell: z.boolean(),
  enable_site_entry_popup: z.boolean(),
  fictional_icon: z.string(),
  fictional_warning: z.string(),
  fictional_singular: z.string(),
  fictional_plural: z.string(),
  visible_profile_fields: z.array(z.string()),
  visible_profile_notes: z.boolean(),
  search_fields: z.array(z.string()),
  company_id: id,
  interests: z.array(z.string()),
  /** The VAPID key to subscribe to push with. */
  push_public_key: z.string(),
});

export const settingsContracts = contracts({
  settings: {
    method: 'get', path: '/api/settings.php', summary: 'The site\'s public settings',
    description: 'The request host picks the site; ?country= picks the selected country among the site\'s countries.',
    query: z.object({ country: countryQuery(z.string().optional()) }),
    responses: { 200: { description: 'The settings.', schema: z.strictObject({ settings: siteSettingsSchema }) } },
  },
  companyInfo: {
    method: 'get', path: '/api/companyinfo.php', summary: 'The company behind the site',
    responses: {
      200: {
        description: 'The company.',
        schema: z.strictObject({
          companyinfo: z.strictObject({
            name: z.string(),
            address: z.string(),
            kvk: z.string(),
            city: z.string(),
            country: z.string(),
            tradenames: z.array(z.string()),
            vat_numbers: z.array(z.string()),
            support_phone: z.string(),
            delete_discount: z.number().int(),
            added: isoDateTime,
          }),
        }),
      },
    },
  },
  interests: {
    method: 'get', path: '/api/interests.php', summary: 'The interests members can pick, in the member\'s language',
    responses: {
      200: { description: 'Key and translated name.', schema: z.strictObject({ interests: z.array(z.strictObject({ key: z.string(), name: z.string() })) }) },
    },
  },
  regions: {
    method: 'get', path: '/api/regions.php', summary: 'Regions, of one country or all',
    query: z.object({ country: countryQuery(countryCode.optional()) }),
    responses: {
      200: {
        description: 'Ordered by country and name.',
        schema: z.strictObject({ regions: z.array(z.strictObject({ country: z.string(), code: z.string(), name: z.string() })) }),
      },
    },
  },
  geocode: {
    method: 'get', path: '/api/geocode.php', summary: 'The nearest place to a position',
    description: 'countryregion is the site\'s own name for the region, as the search filters on it.',
    query: geocodeSchema,
    responses: {
      200: {
        description: 'The place, or null when none is near.',
        schema: z.strictObject({
          geocode: z.strictObject({
            city: z.string(),
            region: z.string().nullable(),
            country: z.string(),
            countryregion: z.string().nullable(),
            latitude: z.number(),
            longitude: z.number(),
          }).nullable(),
        }),
      },
    },
  },
  openApi: {
    method: 'get', path: '/api/openapi.json', summary: 'This description of the JSON API (OpenAPI 3.1)',
    responses: {
      200: {
        description: 'The OpenAPI document, generated from the contracts in common/contracts.',
        schema: z.looseObject({ openapi: z.string().startsWith('3.1'), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()) }),
      },
    },
  },
});
