import { fileThread } from '../../workers/file-thread';
import type { InvoiceFileInput } from './invoice-files';

/**
 * Invoice files are built on a worker thread (workers/file-thread.ts): a 5,000-line invoice is
 * ≈10 s of pdfmake for the PDF and ≈4 s for the XLSX on a busy 2-core machine.
 */
export interface FileJob {
  kind: 'xlsx' | 'pdf';
  input: InvoiceFileInput;
}

const build = fileThread<FileJob>(new URL('./invoice-files.worker.mjs', import.meta.url), 'the invoice file');

/** The invoice as an .xlsx or a .pdf, built off the event loop. */
export const buildInvoiceFile = (kind: 'xlsx' | 'pdf', input: InvoiceFileInput): Promise<Buffer> => build({ kind, input });
