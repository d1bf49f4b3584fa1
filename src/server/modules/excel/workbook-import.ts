import { Worker } from 'node:worker_threads';
import { LIMITS } from '../../../shared/constants';
import {
  REQUIRED_LIBRARY_TARGETS,
  defaultLibraryMappings,
  defaultTicketsMappings,
  formatImportErrors,
  isMapped,
  type ImportError,
  type JobOverrides,
  type LibraryMappings,
  type TicketDraft,
  type TicketsMappings,
  type UnitDraft,
  type WorkbookColumns,
  type WorkbookImport,
} from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { AppError, unprocessable } from '../../errors';
import { workbookToImport } from './convert';
import { assertEnoughColumns, assertTicketColumns, columnsOf, parseWorkbook } from './workbook';

/**
 * Workbooks read in a worker thread (issue 6): the job save's `job.ticketsFile`, getColumns, and
 * the spreadsheet upload of a job (POST /tickets/xls-upload), from bytes to drafts. Reading a
 * 10,000-row .xlsx is ~1 s of CPU for exceljs; on the server's own thread that time is cut into many 20–60 ms slices, and requests that arrive
 * meanwhile (GET /health, other users) wait behind them. In a worker the server thread only
 * receives the finished drafts, in batches small enough to deserialise in a few milliseconds.
 */

export interface WorkbookImportRequest {
  ticketsMappings: TicketsMappings;
  libraryMappings: LibraryMappings | null;
  overrides?: JobOverrides | null;
}

export type WorkbookDrafts = Omit<WorkbookImport, 'errors'>;

/** 422 with the first few row errors (and a count), or with "no rows" for an empty sheet. */
export function assertImportOk(result: WorkbookImport): void {
  if (result.errors.length) throw unprocessable(formatImportErrors(result.errors));
  if (result.tickets.length === 0) throw unprocessable(MSG.excelNoRows);
}

/**
 * Parse, check the columns, convert with the saved mapping and the job's overrides: 422 naming
 * the bad rows when there is any problem. Pure (no database, no storage): what the worker runs.
 */
export async function workbookImportOf(buf: Buffer, req: WorkbookImportRequest): Promise<WorkbookDrafts> {
  const parsed = await parseWorkbook(buf);
  assertEnoughColumns(parsed);
  const result = workbookToImport(parsed, req.ticketsMappings, req.libraryMappings, req.overrides);
  assertImportOk(result);
  return { tickets: result.tickets, library: result.library };
}

export interface SheetUploadRequest {
  /** Sent by the client, else the default mapping of the sheet's headers. */
  ticketsMappings?: TicketsMappings;
  libraryMappings?: LibraryMappings;
  overrides?: JobOverrides | null;
}

/**
 * The spreadsheet upload of a job: parse (422 when unreadable or with too few ticket columns),
 * the sent mapping or the default one, the library sheet too when it is mapped (sent, or every
 * required default column found), convert. Row problems come back in `errors`, not thrown: the
 * route lists every rejected row. Pure: what the worker runs.
 */
export async function sheetUploadOf(buf: Buffer, req: SheetUploadRequest): Promise<WorkbookImport> {
  const parsed = await parseWorkbook(buf);
  assertTicketColumns(parsed);
  const columns = columnsOf(parsed);
  const ticketsMappings = req.ticketsMappings ?? defaultTicketsMappings(columns.jobColumns);
  let libraryMappings = req.libraryMappings ?? null;
  if (!libraryMappings && columns.libraryColumns.length >= LIMITS.minLibraryColumns) {
    const defaults = defaultLibraryMappings(columns.libraryColumns);
    if (REQUIRED_LIBRARY_TARGETS.every((t) => isMapped(defaults[t]))) libraryMappings = defaults;
  }
  return workbookToImport(parsed, ticketsMappings, libraryMappings, req.overrides);
}

// ---------------------------------------------------------------------------------------------
// Worker protocol

/** What the worker does with a workbook: a job save's import, getColumns, a spreadsheet upload. */
export type WorkerTask = { kind: 'import'; req: WorkbookImportRequest } | { kind: 'columns' } | { kind: 'sheet'; req: SheetUploadRequest };

export interface WorkerJob {
  id: number;
  buf: Uint8Array;
  task: WorkerTask;
}

/** The server thread took a batch of job `id` and wants the next reply. */
export interface WorkerNext {
  id: number;
  next: true;
}

/**
 * An import's tickets come in batches first, then one `done` with the rest; or one `error`.
 * The worker sends the next reply only when asked (WorkerNext): Node hands every message
 * waiting on a port to the thread in ONE callback, so batches sent at once would be
 * deserialised back to back, as one long stall again.
 */
export type WorkerReply =
  | { id: number; tickets: TicketDraft[] }
  | { id: number; done: true; library?: UnitDraft[]; errors?: ImportError[]; columns?: WorkbookColumns }
  | { id: number; error: { statusCode?: number; message: string; fields?: Record<string, string> } };

