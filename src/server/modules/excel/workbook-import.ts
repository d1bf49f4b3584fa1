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
import { ERROR_CODE, type ErrorCode } from '../../../shared/error-codes';
import { AppError, tooMany, unprocessable } from '../../errors';
import { workbookToImport } from './convert';
import { DEFAULT_WORKBOOK_LIMITS, assertEnoughColumns, assertTicketColumns, columnsOf, parseWorkbook, type WorkbookLimits } from './workbook';

/**
 * Workbooks read in a worker thread: the job save's `job.ticketsFile`, getColumns, and
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
export async function workbookImportOf(buf: Buffer, req: WorkbookImportRequest, limits?: WorkbookLimits): Promise<WorkbookDrafts> {
  const parsed = await parseWorkbook(buf, limits);
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
export async function sheetUploadOf(buf: Buffer, req: SheetUploadRequest, limits?: WorkbookLimits): Promise<WorkbookImport> {
  const parsed = await parseWorkbook(buf, limits);
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
export type WorkerTask =
  | { kind: 'import'; req: WorkbookImportRequest }
  // `sheet`: the columns of a spreadsheet upload, whose library sheet is optional (a CSV has none).
  | { kind: 'columns'; sheet?: boolean }
  | { kind: 'sheet'; req: SheetUploadRequest };

export interface WorkerJob {
  id: number;
  buf: Uint8Array;
  task: WorkerTask;
  limits: WorkbookLimits;
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
  | { id: number; done: true; library?: UnitDraft[]; errors?: ImportError[]; columns?: WorkbookColumns; heapMb?: number }
  | { id: number; error: { statusCode?: number; message: string; fields?: Record<string, string>; code?: ErrorCode }; heapMb?: number };

/** The worker's side: run one job; its replies, in the order to send them. */
export async function runWorkerJob({ id, buf, task, limits }: WorkerJob): Promise<WorkerReply[]> {
  try {
    const bytes = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
    if (task.kind === 'columns') {
      const parsed = await parseWorkbook(bytes, limits);
      if (task.sheet) assertTicketColumns(parsed);
      else assertEnoughColumns(parsed);
      return [{ id, done: true, columns: columnsOf(parsed) }];
    }
    const { tickets, library, errors }: Partial<WorkbookImport> & WorkbookDrafts =
      task.kind === 'import' ? await workbookImportOf(bytes, task.req, limits) : await sheetUploadOf(bytes, task.req, limits);
    const replies: WorkerReply[] = [];
    for (let i = 0; i < tickets.length; i += TICKETS_PER_MESSAGE) replies.push({ id, tickets: tickets.slice(i, i + TICKETS_PER_MESSAGE) });
    replies.push({ id, done: true, library, errors });
    return replies;
  } catch (err) {
    // AppErrors (the 422s naming rows) keep their status and message on the server thread.
    return [{ id, error: err instanceof AppError ? { statusCode: err.statusCode, message: err.message, fields: err.fields, code: err.code } : { message: (err as Error)?.message ?? String(err) } }];
  }
}

/**
 * Tickets per message. A batch is cloned on the worker and deserialised on the server thread in
 * one piece: 250 tickets (~1,000 task rows) take a few milliseconds, and other requests are
 * served between two batches.
 */
const TICKETS_PER_MESSAGE = 250;

/**
 * How a workbook is read on behalf of a user: the limits of the file, the time its
 * worker may spend on it, and who asks (one workbook per user at a time).
 */
export interface ImportOptions {
  userId?: number;
  limits?: WorkbookLimits;
  timeLimitMs?: number;
}

type Done = Extract<WorkerReply, { done: true }> & { tickets: TicketDraft[] };

interface Job {
  message: WorkerJob;
  timeLimitMs: number;
  tickets: TicketDraft[];
  resolve: (done: Done) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer?: NodeJS.Timeout;
}

/**
 * A small pool of workers, each reading ONE workbook at a time, so that a workbook that runs
 * out of time or memory takes down only its own worker and job: that worker is terminated (its
 * heap given back) and the next job starts a fresh one. Two, for the two CPUs of the machines we
 * run on; each is ~100–120 MB of RSS once its code is loaded, plus the workbook it reads.
 * Starting one costs 1.5 s here (several under load), so the first is started with the server
 * and kept; a second starts only when the first is busy.
 */
const MAX_WORKERS = 2;
/**
 * Old-generation heap of a worker. A 10,000-row workbook peaks at ~150 MB; with the unzipped
 * size capped at 50 MB the whole-model fallback stays below this too. A workbook that still
 * needs more ends its worker with ERR_WORKER_OUT_OF_MEMORY (413) instead of growing the process.
 */
const WORKER_HEAP_MB = 512;
/**
 * Reading a workbook makes millions of short-lived strings and objects (the XML parser's): with
 * V8's default young generation (16 MB) the worker spent a quarter of its time collecting them.
 * 64 MB: a 10,000-row read in ~320 ms instead of ~350–440 (medians of 10, same file).
 */
const WORKER_YOUNG_MB = 64;
/** A worker whose heap has grown past this after a job is replaced (a 10,000-row job: ~100 MB). */
const RECYCLE_HEAP_MB = 200;
const DEFAULT_TIME_LIMIT_MS = 60_000;

const slots: Slot[] = [];
const queue: Job[] = [];
let nextId = 1;
/** Users with a workbook being read by this process. */
const busyUsers = new Set<number>();

