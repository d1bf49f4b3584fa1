import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { PHOTO_MSG } from '../../../shared/photo-capture';
import { imageCompleteReply, ticketSchema, type TicketImage } from '../../../shared/tickets.schemas';
import { images } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';
import { multipart } from '../../test/files';

/**
 * docs/product/field-mode.md §8 photos: an image records when and where it was taken, from the optional
 * takenAt / lat / lon of the image-complete call, else from the stored file's EXIF; unknown is
 * null, and bad values are refused with a message that names the field.
 */
const t = await createTestApp();
let admin: string, lineman: string, other: string;
let company: number, ngrid: number, j1: number;
let plainJpeg: Buffer;
let gpsJpeg: Buffer;

/** Boston, 6 May 2025 07:08:09 at UTC-4, as a phone writes it. */
const EXIF_TAKEN_AT = '2025-05-06T11:08:09.000Z';
const EXIF_LAT = 42.358333;
const EXIF_LON = -71.060138;

beforeAll(async () => {
  [admin, lineman, other] = await t.loginAs('admin', 'lineman', 'other');
  const demo = await t.demo();
  ({ company, ngrid } = demo);
  j1 = demo.job['J-1001'];
  const base = () => sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 140, b: 60 } } }).jpeg();
  plainJpeg = await base().toBuffer();
  gpsJpeg = await base()
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Camera' },
      IFD2: { DateTimeOriginal: '2025:05:06 07:08:09', OffsetTimeOriginal: '-04:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '42/1 21/1 3000/100', GPSLongitudeRef: 'W', GPSLongitude: '71/1 3/1 3650/100' },
    })
    .toBuffer();
});

let poleSeq = 0;
async function newTicket(): Promise<number> {
  const res = await t.request({ method: 'POST', url: '/api/v1/poles/', token: admin, body: { pole_name: `GEO-${++poleSeq}`, line_name: 'GEO', utility: ngrid, job_id: j1 } });
  expect(res.statusCode).toBe(200);
  return res.json().ticket.id;
}

async function complete(ticketId: number, body: Buffer, fields: Record<string, string> = {}, token = lineman) {
  const file = await t.storeFile(company, 'media', `geo-${ticketId}-${Object.keys(fields).join('')}.jpg`, { body });
  return t.request({
    method: 'POST',
    url: '/api/v1/media_upload/s3-upload-complete',
    token,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ ticketId: String(ticketId), url: file.url, thumbUrl: '', isVideo: 'false', ...fields }).toString(),
  });
}

/** The image as the reply gives it, checked against the shared schema and against GET /tickets/{id}. */
async function imageOf(res: Awaited<ReturnType<typeof complete>>, ticketId: number): Promise<TicketImage> {
  expect(res.statusCode, res.body).toBe(200);
  const { image } = imageCompleteReply.strict().parse(res.json());
  const ticket = ticketSchema.parse((await t.request({ method: 'GET', url: `/api/v1/tickets/${ticketId}`, token: admin })).json());
  expect(ticket.images.find((i) => i.id === image.id)).toEqual(image);
  return image;
}

const capture = (i: TicketImage) => ({ taken_at: i.taken_at, geo_lat: i.geo_lat, geo_lon: i.geo_lon });

