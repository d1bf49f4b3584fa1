import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Checks that a .xlsx (a zip) is whole before exceljs's streaming reader sees it: that reader
 * walks local headers front to back and, on some damaged files, waits forever instead of
 * failing. Here every entry of the central directory must have a matching local header and
 * inflate to data with the right CRC-32, and the total size is capped (zip bombs). Inflating
 * runs on libuv's thread pool, so the event loop stays free.
 */

const inflateRaw = promisify(zlib.inflateRaw);
const EOCD = 0x06054b50;
const CEN = 0x02014b50;
const LOC = 0x04034b50;

export const MAX_UNZIPPED_BYTES = 256 * 1024 * 1024;

export async function isWholeZip(buf: Buffer, maxUnzipped = MAX_UNZIPPED_BYTES): Promise<boolean> {
  try {
    const eocd = findEocd(buf);
    if (eocd < 0) return false;
    const count = buf.readUInt16LE(eocd + 10);
    const cdSize = buf.readUInt32LE(eocd + 12);
    let p = buf.readUInt32LE(eocd + 16);
    if (count === 0 || p + cdSize > eocd) return false;
    let total = 0;
    for (let i = 0; i < count; i++) {
      if (buf.readUInt32LE(p) !== CEN) return false;
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

      if (flags & 0x1) return false; // encrypted
      total += usize;
      if (total > maxUnzipped) return false;
      if (buf.readUInt32LE(local) !== LOC) return false;
      const lMethod = buf.readUInt16LE(local + 8);
      const lNameLen = buf.readUInt16LE(local + 26);
      const lExtraLen = buf.readUInt16LE(local + 28);
      if (lMethod !== method || !buf.subarray(local + 30, local + 30 + lNameLen).equals(name)) return false;
      // Without a data descriptor (bit 3) the local sizes must agree with the directory.
      if (!(flags & 0x8) && (buf.readUInt32LE(local + 18) !== csize || buf.readUInt32LE(local + 22) !== usize)) return false;
      const start = local + 30 + lNameLen + lExtraLen;
      if (start + csize > buf.length) return false;
      const data = buf.subarray(start, start + csize);
      let plain: Buffer;
      if (method === 0) plain = data;
      else if (method === 8) plain = await inflateRaw(data, { maxOutputLength: Math.max(usize, 1) });
      else return false;
      if (plain.length !== usize || zlib.crc32(plain) !== crc) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Offset of the end-of-central-directory record, or -1. */
function findEocd(buf: Buffer): number {
  const min = Math.max(0, buf.length - (0xffff + 22));
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