function startSlot(): Slot {
  // A .mjs entry: a worker starts as plain Node, and the entry makes sure TypeScript loads
  // (under `node --import tsx` and under Vitest alike).
  const worker = new Worker(new URL('./workbook-import.worker.mjs', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
  });
  const slot: Slot = { worker, job: null };
  worker.on('message', (msg: WorkerReply) => {
    const job = slot.job;
    if (!job || msg.id !== job.message.id) return;
    if ('tickets' in msg) {
      for (const t of msg.tickets) job.tickets.push(t);
      worker.postMessage({ id: msg.id, next: true } satisfies WorkerNext);
      return;
    }
    finish(slot);
    if ('done' in msg) job.resolve({ ...msg, tickets: job.tickets });
    else if (msg.error.statusCode) job.reject(new AppError(msg.error.statusCode, msg.error.message, msg.error.fields, msg.error.code));
    else job.reject(new Error(`workbook read failed: ${msg.error.message}`));
    // V8 keeps a heap it has grown: after a heavy workbook the memory goes back only with the
    // thread ("never given back"). A fresh worker takes its place.
    if ((msg.heapMb ?? 0) > RECYCLE_HEAP_MB) {
      retire(slot);
      if (slots.length === 0) startSlot();
    }
    dispatch();
  });
  const lost = (err: Error) => {
    const job = slot.job;
    retire(slot);
    if (job) {
      const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      job.reject(outOfMemory ? new AppError(413, MSG.excelTooLarge(megabytesOf(job.message.limits))) : err);
    }
    dispatch();
  };
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`workbook worker exited (code ${code})`)));
  // Idle, it must not keep the process alive.
  worker.unref();
  slots.push(slot);
  return slot;
}

const megabytesOf = (limits: WorkbookLimits) => Math.round(limits.maxUnzippedBytes / (1024 * 1024));

/** The slot's job is over: stop its clock, free the slot. */
function finish(slot: Slot) {
  clearTimeout(slot.timer);
  slot.job = null;
  slot.worker.unref();
}

/** Take a worker out of the pool for good (it timed out, ran out of memory or died). */
function retire(slot: Slot) {
  finish(slot);
  const i = slots.indexOf(slot);
  if (i >= 0) slots.splice(i, 1);
  slot.worker.removeAllListeners('message');
  void slot.worker.terminate();
}

/** Hand queued jobs to idle workers, starting one when allowed. */
function dispatch() {
  while (queue.length) {
    const slot = slots.find((s) => !s.job) ?? (slots.length < MAX_WORKERS ? startSlot() : undefined);
    if (!slot) return;
    const job = queue.shift()!;
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => {
      // Stopping the thread is the only way to stop exceljs mid-file; the heap goes with it.
      retire(slot);
      job.reject(unprocessable(MSG.excelTimedOut(job.timeLimitMs / 1000), ERROR_CODE.workbookLimit));
      dispatch();
    }, job.timeLimitMs);
    slot.worker.postMessage(job.message);
  }
}

/** Starts the first worker ahead of the first workbook (the server calls it once it listens). */
export function startWorkbookWorker(): void {
  if (slots.length === 0) startSlot();
}

async function runOffThread(buf: Buffer, task: WorkerTask, options: ImportOptions = {}): Promise<Done> {
  const { userId } = options;
  if (userId !== undefined) {
    // One workbook per user at a time: a second one (another tab, a double click) would only
    // double the memory and wait behind the first.
    if (busyUsers.has(userId)) throw tooMany(MSG.excelImportBusy);
    busyUsers.add(userId);
  }
  try {
    return await new Promise<Done>((resolve, reject) => {
      queue.push({
        // A copy of just the file's bytes (a Buffer may be a view into a larger memory block,
        // and a view is cloned with all of it); the caller's buffer stays usable.
        message: { id: nextId++, buf: new Uint8Array(buf), task, limits: options.limits ?? DEFAULT_WORKBOOK_LIMITS },
        timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
        tickets: [],
        resolve,
        reject,
      });
      dispatch();
    });
  } finally {
    if (userId !== undefined) busyUsers.delete(userId);
  }
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
export async function workbookImportOffThread(buf: Buffer, req: WorkbookImportRequest, options?: ImportOptions): Promise<WorkbookDrafts> {
  const done = await runOffThread(buf, { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets: done.tickets, library: done.library ?? [] };
}

/** `sheetUploadOf` in the worker: the same result, the same AppErrors. */
export async function sheetUploadOffThread(buf: Buffer, req: SheetUploadRequest, options?: ImportOptions): Promise<WorkbookImport> {
  const done = await runOffThread(buf, { kind: 'sheet', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets: done.tickets, library: done.library ?? [], errors: done.errors ?? [] };
}

/** getColumns' header lists (422 when there are too few), read in the worker. */
export async function workbookColumnsOffThread(buf: Buffer, options?: ImportOptions): Promise<WorkbookColumns> {
  return (await runOffThread(buf, { kind: 'columns' }, options)).columns!;
}

/** The header lists of a spreadsheet upload (422 with too few ticket columns; the library sheet is optional). */
export async function sheetColumnsOffThread(buf: Buffer, options?: ImportOptions): Promise<WorkbookColumns> {
  return (await runOffThread(buf, { kind: 'columns', sheet: true }, options)).columns!;
}
