import type { Readable } from 'node:stream';
import archiver from 'archiver';
import { formatDateTimeInZone } from '../../../shared/dates';
import { csvCell } from '../../../shared/export';
import { invoiceFileName } from '../../../shared/invoices.schemas';
import type { Storage } from '../../storage/storage';
import type { EvidenceTicket } from './evidence';
import { evidencePdf, type EvidencePdfHead } from './evidence-pdf';

/**
 * The evidence ZIP (docs/product/billing.md §7; decision 048): the evidence PDF, every photo of the
 * invoiced tickets at full size, byte for byte as stored, named `<pole>_<line>_<n>.jpg`, and
 * `index.csv` (one row per photo: its file, ticket, times, checks and the completion record).
 *
 * Streamed with archiver: each entry is added only when the one before it is written, and photos
 * are read from storage one at a time, so memory holds one photo (≤ 2048 px from the phone, a few
 * hundred KB) and not the invoice's 4,000. Photos are stored, not deflated: JPEG does not shrink.
 */

const INDEX_COLUMNS = ['file', 'ticket_id', 'pole', 'line', 'work_orders', 'photo', 'taken_at', 'uploaded_at', 'distance_m', 'flags', 'completed_at', 'completed_by_name'];
/** Bytes the ZIP may run ahead of its reader before the writer waits. */
const AHEAD_BYTES = 2 * 1024 * 1024;

/** A name part safe in every unzipper: no path separators, reserved or control characters. */
const namePart = (s: string) =>
  Array.from(s, (ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' || '\\/:*?"<>|'.includes(ch) ? '-' : ch))
    .join('')
    .trim() || '-';

/** The file's own kind by its first bytes (photos are JPEG from phones; an uploaded PNG stays PNG). */
function extensionOf(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpg';
  if (bytes.subarray(0, 4).toString('latin1') === '\u0089PNG') return 'png';
  if (bytes.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return 'heic';
  return 'jpg';
}

/** Adds one entry and resolves when archiver has written it (entries go one after another). */
function add(archive: archiver.Archiver, source: Buffer | string | Readable, data: archiver.ZipEntryData): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      archive.off('error', fail);
      resolve();
    };
    const fail = (err: Error) => {
      archive.off('entry', done);
      reject(err);
    };
    archive.once('entry', done);
    archive.once('error', fail);
    archive.append(source, data);
  });
}

async function caughtUp(stream: Readable): Promise<void> {
  while (stream.readableLength > AHEAD_BYTES && !stream.destroyed) await new Promise((r) => setTimeout(r, 5));
}

/**
 * The ZIP as a stream. `tickets()` is called twice (once for the PDF, once for the photos): each
 * pass reads the invoice's evidence in batches, so nothing of the first is kept for the second.
 */
export function evidenceZip(head: EvidencePdfHead, tickets: () => AsyncIterable<EvidenceTicket>, storage: Storage): Readable {
  const archive = archiver('zip', { zlib: { level: 6 } });
  const tz = head.company.timeZone;
  const when = (iso: string | null | undefined) => (iso ? formatDateTimeInZone(iso, tz) : '');

  async function write() {
    await add(archive, evidencePdf(head, tickets(), storage), { name: invoiceFileName(head.invoice.job_number, head.invoice.number, 'evidence.pdf') });
    const index: string[] = [INDEX_COLUMNS.join(',')];
    const used = new Set<string>();
    for await (const t of tickets()) {
      for (const photo of t.photos) {
        const key = storage.keyFromUrl(photo.url);
        let bytes: Buffer | null = null;
        try {
          bytes = key ? await storage.get(key) : null;
        } catch {
          bytes = null;
        }
        let file = '';
        if (bytes) {
          const stem = `${namePart(t.pole_name)}_${namePart(t.line_name)}_${photo.n}`;
          let name = `${stem}.${extensionOf(bytes)}`;
          // Two tickets at one pole and line (a pole worked twice): the second's photos get -2.
          for (let k = 2; used.has(name); k++) name = `${stem}-${k}.${extensionOf(bytes)}`;
          used.add(name);
          file = name;
          await add(archive, bytes, { name, store: true, date: photo.taken_at ? new Date(photo.taken_at) : undefined });
          bytes = null;
          await caughtUp(archive);
        }
        index.push(
          [
            file || '(missing from storage)',
            t.ticket_id,
            t.pole_name,
            t.line_name,
            t.work_orders.join(', '),
            photo.n,
            when(photo.taken_at),
            when(photo.uploaded_at),
            photo.distance_m ?? null,
            photo.flags.join(' '),
            when(t.completed_at),
            t.completed_by_name ?? '',
          ]
            .map((v) => csvCell(v))
            .join(','),
        );
      }
    }
    // UTF-8 with a BOM, so Excel shows Łine and WO-Ž1 as written.
    await add(archive, `\uFEFF${index.join('\r\n')}\r\n`, { name: 'index.csv' });
    await archive.finalize();
  }
  write().catch((err: Error) => archive.destroy(err));
  return archive;
}
