import type { ProfileSummary } from '#common/api-types.ts';
import frames from './map-frames.json' with { type: 'json' };
import { REGION_POINTS } from './region-points.ts';

interface Frame {
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** The drawing's size in its own units (one grid cell each). */
  width: number;
  height: number;
}

const FRAMES = frames as unknown as Record<string, Frame>;

/** Countries with a drawn map (scripts/build-lander-maps.mjs). */
export function hasMap(country: string | null | undefined): country is string {
  return Boolean(country && FRAMES[country]);
}

export interface MapPin {
  /** Position on the map in per cent of its width and height. */
  x: number;
  y: number;
  region: string | null;
  profiles: ProfileSummary[];
}

export interface LanderMap {
  country: string;
  /** The dot map, a static file (no tile server). */
  image: string;
  width: number;
  height: number;
  pins: MapPin[];
}

/** Per cent of the map, with the same projection the drawing used (equirectangular, cos of the middle latitude). */
function project(frame: Frame, [lat, lon]: [number, number]): { x: number; y: number } {
  const [w, s, e, n] = frame.bounds;
  const clamp = (v: number) => Math.min(96, Math.max(4, v));
  return { x: clamp(((lon - w) / (e - w)) * 100), y: clamp(((n - lat) / (n - s)) * 100) };
}

/**
 * The map of a country with one pin per region holding that region's members (profiles of other
 * countries are left off: a map of the Netherlands pins only Dutch members). Members without a known
 * region share a pin in the middle of the map.
 */
export function landerMap(country: string, profiles: ProfileSummary[]): LanderMap | null {
  const frame = FRAMES[country];
  if (!frame) return null;
  const byRegion = new Map<string, ProfileSummary[]>();
  for (const p of profiles) {
    if (p.country !== country) continue;
    const key = p.region && REGION_POINTS[country]?.[p.region] ? p.region : '';
    byRegion.set(key, [...(byRegion.get(key) ?? []), p]);
  }
  const [w, s, e, n] = frame.bounds;
  const pins = [...byRegion].map(([region, list]) => {
    const point = region ? REGION_POINTS[country][region] : ([(s + n) / 2, (w + e) / 2] as [number, number]);
    return { ...project(frame, point), region: region || null, profiles: list };
  });
  return { country, image: `/landers/maps/${country.toLowerCase()}.svg`, width: frame.width, height: frame.height, pins };
}
