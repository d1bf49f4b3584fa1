import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { StoredZip, ZipReaderGone } from './stored-zip';

/** The whole stream's bytes. */
async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Writes the entries and reads the ZIP back with JSZip, checking every entry's CRC-32. */
async function roundTrip(zip: StoredZip, write: () => Promise<void>) {
  const [bytes] = await Promise.all([bytesOf(zip.stream), write().then(() => zip.finish())]);
  return { bytes, zip: await JSZip.loadAsync(bytes, { checkCRC32: true }) };
}

describe('StoredZip', () => {
  const photo = randomBytes(300_000);
  const pdf = [randomBytes(70_000), randomBytes(1), randomBytes(40_000)];
  const taken = new Date(2026, 10, 25, 14, 31, 10);

  it('writes buffers and a stream of unknown length, byte for byte, names in UTF-8, each entry stored with its time', async () => {
    const w = new StoredZip();
    const { bytes, zip } = await roundTrip(w, async () => {
      await w.addStream('WO-Ž1 evidence.pdf', Readable.from(pdf));
      await w.addBuffer('Łine 5_L-1_1.jpg', photo, taken);
      await w.addBuffer('index.csv', Buffer.from('\uFEFFfile\r\n'));
    });
    expect(Object.keys(zip.files)).toEqual(['WO-Ž1 evidence.pdf', 'Łine 5_L-1_1.jpg', 'index.csv']);
    expect(Buffer.compare(await zip.file('WO-Ž1 evidence.pdf')!.async('nodebuffer'), Buffer.concat(pdf))).toBe(0);
    expect(Buffer.compare(await zip.file('Łine 5_L-1_1.jpg')!.async('nodebuffer'), photo)).toBe(0);
    expect(await zip.file('index.csv')!.async('string')).toBe('\uFEFFfile\r\n');
    // The DOS time holds the Date's local fields; JSZip reads them back as UTC.
    expect(zip.file('Łine 5_L-1_1.jpg')!.date.toISOString()).toBe('2026-11-25T14:31:10.000Z');
    // Stored: the photo's bytes sit in the file as they are (a deflated entry would not contain them).
    expect(bytes.indexOf(photo)).toBeGreaterThan(0);
    expect(bytes.length).toBeLessThan(photo.length + 110_001 + 500);
    // No ZIP64 records in a small ZIP: the end of central directory is the plain one.
    expect(bytes.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(-1);
  });

  it('writes ZIP64 offsets and end records past the limit (lowered here), and readers follow them', async () => {
    const w = new StoredZip({ zip64From: 100_000 });
    const { bytes, zip } = await roundTrip(w, async () => {
      await w.addStream('a.pdf', Readable.from(pdf));
      await w.addBuffer('b.jpg', photo);
      await w.addBuffer('c.jpg', photo.subarray(0, 1000));
    });
    expect(bytes.indexOf(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBeGreaterThan(0);
    expect(Object.keys(zip.files)).toEqual(['a.pdf', 'b.jpg', 'c.jpg']);
    expect(Buffer.compare(await zip.file('b.jpg')!.async('nodebuffer'), photo)).toBe(0);
    expect(Buffer.compare(await zip.file('c.jpg')!.async('nodebuffer'), photo.subarray(0, 1000))).toBe(0);
  });

  it('a reader that goes away stops the writer (rejects, never hangs)', async () => {
    const w = new StoredZip({ highWaterMark: 1024 });
    w.stream.destroy();
    await expect(w.addBuffer('a.jpg', photo)).rejects.toBeInstanceOf(ZipReaderGone);
    const w2 = new StoredZip({ highWaterMark: 1024 });
    const writing = w2.addBuffer('a.jpg', photo).then(() => w2.addBuffer('b.jpg', photo));
    setTimeout(() => w2.stream.destroy(), 10);
    await expect(writing).rejects.toBeInstanceOf(ZipReaderGone);
  });
});
