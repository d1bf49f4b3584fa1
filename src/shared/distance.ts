/**
 * Distances between places (docs/product/map.md §2 Nearest first), with no dependency at all: My Work
 * imports this, and must not load zod and the coordinate schemas of geo.ts to sort its list.
 */

/** A place in degrees (WGS 84), as the Geolocation API and our tickets give it. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** The mean Earth radius (IUGG), in metres: the haversine formula's sphere. */
const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/**
 * Great-circle distance in metres (haversine). A sphere is within 0.5 % of the ellipsoid, far
 * closer than a phone's GPS fix matters for "which pole is nearest" (docs/product/map.md §1).
 */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A ticket's place, or null when either coordinate is missing. */
export function placeOf(t: { geo_lat: number | null; geo_lon: number | null }): LatLon | null {
  return t.geo_lat == null || t.geo_lon == null ? null : { lat: t.geo_lat, lon: t.geo_lon };
}

/**
 * "Nearest first" (docs/product/map.md §2): the rows by distance from `origin`, those without coordinates
 * last; equal distances (and the rows without coordinates) keep the order they came in, so the
 * list stays in work order among themselves. Each row comes with its distance (null = unknown).
 */
export function byDistance<T extends { geo_lat: number | null; geo_lon: number | null }>(rows: readonly T[], origin: LatLon): { row: T; meters: number | null }[] {
  return rows
    .map((row, i) => {
      const at = placeOf(row);
      return { row, meters: at ? distanceMeters(origin, at) : null, i };
    })
    .sort((a, b) => (a.meters === null ? (b.meters === null ? a.i - b.i : 1) : b.meters === null ? -1 : a.meters - b.meters || a.i - b.i))
    .map(({ row, meters }) => ({ row, meters }));
}

const FEET_PER_METRE = 3.28084;
const METRES_PER_MILE = 1609.344;

/**
 * A distance as a US crew reads it: feet (to 10 ft) below a tenth of a mile, then miles with one
 * decimal, whole miles from 10 on.
 */
export function formatDistance(meters: number): string {
  if (meters < METRES_PER_MILE / 10) return `${Math.round((meters * FEET_PER_METRE) / 10) * 10} ft`;
  const miles = meters / METRES_PER_MILE;
  return miles < 10 ? `${miles.toFixed(1)} mi` : `${Math.round(miles).toLocaleString('en-US')} mi`;
}
