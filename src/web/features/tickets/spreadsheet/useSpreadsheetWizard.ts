import { useCallback, useRef, useState } from 'react';
import type { WorkbookColumns } from '../../../../shared/excel';
import type { ApplyMode, ReimportPreview } from '../../../../shared/reimport';
import type { XlsRejectedReply } from '../../../../shared/tickets.schemas';
import { ApiError } from '../../../api/client';
import type { LibraryMap, MappingRead, TicketMap } from '../../../components/ExcelMappingModal';
import { useImportSheet, usePreviewSheet, useReadSheetColumns, type SheetMapping } from '../api/xlsUpload';
import type { UploadOutcome } from './UploadResult';

/** Where the wizard is: the file, then its columns (mapping step), then the mapping and its preview. */
export interface SheetStep {
  file: File;
  columns?: WorkbookColumns;
  mapping?: SheetMapping;
  preview?: ReimportPreview;
  /** Why a new preview replaced the one the person chose from (the job changed meanwhile). */
  stale?: string;
}

/**
 * Upload Spreadsheet (decision 018), four steps: read the columns → Excel Column Mapping →
 * preview → import. A refused step ends the flow with the reason (and the rows it names) above
 * the table; the outcome of an import is told there too.
 */
export function useSpreadsheetWizard(jobId: number) {
  const [sheet, setSheet] = useState<SheetStep | null>(null);
  const [choice, setChoice] = useState<ApplyMode | null>(null);
  const [result, setResult] = useState<UploadOutcome | null>(null);
  const { mutate: readColumns, isPending: readingColumns } = useReadSheetColumns();
  const previewer = usePreviewSheet();
  const importer = useImportSheet();
  const resetFile = useRef<() => void>(null);

  /** A refused step ends the flow with the reason (and the rows it names) above the table. */
  const failed = useCallback((err: unknown) => {
    const body = err instanceof ApiError ? (err.body as XlsRejectedReply | null) : null;
    const message = err instanceof Error ? err.message : String(err);
    // The rows are listed one per line below; the message's own copy of them is left out.
    setResult({ ok: false, reply: body, message: body?.rejectedRows?.length ? message.split(' Row ')[0] : message });
    setSheet(null);
  }, []);

  /** Step 1: the file picked; its columns are read for the mapping step. */
  const onFile = useCallback(
    (file: File | null) => {
      resetFile.current?.();
      if (!file) return;
      setResult(null);
      readColumns({ jobId, file }, { onSuccess: (columns) => setSheet({ file, columns }), onError: failed });
    },
    [jobId, failed, readColumns],
  );

  /** Step 2 → 3: the sheets picked on the mapping step travel with the mapping: preview and import read them. */
  const onMapped = (ticketsMappings: TicketMap, libraryMappings: LibraryMap, read: MappingRead) => {
    if (!sheet) return;
    const mapping: SheetMapping = { ticketsMappings, libraryMappings: read.ticketsOnly ? undefined : libraryMappings, sheets: read.sheets };
    setSheet({ file: sheet.file, mapping });
    previewer.mutate({ jobId, file: sheet.file, mapping }, { onSuccess: (preview) => setSheet({ file: sheet.file, mapping, preview }), onError: failed });
  };

  /** Step 4: the person chose how to apply the preview. */
  const onChoose = (mode: ApplyMode) => {
    if (!sheet?.mapping || !sheet.preview) return;
    const { file, mapping, preview } = sheet;
    setChoice(mode);
    importer.mutate(
      { jobId, file, mapping, mode, previewToken: preview.preview_token },
      {
        onSuccess: (r) => {
          const counts = `Added ${r.tickets} ticket${r.tickets === 1 ? '' : 's'} and ${r.tasks} task${r.tasks === 1 ? '' : 's'}`;
          const updated = r.updated ? `, updated ${r.updated} bid quantit${r.updated === 1 ? 'y' : 'ies'}` : '';
          setResult({ ok: true, reply: r, message: `${counts}${updated} from ${file.name}.` });
          setSheet(null);
        },
        onError: (err) => {
          // The job changed since the preview: show the new one, and why, and let the user choose again.
          const fresh = err instanceof ApiError && err.status === 409 ? (err.body?.preview as ReimportPreview | undefined) : undefined;
          if (fresh) setSheet({ file, mapping, preview: fresh, stale: err.message });
          else failed(err);
        },
        onSettled: () => setChoice(null),
      },
    );
  };

  return {
    sheet,
    /** A step is reading the file (its columns, or its preview): the Upload Spreadsheet button spins. */
    reading: readingColumns || previewer.isPending,
    choice,
    result,
    resetFile,
    onFile,
    onMapped,
    onChoose,
    cancel: () => setSheet(null),
    closeResult: () => setResult(null),
  };
}

export type SpreadsheetWizard = ReturnType<typeof useSpreadsheetWizard>;
