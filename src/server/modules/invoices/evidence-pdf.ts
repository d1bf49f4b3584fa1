import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { formatDateTimeInZone, isoToUs } from '../../../shared/dates';
import { distanceText, photoFlagText } from '../../../shared/evidence';
import type { Invoice } from '../../../shared/invoices.schemas';
import { MSG } from '../../../shared/messages';
import { drawable, PDF_FONT_FILES } from '../../pdf/fonts';
import type { Storage } from '../../storage/storage';
import { readAhead, type EvidencePhoto, type EvidenceTicket } from './evidence';

/**
 * The evidence PDF (docs/product/billing.md §7; decision 048): a cover naming the invoice, then per
 * invoiced ticket its pole, line, work orders, the units and quantities billed, its completion
 * record and up to 4 photo thumbnails with time, distance and flags.
 *
 * Written PAGE BY PAGE with pdfkit (pdfmake lays the whole document out in memory first): each
 * page is written out when the next begins, the thumbnails of the next TICKETS_AHEAD tickets are
 * read from storage while one is drawn and dropped after (decision 055), and the writer waits
 * while the reader (the HTTP reply, the ZIP) is behind. So a 1,000-ticket invoice with 4,000
 * photos never holds more than a page and a few MB.
 */

export interface EvidencePdfHead {
  invoice: Invoice;
  company: { name: string; timeZone: string };
  tickets: number;
}

const PAGE = { width: 612, height: 792, margin: 40 };
const CONTENT_W = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin;
/** Thumbnails per ticket, and their boxes: four across the page. */
export const THUMBS_PER_TICKET = 4;
const GAP = 10;
const THUMB_W = (CONTENT_W - GAP * (THUMBS_PER_TICKET - 1)) / THUMBS_PER_TICKET;
const THUMB_H = THUMB_W * 0.75;
const CAPTION_LINES = 3;
const LINE = 11;
/** Bytes the PDF may run ahead of its reader before the writer waits. */
const AHEAD_BYTES = 2 * 1024 * 1024;
/** Largest side of a thumbnail made here when the stored one cannot be read. */
const THUMB_PX = 400;
/** Tickets whose thumbnails are read from storage ahead of the one being drawn. */
const TICKETS_AHEAD = 2;

const when = (iso: string | null | undefined, timeZone: string) => {
  const s = iso ? formatDateTimeInZone(iso, timeZone) : '';
  return s ? `${isoToUs(s.slice(0, 10))} ${s.slice(11, 16)}` : '';
};

/** Resolves once the document's unread output is below AHEAD_BYTES (the reader caught up). */
async function caughtUp(doc: PDFKit.PDFDocument): Promise<void> {
  while (doc.readableLength > AHEAD_BYTES && !doc.destroyed) await new Promise((r) => setTimeout(r, 5));
}

/**
 * A photo's thumbnail as JPEG bytes: the stored one (made upright from EXIF when the photo was
 * stored), else one made now from the original, turned by its EXIF orientation; null when neither
 * can be read.
 */
async function thumbnailOf(storage: Storage, photo: EvidencePhoto): Promise<Buffer | null> {
  const thumbKey = storage.keyFromUrl(photo.thumbnail_url);
  if (thumbKey) {
    try {
      return await storage.get(thumbKey);
    } catch {
      // fall through: make one from the original
    }
  }
  const key = storage.keyFromUrl(photo.url);
  if (!key) return null;
  try {
    return await sharp(await storage.get(key), { limitInputPixels: 100_000_000 })
      .rotate()
      .resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 75 })
      .toBuffer();
  } catch {
    return null;
  }
}

/** What the completion record says, one line. */
export function completionText(t: EvidenceTicket, timeZone: string): string {
  if (!t.completed_at) return t.ticket_id == null ? 'Ticket deleted after it was billed: no completion record.' : 'Not complete.';
  let s = `Completed ${when(t.completed_at, timeZone)}`;
  if (t.completed_by_name) s += ` by ${t.completed_by_name}`;
  if (t.completed_lat != null && t.completed_lon != null) {
    s += ` at ${t.completed_lat.toFixed(6)}, ${t.completed_lon.toFixed(6)}`;
    if (t.completed_accuracy_m != null) s += ` (±${Math.round(t.completed_accuracy_m)} m)`;
  } else s += ', no position';
  return s;
}

/** A photo's caption lines: when taken, how far from the pole, its flags. */
export function photoCaption(p: EvidencePhoto, timeZone: string): string[] {
  const lines = [p.taken_at ? `Taken ${when(p.taken_at, timeZone)}` : `Uploaded ${when(p.uploaded_at, timeZone)}`];
  if (p.distance_m != null) lines.push(distanceText(p.distance_m));
  if (p.flags.length) lines.push(photoFlagText(p.flags));
  return lines;
}

/**
 * The evidence PDF as a stream. `tickets` is read as the pages are written; the stream ends after
 * the last ticket, or is destroyed with the error that stopped it.
 */
