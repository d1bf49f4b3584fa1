import { fileThread } from '../../workers/file-thread';
import type { InvoiceFileInput } from './invoice-files';

/**
 * Invoice files are built on a worker thread (workers/file-thread.ts): a 5,000-line invoice is
 * seconds of pdfmake (PDF) and exceljs (XLSX) work that must not hold up other requests.
 */
export interface FileJob {
  kind: 'xlsx' | 'pdf';
  input: InvoiceFileInput;
}

const build = fileThread<FileJob>(new URL('./invoice-files.worker.mjs', import.meta.url), 'the invoice file');

/** The invoice as an .xlsx or a .pdf, built off the event loop. */
export const buildInvoiceFile = (kind: 'xlsx' | 'pdf', input: InvoiceFileInput): Promise<Buffer> => build({ kind, input });
