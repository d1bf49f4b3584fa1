import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readPhotoCapture } from './photo-exif';

/** A small JPEG whose EXIF carries exactly these tags (sharp writes IFD0, Exif = IFD2, GPS = IFD3). */
function jpegWith(exif: { IFD2?: Record<string, string>; IFD3?: Record<string, string> }) {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: '#5080a0' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Linecrew test' }, ...exif })
    .toBuffer();
}

const boston = { GPSLatitudeRef: 'N', GPSLatitude: '42/1 21/1 3000/100', GPSLongitudeRef: 'W', GPSLongitude: '71/1 3/1 3650/100' };
const newYork = async () => 'America/New_York';
const noZone = async (): Promise<string> => {
  throw new Error('the zone is not needed when the file tells it');
};

describe('readPhotoCapture', () => {
  it('reads the position (signed degrees, cut to 6 decimals) and the time with its EXIF offset', async () => {
    const file = await jpegWith({ IFD2: { DateTimeOriginal: '2025:05:06 07:08:09', OffsetTimeOriginal: '-04:00' }, IFD3: boston });
    expect(await readPhotoCapture(file, noZone)).toEqual({ takenAt: new Date('2025-05-06T11:08:09Z'), lat: 42.358333, lon: -71.060138 });
  });

  it('without an offset, takes the GPS fix time (UTC)', async () => {
    const file = await jpegWith({
      IFD2: { DateTimeOriginal: '2025:05:06 07:08:09' },
      IFD3: { ...boston, GPSDateStamp: '2025:05:06', GPSTimeStamp: '11/1 8/1 10/1' },
    });
    expect((await readPhotoCapture(file, noZone)).takenAt).toEqual(new Date('2025-05-06T11:08:10Z'));
  });

  it('with neither, reads the camera clock in the given zone, daylight saving included', async () => {
    const summer = await jpegWith({ IFD2: { DateTimeOriginal: '2025:07:01 12:00:00' } });
    const winter = await jpegWith({ IFD2: { DateTimeOriginal: '2025:01:15 12:00:00' } });
    expect(await readPhotoCapture(summer, newYork)).toEqual({ takenAt: new Date('2025-07-01T16:00:00Z'), lat: null, lon: null });
    expect((await readPhotoCapture(winter, newYork)).takenAt).toEqual(new Date('2025-01-15T17:00:00Z'));
    // The hour after the spring-forward gap, and an unknown zone (counted as UTC).
    const afterGap = await jpegWith({ IFD2: { DateTimeOriginal: '2025:03:09 03:30:00' } });
    expect((await readPhotoCapture(afterGap, newYork)).takenAt).toEqual(new Date('2025-03-09T07:30:00Z'));
    expect((await readPhotoCapture(winter, async () => 'Not/AZone')).takenAt).toEqual(new Date('2025-01-15T12:00:00Z'));
  });

  it('gives nulls for no EXIF, broken EXIF, bytes that are not an image and absurd values', async () => {
    const nothing = { takenAt: null, lat: null, lon: null };
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer();
    expect(await readPhotoCapture(plain, newYork)).toEqual(nothing);
    expect(await readPhotoCapture(Buffer.from('%PDF-1.4 not a photo'), newYork)).toEqual(nothing);
    expect(await readPhotoCapture(Buffer.alloc(0), newYork)).toEqual(nothing);
    const withExif = await jpegWith({ IFD2: { DateTimeOriginal: '2025:05:06 07:08:09', OffsetTimeOriginal: '+00:00' }, IFD3: boston });
    expect(await readPhotoCapture(withExif.subarray(0, 60), newYork)).toEqual(nothing);
    // An unset camera clock, a date that does not exist, one far in the future.
    for (const when of ['0000:00:00 00:00:00', '2025:02:30 10:00:00', '2199:01:01 00:00:00', '1970:01:01 00:00:00']) {
      const file = await jpegWith({ IFD2: { DateTimeOriginal: when, OffsetTimeOriginal: '+00:00' } });
      expect((await readPhotoCapture(file, newYork)).takenAt, when).toBeNull();
    }
    // Half a position is none.
    const latOnly = await jpegWith({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '42/1 0/1 0/1' } });
    expect(await readPhotoCapture(latOnly, newYork)).toEqual(nothing);
  });

  it('reads PNG EXIF too', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .withExif({ IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 36/1' } })
      .toBuffer();
    expect(await readPhotoCapture(png, newYork)).toMatchObject({ lat: -33.866666, lon: 151.21 });
  });
});
