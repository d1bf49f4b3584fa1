import sharp from 'sharp';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import type { ImageComplete, TicketImage } from '../../../shared/tickets.schemas';
import type { AppContext } from '../../context';
import type { images } from '../../db/schema/index';
import { isoInstant } from '../../db/sql';
import { badRequest, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { parseStorageKey, siblingStorageKey, storageKeyOwnedBy, wrongFileKind } from '../../storage/keys';
import { deleteUnreferencedFiles, holdFileUrls } from '../../storage/stored-files';
import { companyTimeZone } from '../auth/auth.service';
import { readPhotoCapture, type PhotoCapture } from './photo-exif';
import * as repo from './tickets.repository';
import { recordPhotoChange } from './ticket-history.service';

/** Longest side of a stored thumbnail (docs/product/rules.md §2.7 Images). */
const THUMBNAIL_MAX_PX = 400;
/** Formats the thumbnailer accepts: the IMAGE_TYPES of src/shared/uploads.ts, as sharp names them. */
const IMAGE_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'heif']);
/** Refuse decompression bombs: 100 megapixels is far beyond any phone photo. */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * A JPEG thumbnail of at most THUMBNAIL_MAX_PX on its long side, turned upright by the photo's
 * EXIF orientation; null when the bytes are not an image we accept.
 */
async function makeThumbnail(original: Buffer): Promise<Buffer | null> {
  try {
    const meta = await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    if (!meta.format || !IMAGE_FORMATS.has(meta.format)) return null;
    return await sharp(original, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize(THUMBNAIL_MAX_PX, THUMBNAIL_MAX_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 80, mozjpeg: true })
      .toBuffer();
  } catch {
    return null;
  }
}

function toImage(row: typeof images.$inferSelect, pl: { pole_name: string | null; line_name: string | null }): TicketImage {
  return {
    id: row.id,
    url: row.url,
    thumbnailurl: row.thumbnailUrl,
    ...pl,
    uploaded_at: isoInstant(row.uploadedAt) ?? '',
    taken_at: isoInstant(row.takenAt),
    geo_lat: row.geoLat,
    geo_lon: row.geoLon,
    distance_m: row.distanceM,
    flags: row.flags as TicketImage['flags'],
  };
}

/**
 * When and where the photo was taken: what the client sent (it read the EXIF before resizing),
 * else what the stored file's EXIF says, field by field (time and position are separate: a
 * photo may have a time and no GPS fix).
 */
async function captureOf(ctx: AppContext, companyId: number, input: ImageComplete, original: Buffer): Promise<PhotoCapture> {
  const sent: PhotoCapture = { takenAt: input.takenAt ? new Date(input.takenAt) : null, lat: input.lat ?? null, lon: input.lon ?? null };
  if (sent.takenAt && sent.lat !== null) return sent;
  const exif = await readPhotoCapture(original, () => companyTimeZone(ctx.db, companyId));
  return {
    takenAt: sent.takenAt ?? exif.takenAt,
    ...(sent.lat !== null ? { lat: sent.lat, lon: sent.lon } : { lat: exif.lat, lon: exif.lon }),
  };
}

/**
 * POST /media_upload/s3-upload-complete (docs/product/api.md §6 Uploads): the photo the caller PUT to `url`
 * becomes an image of the ticket. The url must be this company's media upload and exist; the
 * server makes the thumbnail itself (the client's thumbUrl is not trusted) and keeps it beside
 * the original. At most 10 images per ticket, counted under a lock of the ticket row, so parallel
 * uploads cannot pass the limit together. The image records when and where the photo was taken
 * (`captureOf`, docs/product/field-mode.md §8 photos).
 */
