import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LibraryMappings, SheetChoice, TicketsMappings, WorkbookColumns } from '../../../../shared/excel';
import type { ApplyMode, ReimportPreview, XlsImportReply } from '../../../../shared/reimport';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { sheetParams } from '../../../components/workbookRead';

/**
 * The chosen mapping; `libraryMappings` is absent for a workbook without a Unit Library sheet.
 * `sheets`: the sheets picked on the mapping step, sent with every later call (absent: the
 * server's rules choose them, docs/product/imports.md).
 */
export interface SheetMapping {
  ticketsMappings: TicketsMappings;
  libraryMappings?: LibraryMappings;
  sheets?: SheetChoice;
}

/** POST /tickets/xls-upload, multipart: `file`, `job_id`, the mapping, the sheets and the mode (decision 018). */
function post<T>(jobId: number, file: File, fields: Record<string, string | undefined>, signal?: AbortSignal) {
  const form = new FormData();
  form.append('job_id', String(jobId));
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  form.append('file', file);
  return apiFetch<T>('/tickets/xls-upload', { method: 'POST', body: form, signal });
}

const mappingFields = (m: SheetMapping) => ({
  ticketsMappings: JSON.stringify(m.ticketsMappings),
  libraryMappings: m.libraryMappings ? JSON.stringify(m.libraryMappings) : undefined,
  ...sheetParams(m.sheets),
});

/**
 * The workbook's column headers, the sheets and header rows used and what was interpreted, for
 * the Excel Column Mapping (writes nothing); `sheets` reads the sheets the person picked.
 */
export const readSheetColumns = (jobId: number, file: File, sheets?: SheetChoice, signal?: AbortSignal) =>
  post<WorkbookColumns>(jobId, file, { mode: 'columns', ...sheetParams(sheets) }, signal);

/** What importing the workbook would do to the job (writes nothing). */
export const previewSheet = (jobId: number, file: File, mapping: SheetMapping) =>
  post<ReimportPreview>(jobId, file, { mode: 'preview', ...mappingFields(mapping) });

/** Step 1 of Upload Spreadsheet: the picked file's columns. Sent at once (networkMode 'always'), so that without a connection the step fails with the reason. */
export const useReadSheetColumns = () =>
  useMutation({ mutationFn: ({ jobId, file }: { jobId: number; file: File }) => readSheetColumns(jobId, file), networkMode: 'always' });

/** Step 3 of Upload Spreadsheet: the preview of the mapped file; sent at once, as step 1. */
export const usePreviewSheet = () =>
  useMutation({ mutationFn: ({ jobId, file, mapping }: { jobId: number; file: File; mapping: SheetMapping }) => previewSheet(jobId, file, mapping), networkMode: 'always' });

export interface SheetImport {
  jobId: number;
  file: File;
  mapping: SheetMapping;
  mode: ApplyMode;
  /** The preview the user chose from: a 409 with a new preview answers if the job changed since. */
  previewToken: string;
}

export function importSheet({ jobId, file, mapping, mode, previewToken }: SheetImport) {
  return post<XlsImportReply>(jobId, file, { mode, preview_token: previewToken, ...mappingFields(mapping) });
}

/** An import reports XlsImportReply; a refused file answers 422 with XlsRejectedReply (src/shared/tickets.schemas.ts). */
export function useImportSheet() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: importSheet,
    onSettled: (_r, _e, { jobId }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobLists });
    },
  });
}