describe('POST /media_upload/s3-upload-complete: capture time and place', () => {
  it('requires authentication', async () => {
    const ticketId = await newTicket();
    expect((await complete(ticketId, plainJpeg, { takenAt: '2025-05-06T11:08:09Z', lat: '1', lon: '2' }, '')).statusCode).toBe(401);
  });

  it('stores the takenAt, lat and lon it was sent (coordinates cut to 6 decimals), over the file’s EXIF', async () => {
    const ticketId = await newTicket();
    const image = await imageOf(await complete(ticketId, gpsJpeg, { takenAt: '2025-06-01T09:30:00+02:00', lat: '40.71234569', lon: '-74.0060009' }), ticketId);
    expect(capture(image)).toEqual({ taken_at: '2025-06-01T07:30:00.000Z', geo_lat: 40.712345, geo_lon: -74.006 });
    const [row] = await t.ctx.db.select().from(images).where(eq(images.id, image.id));
    expect(row).toMatchObject({ takenAt: new Date('2025-06-01T07:30:00Z'), geoLat: 40.712345, geoLon: -74.006 });
  });

  it('without them, reads the capture time and GPS position from the JPEG’s EXIF', async () => {
    const ticketId = await newTicket();
    const image = await imageOf(await complete(ticketId, gpsJpeg), ticketId);
    expect(capture(image)).toEqual({ taken_at: EXIF_TAKEN_AT, geo_lat: EXIF_LAT, geo_lon: EXIF_LON });
  });

  it('takes what was sent and reads the rest from EXIF: time and position are separate', async () => {
    const timeOnly = await newTicket();
    expect(capture(await imageOf(await complete(timeOnly, gpsJpeg, { takenAt: '2025-06-01T07:30:00Z' }), timeOnly))).toEqual({
      taken_at: '2025-06-01T07:30:00.000Z',
      geo_lat: EXIF_LAT,
      geo_lon: EXIF_LON,
    });
    const placeOnly = await newTicket();
    expect(capture(await imageOf(await complete(placeOnly, gpsJpeg, { lat: '0', lon: '0' }), placeOnly))).toEqual({ taken_at: EXIF_TAKEN_AT, geo_lat: 0, geo_lon: 0 });
  });

  it('a JPEG without EXIF, or with broken EXIF, gives nulls and the photo is kept', async () => {
    const ticketId = await newTicket();
    expect(capture(await imageOf(await complete(ticketId, plainJpeg), ticketId))).toEqual({ taken_at: null, geo_lat: null, geo_lon: null });
    // An APP1 "Exif" segment whose TIFF header points past its end.
    const junk = Buffer.concat([Buffer.from('Exif\0\0II*\0', 'binary'), Buffer.from([0xff, 0xff, 0xff, 0x7f]), Buffer.alloc(20, 0xab)]);
    const app1 = Buffer.concat([Buffer.from([0xff, 0xe1, 0, junk.length + 2]), junk]);
    const broken = Buffer.concat([plainJpeg.subarray(0, 2), app1, plainJpeg.subarray(2)]);
    const second = await newTicket();
    expect(capture(await imageOf(await complete(second, broken), second))).toEqual({ taken_at: null, geo_lat: null, geo_lon: null });
  });

  it('empty form fields count as absent', async () => {
    const ticketId = await newTicket();
    const image = await imageOf(await complete(ticketId, gpsJpeg, { takenAt: '', lat: '', lon: '' }), ticketId);
    expect(capture(image)).toEqual({ taken_at: EXIF_TAKEN_AT, geo_lat: EXIF_LAT, geo_lon: EXIF_LON });
  });

  it('accepts the fields in a multipart form too', async () => {
    const ticketId = await newTicket();
    const file = await t.storeFile(company, 'media', 'multi.jpg', { body: plainJpeg });
    const body = multipart({ ticketId: String(ticketId), url: file.url, takenAt: '2025-06-02T10:00:00Z', lat: '-33.8688', lon: '151.2093' });
    const res = await t.request({ method: 'POST', url: '/api/v1/media_upload/s3-upload-complete', token: lineman, headers: body.headers, payload: body.payload });
    expect(capture(await imageOf(res, ticketId))).toEqual({ taken_at: '2025-06-02T10:00:00.000Z', geo_lat: -33.8688, geo_lon: 151.2093 });
  });

  it('refuses bad values with 400 naming the field, and records nothing', async () => {
    const ticketId = await newTicket();
    const cases: [Record<string, string>, string, string][] = [
      [{ lat: '42.1' }, 'lon', PHOTO_MSG.positionPair],
      [{ lon: '-71' }, 'lat', PHOTO_MSG.positionPair],
      [{ lat: '90.5', lon: '0' }, 'lat', PHOTO_MSG.latNumber],
      [{ lat: '0', lon: '-180.1' }, 'lon', PHOTO_MSG.lonNumber],
      [{ lat: 'north', lon: '0' }, 'lat', PHOTO_MSG.latNumber],
      [{ takenAt: 'yesterday' }, 'takenAt', PHOTO_MSG.takenAtFormat],
      [{ takenAt: '2025-02-30T10:00:00Z' }, 'takenAt', PHOTO_MSG.takenAtFormat],
      [{ takenAt: '2025-06-01T10:00:00' }, 'takenAt', PHOTO_MSG.takenAtFormat],
      [{ takenAt: new Date(Date.now() + 3 * 86_400_000).toISOString() }, 'takenAt', PHOTO_MSG.takenAtImplausible],
      [{ takenAt: '1970-01-01T00:00:00Z' }, 'takenAt', PHOTO_MSG.takenAtImplausible],
    ];
    for (const [fields, field, message] of cases) {
      const res = await complete(ticketId, plainJpeg, fields);
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(res.json().fields?.[field], JSON.stringify(fields)).toBe(message);
      expect(res.json().error).toContain(message);
    }
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toEqual([]);
    // A phone clock a few hours fast is not refused.
    const fast = new Date(Date.now() + 3 * 3_600_000).toISOString();
    expect((await complete(ticketId, plainJpeg, { takenAt: fast })).statusCode).toBe(200);
  });

  it('tenancy is unchanged: another company’s ticket or file is refused however good the fields', async () => {
    const ticketId = await newTicket();
    const fields = { takenAt: '2025-06-01T07:30:00Z', lat: '42', lon: '-71' };
    expect((await complete(ticketId, gpsJpeg, fields, other)).statusCode).toBe(404);
    const foreign = await t.storeFile(company + 1, 'media', 'foreign.jpg', { body: gpsJpeg });
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/media_upload/s3-upload-complete',
      token: lineman,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ ticketId: String(ticketId), url: foreign.url, ...fields }).toString(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.imageNotOurs);
    expect(await t.ctx.db.select().from(images).where(eq(images.ticketId, ticketId))).toEqual([]);
  });
});
