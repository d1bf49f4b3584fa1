import { LIMITS } from './constants';

/*
 * Coordinates as the app shows and keeps them (docs/product/rules.md §2.3, §6). No zod here: the job
 * page imports these (dragging a pole on the map) and zod's ~25 KB gzip must stay off its first
 * load; the request schemas that check coordinates are in geo.schemas.ts.
 */

/** Cut (not round) to `decimals` places, e.g. 42.12345678 -> 42.123456 (docs/product/rules.md, rules.md §2.3). */
export function truncateDecimals(value: number, decimals: number = LIMITS.geoDecimals): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  const scaled = value * factor;
  const nearest = Math.round(scaled);
  // 0.000001 * 1e6 is 0.9999999999999999 in binary floating point: that is 1, not 0.
  const cut = Math.abs(scaled - nearest) <= 8 * Number.EPSILON * Math.max(1, Math.abs(scaled)) ? nearest : Math.trunc(scaled);
  const result = cut / factor;
  return Object.is(result, -0) ? 0 : result;
}

/**
 * Latitude and longitude are kept to at most 6 decimals, cut and not rounded (docs/product/rules.md §2.3 Add pole,
 * §9): 42.1234569 → 42.123456. Accepts what an input gives (a number or its text); empty,
 * non-numeric and infinite values are null.
 */
export function truncateGeo(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : value.trim() === '' ? NaN : Number(value.trim());
  if (!Number.isFinite(n)) return null;
  return truncateDecimals(n, LIMITS.geoDecimals);
}

/** A coordinate as shown to a person: always 6 decimals (docs/product/rules.md §2.3), '' when unknown. */
export function formatGeo(value: number | null | undefined): string {
  return value == null || !Number.isFinite(value) ? '' : value.toFixed(LIMITS.geoDecimals);
}

export const LAT_RANGE = { min: -90, max: 90 } as const;
export const LON_RANGE = { min: -180, max: 180 } as const;
