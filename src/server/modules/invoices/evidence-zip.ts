import type { Readable } from 'node:stream';
import { formatDateTimeInZone } from '../../../shared/dates';
import { csvCell } from '../../../shared/export';
import { invoiceFileName } from '../../../shared/invoices.schemas';
import type { Storage } from '../../storage/storage';
import { StoredZip } from '../../zip/stored-zip';
import { readAhead, type EvidencePhoto, type EvidenceTicket } from './evidence';
import { evidencePdf, type EvidencePdfHead } from './evidence-pdf';

/**
 * The evidence ZIP (docs/product/billing.md §7; decision 048): the evidence PDF, every photo of the
 * invoiced tickets at full size, byte for byte as stored, named `<pole>_<line>_<n>.jpg`, and
 * `index.csv` (one row per photo: its file, ticket, times, checks and the completion record).
 *
 * Streamed with StoredZip (decision 055): each entry is written when the reader has taken the one
 * before; photos are read from storage PHOTOS_AHEAD at a time ahead of the one being written (so
 * a slow store's latency overlaps the writing), and memory holds those few photos (≤ 2048 px
 * from the phone, a few hundred KB each), not the invoice's 4,000. Every entry is stored, not
 * deflated: JPEG does not shrink, and the PDF's pages are compressed already.
 */

const INDEX_COLUMNS = ['file', 'ticket_id', 'pole', 'line', 'work_orders', 'photo', 'taken_at', 'uploaded_at', 'distance_m', 'flags', 'completed_at', 'completed_by_name'];
/** Photos read from storage ahead of the one being written. */
const PHOTOS_AHEAD = 4;

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

/** The photo's bytes as stored; null when storage no longer has them (the index says so). */
async function photoBytes(storage: Storage, photo: EvidencePhoto): Promise<Buffer | null> {
  const key = storage.keyFromUrl(photo.url);
  try {
    return key ? await storage.get(key) : null;
  } catch {
    return null;
  }
}

/** Every photo of the tickets, in order, with the ticket it proves. */
async function* photosOf(tickets: AsyncIterable<EvidenceTicket>) {
  for await (const t of tickets) for (const photo of t.photos) yield { t, photo };
}

/**
 * The ZIP as a stream. `tickets()` is called twice (once for the PDF, once for the photos): each
 * pass reads the invoice's evidence in batches, so nothing of the first is kept for the second.
 */
export function evidenceZip(head: EvidencePdfHead, tickets: () => AsyncIterable<EvidenceTicket>, storage: Storage): Readable {
  const zip = new StoredZip();
  const tz = head.company.timeZone;
  const when = (iso: string | null | undefined) => (iso ? formatDateTimeInZone(iso, tz) : '');

  async function write() {
    await zip.addStream(invoiceFileName(head.invoice.job_number, head.invoice.number, 'evidence.pdf'), evidencePdf(head, tickets(), storage));
    const index: string[] = [INDEX_COLUMNS.join(',')];
    const used = new Set<string>();
    for await (const [{ t, photo }, bytes] of readAhead(photosOf(tickets()), PHOTOS_AHEAD, ({ photo }) => photoBytes(storage, photo))) {
      let file = '';
      if (bytes) {
        const stem = `${namePart(t.pole_name)}_${namePart(t.line_name)}_${photo.n}`;
        let name = `${stem}.${extensionOf(bytes)}`;
        // Two tickets at one pole and line (a pole worked twice): the second's photos get -2.
        for (let k = 2; used.has(name); k++) name = `${stem}-${k}.${extensionOf(bytes)}`;
        used.add(name);
        file = name;
        await zip.addBuffer(name, bytes, photo.taken_at ? new Date(photo.taken_at) : undefined);
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
    // UTF-8 with a BOM, so Excel shows Łine and WO-Ž1 as written.
    await zip.addBuffer('index.csv', Buffer.from(`\uFEFF${index.join('\r\n')}\r\n`, 'utf8'));
    await zip.finish();
  }
  write().catch((err: Error) => zip.fail(err));
  return zip.stream;
}
