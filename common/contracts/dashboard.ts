import { z } from 'zod';
import { id, idParam } from './shapes.ts';

const day = z.preprocess((v) => (v === '' ? undefined : v), z.iso.date().optional());

export const DASHBOARD_BUCKETS = ['day', 'week', 'month'] as const;
export type DashboardBucket = (typeof DASHBOARD_BUCKETS)[number];

/** The tables of the reports dashboard, each downloadable as CSV. */
export const DASHBOARD_TABLES = ['activity', 'by_lander', 'revenue', 'by_method', 'by_country', 'by_package', 'by_site', 'refunds', 'chargebacks'] as const;

/**
 * The reports dashboard's period (days, inclusive, UTC; by default the last 30 days until today), bucket (by default
 * day) and site (by default every site the staff member may see). A day bucket covers at most 400 days, the others five years.
 */
export const dashboardQuerySchema = z.object({
  from: day,
  to: day,
  bucket: z.preprocess((v) => (v === '' ? undefined : v), z.enum(DASHBOARD_BUCKETS).default('day')),
  site: z.preprocess((v) => (v === '' ? undefined : v), idParam.optional()),
});

export type DashboardQuery = z.output<typeof dashboardQuerySchema>;

export const dashboardCsvQuerySchema = dashboardQuerySchema.extend({ table: z.enum(DASHBOARD_TABLES) });

const n = z.int().min(0);
/** Money of one currency: never added across currencies. */
const money = { currency: z.string(), orders: n, cents: z.int() };

export const dashboardSchema = z.strictObject({
  from: z.iso.date(),
  to: z.iso.date(),
  bucket: z.enum(DASHBOARD_BUCKETS),
  site_id: id.nullable(),
  /** One row per bucket (its first day), every bucket of the period listed, zeros too. */
  activity: z.array(z.strictObject({
    /** Visitors' views of the landers (bots and a visitor's repeats within half an hour left out). */
    bucket: z.iso.date(), visits: n, signups: n, activations: n, first_purchases: n,
    messages_paid: n, messages_free: n, messages_to_fictional: n, gifts: n, gifts_to_fictional: n,
    /** Distinct members who sent a message or signed in within the bucket (DAU with day buckets, MAU with month buckets). */
    active_members: n, page_bounces: n,
  })),
  totals: z.strictObject({ visits: n, signups: n, activations: n, first_purchases: n, active_members: n, page_bounces: n }),
  /**
   * Per lander with visits or sign-ups in the period, by name: its visits, and the sign-ups, activations and first
   * purchases of the members who first came from it (decision 083), each counted on the day it happened.
   */
  by_lander: z.array(z.strictObject({ lander: z.string(), visits: n, signups: n, activations: n, first_purchases: n })),
  revenue: z.array(z.strictObject({ bucket: z.iso.date(), ...money })),
  by_method: z.array(z.strictObject({ key: z.string(), ...money })),
  by_country: z.array(z.strictObject({ key: z.string(), ...money })),
  by_package: z.array(z.strictObject({ key: z.string(), ...money })),
  by_site: z.array(z.strictObject({ key: z.string(), ...money })),
  refunds: z.array(z.strictObject({ bucket: z.iso.date(), ...money })),
  chargebacks: z.array(z.strictObject({ bucket: z.iso.date(), ...money })),
});

export type Dashboard = z.output<typeof dashboardSchema>;
