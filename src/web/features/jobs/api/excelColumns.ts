import { useMutation } from '@tanstack/react-query';
import type { SheetChoice, WorkbookColumns } from '../../../../shared/excel';
import { apiFetch } from '../../../api/client';
import { sheetParams } from '../../../components/workbookRead';

/**
 * GET /jobs/excel/getColumns?url=[&ticketsSheet=][&librarySheet=]: the header columns of the
 * tickets and unit-library sheets, which sheets and header rows were used and what the reader
 * interpreted (422 with the docs/product/rules.md message). Without a choice the server's rules pick the sheets.
 * With the job's utility, the reply carries its saved mapping (`saved`, docs/product/records.md §4).
 */
export const getExcelColumns = (url: string, opts: { signal?: AbortSignal; sheets?: SheetChoice; utilityId?: number | null } = {}) =>
  apiFetch<WorkbookColumns>(
    `/jobs/excel/getColumns?${new URLSearchParams({ url, ...sheetParams(opts.sheets), ...(opts.utilityId ? { utility_id: String(opts.utilityId) } : {}) })}`,
    { signal: opts.signal },
  );

/**
 * Reads the columns of a workbook just uploaded (the Create Job modal). A mutation, not a query:
 * each upload is read once, and a newer upload aborts the older read (`signal`). Sent at once
 * (networkMode 'always'), so that without a connection the field says why.
 */
export const useReadExcelColumns = () =>
  useMutation({
    mutationFn: ({ url, signal, utilityId }: { url: string; signal?: AbortSignal; utilityId?: number | null }) => getExcelColumns(url, { signal, utilityId }),
    networkMode: 'always',
  });
