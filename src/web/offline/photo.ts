import exifr from 'exifr';
import { grantedPosition } from '../components/geolocation';

/** docs/product/field-mode.md §8: photos leave the phone with their long side at most this many pixels. */
export const PHOTO_MAX_SIDE = 2048;
const JPEG_QUALITY = 0.85;

export interface PreparedPhoto {
  blob: Blob;
  fileName: string;
  /** From the camera's EXIF, read before resizing (the resized JPEG carries none); else the phone's at capture (captureOf). */
  takenAt: string | null;
  lat: number | null;
  lon: number | null;
}

/** Capture time and place from EXIF; a photo without them (a screenshot) gives nulls. */
export async function photoMetadata(file: Blob): Promise<Pick<PreparedPhoto, 'takenAt' | 'lat' | 'lon'>> {
  try {
    // Only the TIFF blocks (EXIF time, GPS): exifr then reads just the file's first kilobytes.
    // (Its `pick` option would drop the latitude / longitude it computes from the GPS tags.)
    const only = { tiff: true, exif: true, gps: true, ifd1: false, interop: false, xmp: false, icc: false, iptc: false, jfif: false };
    const tags = (await exifr.parse(file, only)) as
      | { DateTimeOriginal?: Date; CreateDate?: Date; latitude?: number; longitude?: number }
      | undefined;
    const when = tags?.DateTimeOriginal ?? tags?.CreateDate;
    const lat = tags?.latitude;
    const lon = tags?.longitude;
    const located = Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat!) <= 90 && Math.abs(lon!) <= 180;
    return {
      takenAt: when instanceof Date && !Number.isNaN(when.getTime()) ? when.toISOString() : null,
      lat: located ? lat! : null,
      lon: located ? lon! : null,
    };
  } catch {
    return { takenAt: null, lat: null, lon: null };
  }
}

/** A file older than this when it reaches the page was picked from the gallery, not just taken. */
export const JUST_TAKEN_MS = 10 * 60_000;

/**
 * When and where the photo was taken, field by field: EXIF first (the camera knew); else, for a
 * photo just taken (many Android pickers strip EXIF), the phone's clock and position at capture
 * (docs/product/field-mode.md §8 photos). A file much older than now was chosen from the gallery: the phone's time
 * and place now would be false evidence of where it was taken, so they are left unknown.
 */
export function captureOf(
  exif: Pick<PreparedPhoto, 'takenAt' | 'lat' | 'lon'>,
  file: { lastModified: number },
  now: number,
  here: { lat: number; lon: number } | null,
): Pick<PreparedPhoto, 'takenAt' | 'lat' | 'lon'> {
  const justTaken = !file.lastModified || Math.abs(now - file.lastModified) <= JUST_TAKEN_MS;
  const located = exif.lat != null && exif.lon != null;
  return {
    takenAt: exif.takenAt ?? (justTaken ? new Date(now).toISOString() : null),
    lat: located ? exif.lat : justTaken && here ? here.lat : null,
    lon: located ? exif.lon : justTaken && here ? here.lon : null,
  };
}

/** The size that fits `max` on the long side, never enlarged. */
export function fitWithin(width: number, height: number, max = PHOTO_MAX_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/**
 * A phone photo ready to queue: EXIF read first, then drawn upright (EXIF orientation applied by
 * createImageBitmap) at most 2048 px on the long side and encoded as JPEG — a 12-megapixel
 * photo goes from ~4 MB to a few hundred KB, which is what a crew's signal can carry. A file the
 * browser cannot decode is queued as it is: the server then refuses it with a message, visibly.
 * Without an EXIF position, the phone's is asked for meanwhile (captureOf).
 */
export async function preparePhoto(file: File): Promise<PreparedPhoto> {
  const arrived = Date.now();
  const exif = await photoMetadata(file);
  const here = exif.lat == null ? grantedPosition() : Promise.resolve(null);
  const meta = async () => captureOf(exif, file, arrived, await here);
  const baseName = file.name.replace(/\.[^.]+$/, '') || 'photo';
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const { width, height } = fitWithin(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', JPEG_QUALITY));
    if (!blob) throw new Error('encode failed');
    return { blob, fileName: `${baseName}.jpg`, ...(await meta()) };
  } catch {
    return { blob: file, fileName: file.name, ...(await meta()) };
  }
}
