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

/** Pins stay this far (per cent) inside the map's edges, in whole per cents below 100 (the page places them by class per digit). */
export const PIN_MIN = 4;
export const PIN_MAX = 96;
/** The least distance between two pins' centres, in per cent of the map's height (a pin is at most 52 px of 540). */
const PIN_SPACING = 11;

/** Countries with a drawn map (scripts/build-lander-maps.mjs). */
export function hasMap(country: string | null | undefined): country is string {
  return Boolean(country && FRAMES[country]);
}

export interface MapPin {
  /**
   * Position on the map in whole per cent of its width and height (4–96): the page places a pin by a class per per
   * cent, as the Content-Security-Policy refuses style attributes (docs/decisions/052). A per cent is a few pixels.
   */
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
  const clamp = (v: number) => Math.min(PIN_MAX, Math.max(PIN_MIN, Math.round(v)));
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
  const placed = [...byRegion].map(([region, list]) => {
    const point = region ? REGION_POINTS[country][region] : ([(s + n) / 2, (w + e) / 2] as [number, number]);
    return { ...project(frame, point), region: region || null, profiles: list };
  });
  const pins = apart(placed, frame.width / frame.height);
  return { country, image: `/landers/maps/${country.toLowerCase()}.svg`, width: frame.width, height: frame.height, pins };
}

/**
 * Pins closer than a pin's own size (about a tenth of the map's height) would cover each other, and a covered pin is
 * a target nobody can tap: such pins become one, at the place of the one with the most members, holding all of them.
 */
function apart(pins: MapPin[], ratio: number): MapPin[] {
  const kept: MapPin[] = [];
  for (const pin of [...pins].sort((a, b) => b.profiles.length - a.profiles.length)) {
    const near = kept.find((k) => Math.hypot((k.x - pin.x) * ratio, k.y - pin.y) < PIN_SPACING);
    if (near) near.profiles = [...near.profiles, ...pin.profiles];
    else kept.push({ ...pin });
  }
  return kept;
}
