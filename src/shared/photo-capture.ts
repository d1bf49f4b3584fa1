import { z } from 'zod';
import { LAT_RANGE, LON_RANGE, truncateGeo } from './geo';

/**
 * When and where a photo was taken (docs/product/field-mode.md §8 photos). The browser reads it from the photo's
 * EXIF before resizing and sends it with the image-complete call; without it the server reads
 * the stored file's EXIF. Both sides judge a capture time by the same rule, here.
 */

/**
 * How far ahead of the server's clock a capture time may be: a phone's clock a little fast, or
 * a time zone mistaken by a few hours, is not worth refusing a photo over; a year ahead is.
 */
export const TAKEN_AT_MAX_AHEAD_MS = 24 * 60 * 60 * 1000;
/**
 * Earlier than this is a camera whose clock was never set (many start at 1970), not a photo of
 * our users' work.
 */
export const TAKEN_AT_EARLIEST = Date.UTC(1990, 0, 1);

/** Is this a capture time worth keeping: a real instant, not before 1990, not in the future? */
export function isPlausibleTakenAt(at: Date, now = Date.now()): boolean {
  const t = at.getTime();
  return Number.isFinite(t) && t >= TAKEN_AT_EARLIEST && t <= now + TAKEN_AT_MAX_AHEAD_MS;
}

export const PHOTO_MSG = {
  takenAtFormat: 'takenAt must be an ISO 8601 date and time with a time zone, e.g. 2026-05-06T14:30:00Z.',
  takenAtImplausible: "takenAt must not be in the future or before 1990: check the phone's clock.",
  latNumber: 'lat must be a number of degrees between -90 and 90.',
  lonNumber: 'lon must be a number of degrees between -180 and 180.',
  positionPair: 'Send the photo position as lat and lon together, or neither.',
} as const;

/** A form field that may be absent: '' (an empty form input) counts as absent. */
const optionalField = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v), schema.optional());

const coordinate = (range: { min: number; max: number }, message: string) =>
  optionalField(
    z.coerce
      .number({ error: message })
      .min(range.min, message)
      .max(range.max, message)
      .transform((v) => truncateGeo(v) ?? v),
  );

/**
 * The optional capture fields of POST /media_upload/s3-upload-complete (a form body: every value
 * arrives as text). Coordinates are cut to 6 decimals like every coordinate (docs/product/rules.md §2.3).
 */
export const photoCaptureFields = {
  /** When the photo was taken: ISO 8601 with a time zone (`Z` or `±hh:mm`). */
  takenAt: optionalField(
    z
      .string()
      .max(64, PHOTO_MSG.takenAtFormat)
      .pipe(z.iso.datetime({ offset: true, error: PHOTO_MSG.takenAtFormat }))
      .refine((v) => isPlausibleTakenAt(new Date(v)), PHOTO_MSG.takenAtImplausible),
  ),
  /** Where it was taken: latitude in degrees, with `lon`. */
  lat: coordinate(LAT_RANGE, PHOTO_MSG.latNumber),
  /** Longitude in degrees, with `lat`. */
  lon: coordinate(LON_RANGE, PHOTO_MSG.lonNumber),
};

/** Both coordinates or neither: half a position is no position. */
export function checkPositionPair(v: { lat?: number; lon?: number }, ctx: z.RefinementCtx): void {
  if ((v.lat === undefined) === (v.lon === undefined)) return;
  ctx.addIssue({ code: 'custom', message: PHOTO_MSG.positionPair, path: [v.lat === undefined ? 'lat' : 'lon'] });
}
