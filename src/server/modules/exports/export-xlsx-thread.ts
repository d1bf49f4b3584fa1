import type { ExportTable } from '../../../shared/export';
import { fileThread } from '../../workers/file-thread';

/**
 * Export workbooks are built on a worker thread (workers/file-thread.ts): the 5,000-ticket bench
 * job is ~15,000 unit rows, seconds of exceljs on a busy 2-core machine.
 */
export const buildExportXlsx: (table: ExportTable) => Promise<Buffer> = fileThread<ExportTable>(
  new URL('./export-xlsx.worker.mjs', import.meta.url),
  'the export workbook',
);
