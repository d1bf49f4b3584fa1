import { PassThrough, type Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/**
 * A streaming ZIP writer for files that are already compressed (photos, PDFs): every entry is
 * STORED, never deflated. Why not archiver (decision 055): archiver checksums each entry in
 * JavaScript (buffer-crc32 / crc-32, ~6× slower than zlib's native crc32 on this machine) and
 * pushes every byte through two more streams; for the evidence ZIP's 2–5 GB of photos that was
 * most of its 546 s. Here a photo read whole from storage is checksummed once natively
 * (zlib.crc32, Node ≥ 20.15) and written as header + bytes in two writes; an entry of unknown
 * length (the evidence PDF, streamed as it is drawn) is checksummed chunk by chunk and closed by
 * a data descriptor.
 *
 * ZIP64 (APPNOTE 4.5.3) is written only where needed: the central directory's offsets, its own
 * size and offset, and the entry count past their 32/16-bit fields — so a 5 GB pack opens
 * everywhere and a small one stays a plain ZIP. One entry must stay below 4 GiB (a photo is
 * ≤ 20 MB; the evidence PDF of 1,000 tickets is ~100 MB).
 */

const U32 = 0xffffffff;
const U16 = 0xffff;
/** General purpose flags: bit 3 (sizes in a data descriptor after the data), bit 11 (UTF-8 names). */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
/** "Made by" Unix (3) so the mode below is read; spec version 4.5 (ZIP64). */
const MADE_BY = (3 << 8) | 45;
/** A regular file, rw-r--r--. */
const EXTERNAL_ATTRS = (0o100644 << 16) >>> 0;

interface CentralEntry {
  name: Buffer;
  flags: number;
  time: number;
  date: number;
  crc: number;
  size: number;
  offset: number;
}

/** MS-DOS date and time (2-second steps, 1980–2107), from the Date's local fields. */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(Math.max(d.getFullYear(), 1980), 2107);
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** The stream was closed by its reader (the download stopped): the writer stops too. */
export class ZipReaderGone extends Error {
  constructor() {
    super('the ZIP stream was closed before it was finished');
  }
}

export interface StoredZipOptions {
  /** Bytes buffered ahead of the reader before a write waits (default 1 MiB). */
  highWaterMark?: number;
  /**
   * Offsets and sizes from this value up are written as ZIP64 (default 0xFFFFFFFF, the format's
   * limit). Lower only in tests, to read a ZIP64 directory back without writing 4 GiB.
   */
  zip64From?: number;
}

export class StoredZip {
  /** The ZIP's bytes: give this to the reply. Destroying it stops the writer at its next write. */
  readonly stream: Readable;
  private readonly out: PassThrough;
  private readonly zip64From: number;
  private readonly entries: CentralEntry[] = [];
  private offset = 0;
  private finished = false;

  constructor(opts: StoredZipOptions = {}) {
    this.out = new PassThrough({ highWaterMark: opts.highWaterMark ?? 1024 * 1024 });
    this.stream = this.out;
    this.zip64From = opts.zip64From ?? U32;
  }

  /** Adds a file whose bytes are all at hand: checksummed first, so no data descriptor is needed. */
  async addBuffer(name: string, bytes: Buffer, date: Date = new Date()): Promise<void> {
    this.checkSize(bytes.length, name);
    const entry = this.entry(name, 0, date);
    entry.crc = crc32(bytes);
    entry.size = bytes.length;
    await this.write(this.localHeader(entry));
    await this.write(bytes);
  }

  /**
   * Adds a file read from `source` as it comes (the evidence PDF while it is drawn): its checksum
   * and size follow its bytes in a data descriptor. Reading waits while the ZIP's reader is behind.
   */
  async addStream(name: string, source: AsyncIterable<Buffer | string>, date: Date = new Date()): Promise<void> {
    const entry = this.entry(name, FLAG_DESCRIPTOR, date);
    await this.write(this.localHeader(entry));
    let crc = 0;
    let size = 0;
    for await (const chunk of source) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      crc = crc32(bytes, crc);
      size += bytes.length;
      this.checkSize(size, name);
      await this.write(bytes);
    }
    entry.crc = crc;
    entry.size = size;
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc, 4);
    descriptor.writeUInt32LE(size, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.write(descriptor);
  }

  /** Writes the central directory and ends the stream. */
  async finish(): Promise<void> {
    if (this.finished) throw new Error('the ZIP is already finished');
    this.finished = true;
    const start = this.offset;
    for (const e of this.entries) await this.write(this.centralHeader(e));
    const size = this.offset - start;
    const count = this.entries.length;
    const zip64 = count >= U16 || start >= this.zip64From || size >= this.zip64From;
    if (zip64) {
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // the size of the rest of this record
      record.writeUInt16LE(MADE_BY, 12);
      record.writeUInt16LE(45, 14);
      record.writeUInt32LE(0, 16); // this disk
      record.writeUInt32LE(0, 20); // the directory's disk
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeUInt32LE(0, 4);
      locator.writeBigUInt64LE(BigInt(this.offset), 8);
      locator.writeUInt32LE(1, 16); // disks in all
      await this.write(Buffer.concat([record, locator]));
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(0, 4);
    end.writeUInt16LE(0, 6);
    end.writeUInt16LE(zip64 ? U16 : count, 8);
    end.writeUInt16LE(zip64 ? U16 : count, 10);
    end.writeUInt32LE(zip64 ? U32 : size, 12);
    end.writeUInt32LE(zip64 ? U32 : start, 16);
    end.writeUInt16LE(0, 20); // no comment
    await this.write(end);
    this.out.end();
  }

  /** Stops the stream with the error that stopped the writer (the reply then ends abruptly). */
  fail(err: Error): void {
    this.out.destroy(err);
  }

  private entry(name: string, flags: number, date: Date): CentralEntry {
    if (this.finished) throw new Error('the ZIP is already finished');
    const e: CentralEntry = { name: Buffer.from(name, 'utf8'), flags: flags | FLAG_UTF8, ...dosDateTime(date), crc: 0, size: 0, offset: this.offset };
    this.entries.push(e);
    return e;
  }

  private checkSize(size: number, name: string) {
    if (size >= U32) throw new Error(`${name}: an entry of 4 GiB or more is not supported`);
  }

  private localHeader(e: CentralEntry): Buffer {
    const known = !(e.flags & FLAG_DESCRIPTOR);
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4); // version needed: 2.0 (local headers never need ZIP64 here)
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(0, 8); // stored
    h.writeUInt16LE(e.time, 10);
    h.writeUInt16LE(e.date, 12);
    h.writeUInt32LE(known ? e.crc : 0, 14);
    h.writeUInt32LE(known ? e.size : 0, 18);
    h.writeUInt32LE(known ? e.size : 0, 22);
    h.writeUInt16LE(e.name.length, 26);
    h.writeUInt16LE(0, 28);
    return Buffer.concat([h, e.name]);
  }

  private centralHeader(e: CentralEntry): Buffer {
    // Sizes are below 4 GiB (checkSize); only the offset may need the ZIP64 extra field.
    const far = e.offset >= this.zip64From;
    const extra = far ? Buffer.alloc(12) : Buffer.alloc(0);
    if (far) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(e.offset), 4);
    }
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(MADE_BY, 4);
    h.writeUInt16LE(far ? 45 : 20, 6);
    h.writeUInt16LE(e.flags, 8);
    h.writeUInt16LE(0, 10);
    h.writeUInt16LE(e.time, 12);
    h.writeUInt16LE(e.date, 14);
    h.writeUInt32LE(e.crc, 16);
    h.writeUInt32LE(e.size, 20);
    h.writeUInt32LE(e.size, 24);
    h.writeUInt16LE(e.name.length, 28);
    h.writeUInt16LE(extra.length, 30);
    h.writeUInt16LE(0, 32); // no comment
    h.writeUInt16LE(0, 34); // disk
    h.writeUInt16LE(0, 36); // internal attributes
    h.writeUInt32LE(EXTERNAL_ATTRS, 38);
    h.writeUInt32LE(far ? U32 : e.offset, 42);
    return Buffer.concat([h, e.name, extra]);
  }

  /** Writes, and waits while the reader is more than highWaterMark behind. */
  private async write(bytes: Buffer): Promise<void> {
    if (this.out.destroyed) throw new ZipReaderGone();
    this.offset += bytes.length;
    if (this.out.write(bytes)) return;
    await new Promise<void>((resolve, reject) => {
      const drained = () => {
        this.out.off('close', closed);
        resolve();
      };
      const closed = () => {
        this.out.off('drain', drained);
        reject(new ZipReaderGone());
      };
      this.out.once('drain', drained);
      this.out.once('close', closed);
    });
  }
}
