import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * The zip of a .xlsx, read from its central directory. exceljs's streaming reader
 * walks the local headers front to back and loses entries (openpyxl puts the worksheets before
 * xl/workbook.xml), and on some damaged files it waits forever; so we read the directory
 * ourselves and hand exceljs's parsers the parts in the order they need them.
 *
 * Before anything is parsed, every entry of the central directory must have a matching local
 * header and inflate to data with the right CRC-32, and the unzipped total is capped
 * (a 1 MB file that unzips to 250 MB). Inflating runs on libuv's thread pool.
 */

const inflateRaw = promisify(zlib.inflateRaw);
const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Where the entry's (compressed) data starts in the file, and its length. */
  dataStart: number;
  compressedSize: number;
  size: number;
}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; reason: 'damaged' | 'too-large' };

/**
 * The checked entries of a zip, or why not: 'too-large' when the entries unzip to more than
 * `maxUnzipped` bytes (the sizes a directory declares are enforced while inflating, so a lying
 * one is 'damaged'), 'damaged' for anything that is not a whole, plain zip.
 */
export async function readZipDirectory(buf: Buffer, maxUnzipped: number): Promise<ZipDirectory> {
  const damaged = { ok: false, reason: 'damaged' } as const;
  try {
    const eocd = findEocd(buf);
    if (eocd < 0) return damaged;
    const count = buf.readUInt16LE(eocd + 10);
    const cdSize = buf.readUInt32LE(eocd + 12);
    let p = buf.readUInt32LE(eocd + 16);
    if (count === 0 || p + cdSize > eocd) return damaged;
    const headers: (ZipEntry & { crc: number })[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      if (buf.readUInt32LE(p) !== CEN) return damaged;
      const flags = buf.readUInt16LE(p + 8);
      const method = buf.readUInt16LE(p + 10);
      const crc = buf.readUInt32LE(p + 16);
      const csize = buf.readUInt32LE(p + 20);
      const usize = buf.readUInt32LE(p + 24);
      const nameLen = buf.readUInt16LE(p + 28);
      const extraLen = buf.readUInt16LE(p + 30);
      const commentLen = buf.readUInt16LE(p + 32);
      const local = buf.readUInt32LE(p + 42);
      const name = buf.subarray(p + 46, p + 46 + nameLen);
      p += 46 + nameLen + extraLen + commentLen;

      if (flags & 0x1) return damaged; // encrypted
      if (method !== 0 && method !== 8) return damaged;
      if (buf.readUInt32LE(local) !== LOC) return damaged;
      const lMethod = buf.readUInt16LE(local + 8);
      const lNameLen = buf.readUInt16LE(local + 26);
      const lExtraLen = buf.readUInt16LE(local + 28);
      if (lMethod !== method || !buf.subarray(local + 30, local + 30 + lNameLen).equals(name)) return damaged;
      // Without a data descriptor (bit 3) the local sizes must agree with the directory.
      if (!(flags & 0x8) && (buf.readUInt32LE(local + 18) !== csize || buf.readUInt32LE(local + 22) !== usize)) return damaged;
      const start = local + 30 + lNameLen + lExtraLen;
      if (start + csize > buf.length) return damaged;
      headers.push({ name: name.toString('utf8'), method, dataStart: start, compressedSize: csize, size: usize, crc });
      total += usize;
    }
    // Sizes first, before a single byte is inflated: a bomb is refused in microseconds.
    if (total > maxUnzipped) return { ok: false, reason: 'too-large' };
    for (const h of headers) {
      const data = buf.subarray(h.dataStart, h.dataStart + h.compressedSize);
      // maxOutputLength makes inflating more than the declared size an error, not a 250 MB buffer.
      const plain = h.method === 0 ? data : await inflateRaw(data, { maxOutputLength: Math.max(h.size, 1) });
      if (plain.length !== h.size || zlib.crc32(plain) !== h.crc) return damaged;
    }
    return { ok: true, entries: headers.map(({ crc: _crc, ...entry }) => entry) };
  } catch {
    return damaged;
  }
}

/**
 * One entry's text, inflated piece by piece (a worksheet is never held unzipped in one piece),
 * decoded so that a character split between two pieces stays whole.
 */
export async function* entryText(buf: Buffer, entry: ZipEntry): AsyncGenerator<string> {
  const data = buf.subarray(entry.dataStart, entry.dataStart + entry.compressedSize);
  const decoder = new StringDecoder('utf8');
  if (entry.method === 0) {
    for (let i = 0; i < data.length; i += 64 * 1024) yield decoder.write(data.subarray(i, i + 64 * 1024));
  } else {
    const inflater = Readable.from([data]).pipe(zlib.createInflateRaw());
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) yield decoder.write(chunk);
    } finally {
      inflater.destroy();
    }
  }
  const rest = decoder.end();
  if (rest) yield rest;
}

/** Offset of the end-of-central-directory record, or -1. */
function findEocd(buf: Buffer): number {
  const min = Math.max(0, buf.length - (0xffff + 22));
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