/** The worker's side: run one job; its replies, in the order to send them. */
export async function runWorkerJob({ id, buf, task }: WorkerJob): Promise<WorkerReply[]> {
  try {
    const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (task.kind === 'columns') {
      const parsed = await parseWorkbook(bytes);
      assertEnoughColumns(parsed);
      return [{ id, done: true, columns: columnsOf(parsed) }];
    }
    const { tickets, library, errors }: Partial<WorkbookImport> & WorkbookDrafts =
      task.kind === 'import' ? await workbookImportOf(bytes, task.req) : await sheetUploadOf(bytes, task.req);
    const replies: WorkerReply[] = [];
    for (let i = 0; i < tickets.length; i += TICKETS_PER_MESSAGE) replies.push({ id, tickets: tickets.slice(i, i + TICKETS_PER_MESSAGE) });
    replies.push({ id, done: true, library, errors });
    return replies;
  } catch (err) {
    // AppErrors (the 422s naming rows) keep their status and message on the server thread.
    return [{ id, error: err instanceof AppError ? { statusCode: err.statusCode, message: err.message, fields: err.fields } : { message: (err as Error)?.message ?? String(err) } }];
  }
}

/**
 * Tickets per message. A batch is cloned on the worker and deserialised on the server thread in
 * one piece: 250 tickets (~1,000 task rows) take a few milliseconds, and other requests are
 * served between two batches.
 */
const TICKETS_PER_MESSAGE = 250;

interface Pending {
  tickets: TicketDraft[];
  resolve: (done: Extract<WorkerReply, { done: true }> & { tickets: TicketDraft[] }) => void;
  reject: (err: Error) => void;
}

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

/**
 * One shared worker, kept for the life of the process (with exceljs and its own heap it adds
 * ~100 MB of RSS): starting one costs 1.5 s on this machine, several under load, which the first
 * column read of an office user would wait for. Jobs run concurrently in it, answered by id.
 */
function importWorker(): Worker {
  if (worker) return worker;
  // A .mjs entry: a worker starts as plain Node, and the entry makes sure TypeScript loads
  // (under `node --import tsx` and under Vitest alike).
  const w = new Worker(new URL('./workbook-import.worker.mjs', import.meta.url));
  const fail = (err: Error) => {
    if (worker !== w) return;
    worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('message', (msg: WorkerReply) => {
    const p = pending.get(msg.id);
    if (!p) return;
    if ('tickets' in msg) {
      for (const t of msg.tickets) p.tickets.push(t);
      w.postMessage({ id: msg.id, next: true } satisfies WorkerNext);
      return;
    }
    pending.delete(msg.id);
    if ('done' in msg) p.resolve({ ...msg, tickets: p.tickets });
    else if (msg.error.statusCode) p.reject(new AppError(msg.error.statusCode, msg.error.message, msg.error.fields));
    else p.reject(new Error(`workbook read failed: ${msg.error.message}`));
    // Idle, it must not keep the process alive.
    if (pending.size === 0) w.unref();
  });
  w.on('error', fail);
  w.on('exit', (code) => fail(new Error(`workbook worker exited (code ${code})`)));
  w.unref();
  worker = w;
  return w;
}

/** Starts the worker ahead of the first workbook (the server calls it once it listens). */
export function startWorkbookWorker(): void {
  importWorker();
}

function runOffThread(buf: Buffer, task: WorkerTask) {
  const w = importWorker();
  w.ref();
  const id = nextId++;
  return new Promise<Parameters<Pending['resolve']>[0]>((resolve, reject) => {
    pending.set(id, { tickets: [], resolve, reject });
    // A copy of just the file's bytes (a Buffer may be a view into a larger memory block, and a
    // view is cloned with all of it); the caller's buffer stays usable.
    w.postMessage({ id, buf: new Uint8Array(buf), task } satisfies WorkerJob);
  });
}

/** Only the four override fields travel: the caller may pass the whole job (with newTickets). */
const overridesOf = (o: JobOverrides | null | undefined): JobOverrides | null =>
  o
    ? {
        ehasp_override: o.ehasp_override,
        arc_rating_override: o.arc_rating_override,
        primary_voltage_override: o.primary_voltage_override,
        secondary_voltage_override: o.secondary_voltage_override,
      }
    : null;

/** `workbookImportOf` in the worker: the same drafts, the same AppErrors. */
export async function workbookImportOffThread(buf: Buffer, req: WorkbookImportRequest): Promise<WorkbookDrafts> {
  const done = await runOffThread(buf, { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } });
  return { tickets: done.tickets, library: done.library ?? [] };
}

/** `sheetUploadOf` in the worker: the same result, the same AppErrors. */
export async function sheetUploadOffThread(buf: Buffer, req: SheetUploadRequest): Promise<WorkbookImport> {
  const done = await runOffThread(buf, { kind: 'sheet', req: { ...req, overrides: overridesOf(req.overrides) } });
  return { tickets: done.tickets, library: done.library ?? [], errors: done.errors ?? [] };
}

/** getColumns' header lists (422 when there are too few), read in the worker. */
export async function workbookColumnsOffThread(buf: Buffer): Promise<WorkbookColumns> {
  return (await runOffThread(buf, { kind: 'columns' })).columns!;
}
