import type { ExportTable } from '../../../shared/export';
import { serveFiles } from '../../workers/file-thread';
import { exportXlsx } from './export-xlsx';

/** Builds one export workbook per message, off the server's thread (see export-xlsx-thread.ts). */
serveFiles<ExportTable>(exportXlsx);
