import { z } from 'zod';
import { LIMITS } from './constants';
import { truncateDecimals } from './excel';

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

/** A coordinate as sent by a client: a number (or null), truncated to 6 decimals on the way in. */
const coordinate = (range: { min: number; max: number }, label: string) =>
  z
    .number()
    .min(range.min, `${label} must be between ${range.min} and ${range.max}`)
    .max(range.max, `${label} must be between ${range.min} and ${range.max}`)
    .nullable()
    .transform((v) => truncateGeo(v));

export const latitudeSchema = coordinate(LAT_RANGE, 'Latitude');
export const longitudeSchema = coordinate(LON_RANGE, 'Longitude');
