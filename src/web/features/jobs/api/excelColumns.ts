import type { SheetChoice, WorkbookColumns } from '../../../../shared/excel';
import { apiFetch } from '../../../api/client';
import { sheetParams } from '../../../components/workbookRead';

/**
 * GET /jobs/excel/getColumns?url=[&ticketsSheet=][&librarySheet=]: the header columns of the
 * tickets and unit-library sheets, which sheets and header rows were used and what the reader
 * interpreted (422 with the SPEC §5 message). Without a choice the server's rules pick the sheets.
 */
export const getExcelColumns = (url: string, opts: { signal?: AbortSignal; sheets?: SheetChoice } = {}) =>
  apiFetch<WorkbookColumns>(`/jobs/excel/getColumns?${new URLSearchParams({ url, ...sheetParams(opts.sheets) })}`, { signal: opts.signal });