export function evidencePdf(head: EvidencePdfHead, tickets: AsyncIterable<EvidenceTicket>, storage: Storage): PDFKit.PDFDocument {
  const { invoice, company } = head;
  const tz = company.timeZone;
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: PAGE.margin,
    autoFirstPage: true,
    bufferPages: false,
    info: { Title: `${invoice.number} ${invoice.job_number} evidence`, Creator: 'Linecrew' },
  });
  doc.registerFont('body', PDF_FONT_FILES.normal);
  doc.registerFont('bold', PDF_FONT_FILES.bold);
  let undrawable = false;
  const p = (s: string) => drawable(s, () => (undrawable = true));
  let page = 1;

  const pageHead = () => {
    doc.font('body').fontSize(7).fillColor('#555555');
    doc.text(`${p(invoice.number)} evidence — ${p(invoice.job_number)} — page ${page}`, PAGE.margin, PAGE.margin - 20, { width: CONTENT_W, align: 'right', lineBreak: false });
    doc.fillColor('#000000');
    doc.x = PAGE.margin;
    doc.y = PAGE.margin;
  };
  // Every new page gets its head, whether added here or by pdfkit when a text runs over.
  doc.on('pageAdded', () => {
    page += 1;
    pageHead();
  });
  const newPage = () => doc.addPage();
  const text = (s: string, opts: { font?: 'body' | 'bold'; size?: number; color?: string } = {}) => {
    doc.font(opts.font ?? 'body').fontSize(opts.size ?? 9).fillColor(opts.color ?? '#000000');
    doc.text(p(s), PAGE.margin, doc.y, { width: CONTENT_W });
  };

  async function write() {
    pageHead();
    text(`Evidence for ${invoice.number}`, { font: 'bold', size: 16 });
    text(company.name, { size: 11 });
    doc.moveDown(0.5);
    text(`Bill to ${invoice.bill_to.utility}${invoice.bill_to.address ? `, ${invoice.bill_to.address}` : ''}`);
    text(`Job ${invoice.job_number} · Invoice date ${isoToUs(invoice.invoice_date)} · ${head.tickets} ticket${head.tickets === 1 ? '' : 's'}`);
    text(`Times in ${tz}. Each ticket shows up to ${THUMBS_PER_TICKET} photos; the evidence ZIP holds every photo at full size.`, { size: 8, color: '#444444' });
    doc.moveDown(1);

    const withThumbnails = readAhead(tickets, TICKETS_AHEAD, (t) => Promise.all(t.photos.slice(0, THUMBS_PER_TICKET).map((photo) => thumbnailOf(storage, photo))));
    for await (const [t, thumbnails] of withThumbnails) {
      // The reader went away (the download stopped): read and draw no more.
      if (doc.destroyed) return;
      const shown = t.photos.slice(0, THUMBS_PER_TICKET);
      const height =
        16 + LINE * (2 + t.units.length) + (shown.length ? THUMB_H + CAPTION_LINES * 9 + 6 : LINE) + (t.photos.length > shown.length ? LINE : 0) + 14;
      if (doc.y + height > BOTTOM && doc.y > PAGE.margin + 1) newPage();

      text(`Pole ${t.pole_name || '—'} · Line ${t.line_name || '—'}`, { font: 'bold', size: 11 });
      text(`Work orders: ${t.work_orders.length ? t.work_orders.join(', ') : '—'}`);
      for (const u of t.units) text(`${u.code} — ${u.description}: ${u.quantity} ${u.uom}`);
      text(completionText(t, tz));

      if (shown.length === 0) text('No photos.', { color: '#8a1c1c' });
      else {
        const top = doc.y + 3;
        for (const [i, photo] of shown.entries()) {
          const x = PAGE.margin + i * (THUMB_W + GAP);
          const bytes = thumbnails[i];
          let drawn = false;
          if (bytes) {
            try {
              doc.image(bytes, x, top, { fit: [THUMB_W, THUMB_H], align: 'center', valign: 'center' });
              drawn = true;
            } catch {
              // not an image pdfkit can draw: the box below says so
            }
          }
          if (!drawn) {
            doc.rect(x, top, THUMB_W, THUMB_H).strokeColor('#999999').stroke();
            doc.font('body').fontSize(8).fillColor('#8a1c1c').text('Photo could not be read', x + 4, top + THUMB_H / 2 - 4, { width: THUMB_W - 8, align: 'center' });
          }
          doc.font('body').fontSize(7.5).fillColor('#000000');
          doc.text(p(photoCaption(photo, tz).join('\n')), x, top + THUMB_H + 3, { width: THUMB_W, height: CAPTION_LINES * 9, ellipsis: true });
        }
        doc.y = top + THUMB_H + CAPTION_LINES * 9 + 6;
        if (t.photos.length > shown.length) text(`${t.photos.length - shown.length} more photo${t.photos.length - shown.length === 1 ? '' : 's'} in the evidence ZIP.`, { size: 8, color: '#444444' });
      }
      doc.moveTo(PAGE.margin, doc.y + 5).lineTo(PAGE.width - PAGE.margin, doc.y + 5).strokeColor('#cccccc').stroke();
      doc.y += 12;
      await caughtUp(doc);
    }
    if (undrawable) {
      if (doc.y + 3 * LINE > BOTTOM) newPage();
      text(MSG.pdfUndrawable, { size: 8, color: '#444444' });
    }
    doc.end();
  }
  write().catch((err: Error) => doc.destroy(err));
  return doc;
}
