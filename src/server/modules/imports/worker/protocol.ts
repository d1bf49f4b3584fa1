import type { ImportError, SheetChoice, WorkbookColumns } from '../../../../shared/excel';
import type { ErrorCode } from '../../../../shared/error-codes';
import { AppError } from '../../../errors';
import { assertEnoughColumns, assertTicketColumns, columnsOf, parseWorkbook, type WorkbookLimits } from '../read/workbook';
import { sheetUploadOf, type SheetUploadRequest, type WorkbookImportRequest } from './convert-workbook';
import { batchesOf, streamWorkbookImport, type DraftBatch } from './stream';

/** The worker protocol: what the server thread asks (WorkerJob), what the worker answers (WorkerReply), and the worker's side (runWorkerJob). */

/** What the worker does with a workbook: a job save's import, getColumns, a spreadsheet upload. */
export type WorkerTask =
  | { kind: 'import'; req: WorkbookImportRequest }
  // `sheet`: the columns of a spreadsheet upload, whose library sheet is optional (a CSV has none).
  | { kind: 'columns'; sheet?: boolean; sheets?: SheetChoice }
  | { kind: 'sheet'; req: SheetUploadRequest };

export interface WorkerJob {
  id: number;
  buf: Uint8Array;
  task: WorkerTask;
  limits: WorkbookLimits;
  /**
   * Int32 shared with the server thread: the batches it has taken. The worker sends on while it
   * is at most MAX_AHEAD batches ahead and waits otherwise (workbook-import.worker.ts): Node hands every message
   * waiting on a port to the thread in ONE callback, so a worker far ahead would have its batches
   * deserialised back to back, one long stall for everyone else.
   */
  taken: SharedArrayBuffer;
}

/** Batches the worker may have sent that the server thread has not taken yet. */
export const MAX_AHEAD = 2;

/**
 * The worker reads in the background of people's requests: it runs at the lowest priority, so
 * that when it and the server thread both want one of the two CPUs, the server thread gets it.
 * A streamed import runs both at once; measured on PGlite, the first import after a start
 * kept GET /health's worst reply about half as slow at 19 as at the default priority, with the
 * import as fast (bench: "First import after the server's start").
 */
export const WORKER_NICE = 19;

/** An import's tickets come in batches, then one `done`; or one `error` (at any point). */
export type WorkerReply =
  | { id: number; batch: DraftBatch }
  | { id: number; done: true; errors?: ImportError[]; columns?: WorkbookColumns; heapMb?: number }
  | { id: number; error: { statusCode?: number; message: string; fields?: Record<string, string>; code?: ErrorCode }; heapMb?: number };

/** The worker's side: run one job, sending its batches as they come; its last reply. */
export async function runWorkerJob({ id, buf, task, limits }: WorkerJob, send: (batch: DraftBatch) => void): Promise<WorkerReply> {
  try {
    const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (task.kind === 'columns') {
      const parsed = await parseWorkbook(bytes, limits, task.sheets);
      if (task.sheet) assertTicketColumns(parsed);
      else assertEnoughColumns(parsed);
      return { id, done: true, columns: columnsOf(parsed) };
    }
    if (task.kind === 'import') {
      await streamWorkbookImport(bytes, task.req, limits, send);
      return { id, done: true };
    }
    const { tickets, library, errors } = await sheetUploadOf(bytes, task.req, limits);
    batchesOf(tickets, library, false, send);
    return { id, done: true, errors };
  } catch (err) {
    // AppErrors (the 422s naming rows) keep their status and message on the server thread.
    return { id, error: err instanceof AppError ? { statusCode: err.statusCode, message: err.message, fields: err.fields, code: err.code } : { message: (err as Error)?.message ?? String(err) } };
  }
}
