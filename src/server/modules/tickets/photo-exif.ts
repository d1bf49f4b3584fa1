import exifr from 'exifr';
import { LAT_RANGE, LON_RANGE, truncateGeo } from '../../../shared/geo';
import { isPlausibleTakenAt } from '../../../shared/photo-capture';

/** When and where a photo was taken; null for what the file does not say (or says absurdly). */
export interface PhotoCapture {
  takenAt: Date | null;
  lat: number | null;
  lon: number | null;
}

const NOTHING: PhotoCapture = { takenAt: null, lat: null, lon: null };

/** The EXIF tags we use, so exifr decodes nothing else. */
const TAGS = [
  'DateTimeOriginal',
  'OffsetTimeOriginal',
  'GPSLatitude',
  'GPSLatitudeRef',
  'GPSLongitude',
  'GPSLongitudeRef',
  'GPSDateStamp',
  'GPSTimeStamp',
];

interface RawExif {
  DateTimeOriginal?: unknown;
  OffsetTimeOriginal?: unknown;
  GPSDateStamp?: unknown;
  GPSTimeStamp?: unknown;
  /** Signed decimal degrees, computed by exifr from GPSLatitude + GPSLatitudeRef. */
  latitude?: unknown;
  longitude?: unknown;
}

/**
 * The capture time and position in a photo's EXIF (docs/product/field-mode.md §8 photos). A file without EXIF,
 * with broken EXIF or with values out of range gives nulls: never an error, the photo is kept.
 *
 * Time: EXIF's DateTimeOriginal is the camera's wall clock, without a zone unless the camera
 * wrote OffsetTimeOriginal (newer phones do). Then the GPS fix time (GPSDateStamp +
 * GPSTimeStamp, always UTC). Only when neither tells the zone is the wall clock read in
 * `timeZone()` (the company's zone: the crew photographs poles where the company works), asked
 * for lazily because most phone photos never need it.
 *
 * exifr reads the few EXIF segments it needs from the bytes, not the image data.
 */
export async function readPhotoCapture(bytes: Buffer, timeZone: () => Promise<string>): Promise<PhotoCapture> {
  let raw: RawExif | undefined;
  try {
    // reviveValues: false keeps dates as text: exifr would read them in the server's zone.
    raw = (await exifr.parse(bytes, { pick: TAGS, reviveValues: false })) as RawExif | undefined;
  } catch {
    return NOTHING; // not a format exifr knows, or nothing it can read
  }
  if (!raw) return NOTHING;

  const lat = coordinate(raw.latitude, LAT_RANGE);
  const lon = coordinate(raw.longitude, LON_RANGE);
  const position = lat !== null && lon !== null ? { lat, lon } : { lat: null, lon: null };

  const wall = parseExifDateTime(raw.DateTimeOriginal);
  const offset = parseOffset(raw.OffsetTimeOriginal);
  let takenAt: Date | null = null;
  if (wall && offset !== null) takenAt = new Date(wall - offset);
  else takenAt = gpsInstant(raw.GPSDateStamp, raw.GPSTimeStamp);
  if (!takenAt && wall) takenAt = new Date(wall - zoneOffsetMs(wall, await timeZone()));
  if (takenAt && !isPlausibleTakenAt(takenAt)) takenAt = null;
  return { takenAt, ...position };
}

function coordinate(v: unknown, range: { min: number; max: number }): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < range.min || v > range.max) return null;
  return truncateGeo(v);
}

/** 'YYYY:MM:DD HH:MM:SS' (EXIF's format) as milliseconds of that wall clock read as UTC; null when not a real time. */
export function parseExifDateTime(v: unknown): number | null {
  const m = typeof v === 'string' ? /^(\d{4})[:-](\d{2})[:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(v.trim()) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
  return utcIfReal(y, mo, d, h, mi, s);
}

/** A wall clock of real calendar values (no 2024:02:30, no 25:00, no 0000:00:00 of an unset camera). */
function utcIfReal(y: number, mo: number, d: number, h: number, mi: number, s: number): number | null {
  const t = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(t);
  const real = back.getUTCFullYear() === y && back.getUTCMonth() === mo - 1 && back.getUTCDate() === d && back.getUTCHours() === h && back.getUTCMinutes() === mi && back.getUTCSeconds() === s;
  return real ? t : null;
}

/** EXIF's '+hh:mm' / '-hh:mm' as milliseconds ahead of UTC; null when absent or malformed. */
function parseOffset(v: unknown): number | null {
  const m = typeof v === 'string' ? /^([+-])(\d{2}):(\d{2})$/.exec(v.trim()) : null;
  if (!m || Number(m[2]) > 14 || Number(m[3]) > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

/** GPSDateStamp 'YYYY:MM:DD' + GPSTimeStamp [h, m, s] (UTC) as an instant. */
function gpsInstant(date: unknown, time: unknown): Date | null {
  const m = typeof date === 'string' ? /^(\d{4}):(\d{2}):(\d{2})$/.exec(date.trim()) : null;
  if (!m || !Array.isArray(time) || time.length !== 3 || !time.every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  const [h, mi, s] = time as number[];
  const t = utcIfReal(Number(m[1]), Number(m[2]), Number(m[3]), Math.trunc(h), Math.trunc(mi), Math.trunc(s));
  return t === null ? null : new Date(t);
}

/**
 * How far `timeZone` is ahead of UTC at the wall clock `wall` (ms of that wall clock read as
 * UTC). Asked twice so that a time beside a daylight-saving change lands on the right side.
 * An unknown zone counts as UTC.
 */
function zoneOffsetMs(wall: number, timeZone: string): number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
  } catch {
    return 0;
  }
  const offsetAt = (instant: number) => {
    const p = Object.fromEntries(format.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - instant;
  };
  const first = offsetAt(wall);
  return offsetAt(wall - first);
}