export async function completeImageUpload(
  ctx: AppContext,
  user: CurrentUser,
  input: ImageComplete,
  log?: (err: unknown) => void,
): Promise<{ id: number; image: TicketImage }> {
  if (input.isVideo === true || input.isVideo === 'true') throw badRequest(MSG.imageVideo);
  const { db, storage } = ctx;
  const ticket = await repo.findTicketRow(db, user.companyId, input.ticketId);
  if (!ticket) throw notFound('ticket');
  const key = storageKeyOwnedBy(storage, user.companyId, input.url, ['media']);
  if (!key) throw badRequest(MSG.imageNotOurs);
  const url = storage.urlFor(key);

  // The same upload reported twice (a retried request) is the same image.
  const already = await repo.findImageByUrl(db, user.companyId, ticket.id, url);
  if (already) return { id: already.id, image: toImage(already, await repo.poleLineOfTicket(db, ticket.id)) };
  // Fail fast before the thumbnail work; the count that matters is the one under the lock below.
  if ((await repo.countImages(db, ticket.id)) >= LIMITS.imagesPerTicket) {
    await deleteUnreferencedFiles(ctx, user.companyId, [url], log);
    throw badRequest(MSG.tooManyImages, undefined, ERROR_CODE.ticketPhotosFull);
  }

  let original: Buffer;
  try {
    original = await storage.get(key);
  } catch {
    throw badRequest(MSG.imageNotUploaded);
  }
  // Not an image at all (a PDF, a web page): 415 naming what a photo may be (docs/product/sessions-and-safety.md).
  const wrongKind = wrongFileKind(original, 'media', 'photo');
  if (wrongKind) {
    await deleteUnreferencedFiles(ctx, user.companyId, [url], log);
    throw wrongKind;
  }
  const thumb = await makeThumbnail(original);
  if (!thumb) {
    await deleteUnreferencedFiles(ctx, user.companyId, [url], log);
    throw badRequest(MSG.imageNotAnImage);
  }
  const capture = await captureOf(ctx, user.companyId, input, original);
  const name = parseStorageKey(key)!.name.replace(/\.[A-Za-z0-9]+$/, '');
  const thumbKey = siblingStorageKey(key, 'thumbnail', `${name}.jpg`);
  await storage.put(thumbKey, thumb, 'image/jpeg');
  const thumbnailUrl = storage.urlFor(thumbKey);

  try {
    const row = await db.transaction(async (tx) => {
      const locked = await repo.lockTicket(tx, user.companyId, ticket.id);
      if (!locked) throw notFound('ticket');
      if ((await repo.countImages(tx, ticket.id)) >= LIMITS.imagesPerTicket) throw badRequest(MSG.tooManyImages, undefined, ERROR_CODE.ticketPhotosFull);
      // The same photo may already be on another ticket, whose image could be deleted right
      // now: under the file lock, the original must still be there (else its thumbnail we
      // just wrote went with it).
      await holdFileUrls(tx, storage, [url, thumbnailUrl]);
      if (!(await storage.head(key))) throw badRequest(MSG.imageNotUploaded);
      const image = await repo.insertImage(tx, {
        companyId: user.companyId,
        ticketId: ticket.id,
        url,
        thumbnailUrl,
        uploadedBy: user.id,
        takenAt: capture.takenAt,
        geoLat: capture.lat,
        geoLon: capture.lon,
      });
      await recordPhotoChange(tx, user, { id: locked.id, job_id: locked.jobId }, { added: image });
      // Read again: the photo's checks (distance_m, flags) are written by the insert's trigger (decision 047).
      return (await repo.findImage(tx, user.companyId, image.id)) ?? image;
    });
    return { id: row.id, image: toImage(row, await repo.poleLineOfTicket(db, ticket.id)) };
  } catch (err) {
    // Refused (limit reached, ticket deleted meanwhile): the files, unless another image shows them.
    await deleteUnreferencedFiles(ctx, user.companyId, [url, thumbnailUrl], log);
    throw err;
  }
}

/** DELETE /tickets/images/{id}: the image row, then its original and thumbnail unless another image shows them. */
export async function deleteImage(ctx: AppContext, user: CurrentUser, id: number, log?: (err: unknown) => void) {
  const image = await ctx.db.transaction(async (tx) => {
    const row = await repo.findImage(tx, user.companyId, id);
    if (!row) throw notFound('image');
    const ticket = await repo.findTicketRow(tx, user.companyId, row.ticketId);
    await repo.deleteImageRow(tx, user.companyId, id);
    if (ticket) await recordPhotoChange(tx, user, { id: ticket.id, job_id: ticket.jobId }, { removed: row });
    return row;
  });
  await deleteUnreferencedFiles(ctx, user.companyId, [image.url, image.thumbnailUrl], log);
  return { success: true as const, id };
}
