import { serveFiles } from '../../workers/file-thread';
import { invoicePdf, invoiceXlsx } from './invoice-files';
import type { FileJob } from './invoice-files-thread';

/** Builds one invoice file per message, off the server's thread (see invoice-files-thread.ts). */
serveFiles<FileJob>((job) => (job.kind === 'xlsx' ? invoiceXlsx(job.input) : invoicePdf(job.input)));
