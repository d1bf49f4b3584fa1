import { z } from 'zod';
import { LAT_RANGE, LON_RANGE, truncateGeo } from './geo';

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
