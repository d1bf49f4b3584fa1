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
  type ParsedSheet,
  type SheetChoice,
  type TicketDraft,
  type TicketsMappings,
  type UnitDraft,
  type WorkbookColumns,
  type WorkbookImport,
} from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { ERROR_CODE, type ErrorCode } from '../../../shared/error-codes';
import { AppError, tooMany, unprocessable } from '../../errors';
import { importErrors, mergeContinued, startConversion, workbookToImport, type Conversion, type SheetHeader } from './convert';
import {
  DEFAULT_WORKBOOK_LIMITS,
  READ_DEADLINE_MS,
  assertEnoughColumns,
  assertTicketColumns,
  columnsOf,
  parseWorkbook,
  sniffFormat,
  withDeadline,
  xlsxEntries,
  type WorkbookLimits,
} from './workbook';
import { streamXlsx } from './xlsx';
import type { SheetRows } from './header';

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
  /** The sheets picked on the mapping step (DESIGN §7.5). */
  sheets?: SheetChoice;
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
  const parsed = await parseWorkbook(buf, limits, req.sheets);
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
  sheets?: SheetChoice;
}

/**
 * The spreadsheet upload of a job: parse (422 when unreadable or with too few ticket columns),
 * the sent mapping or the default one, the library sheet too when it is mapped (sent, or every
 * required default column found), convert. Row problems come back in `errors`, not thrown: the
 * route lists every rejected row. Pure: what the worker runs.
 */
export async function sheetUploadOf(buf: Buffer, req: SheetUploadRequest, limits?: WorkbookLimits): Promise<WorkbookImport> {
  const parsed = await parseWorkbook(buf, limits, req.sheets);
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
// The streamed import

/**
 * Tickets per batch. A batch is cloned on the worker and deserialised on the server thread in
 * one piece: 250 tickets (~1,000 task rows) take a few milliseconds, and other requests are
 * served between two batches.
 */
const TICKETS_PER_MESSAGE = 250;

/**
 * Drafts as the worker sends them: the library with the first batch (and with a restart), then
 * tickets, a later part of a ticket already sent marked `continued` (mergeContinued).
 */
export interface DraftBatch {
  tickets: TicketDraft[];
  library?: UnitDraft[];
  /** Every ticket sent before this batch is void: the file is being read again from its start. */
  restart?: true;
}

/** The collected drafts in batches: the library with the first one, which is always sent. */
function batchesOf(tickets: TicketDraft[], library: UnitDraft[], restart: boolean, send: (b: DraftBatch) => void) {
  for (let i = 0; i === 0 || i < tickets.length; i += TICKETS_PER_MESSAGE) {
    const batch: DraftBatch = { tickets: tickets.slice(i, i + TICKETS_PER_MESSAGE) };
    if (i === 0) batch.library = library;
    if (i === 0 && restart) batch.restart = true;
    send(batch);
  }
}

/**
 * A job save's import, sent in batches while the file is read (the server writes one batch
 * while the next is read): the library sheet first, then the tickets as their rows convert.
 * Throws what workbookImportOf throws, after the same checks in the same order: the read goes
 * to its end before a problem of the columns or the rows is answered (a limit reached further
 * down is the answer then), and no batch is sent once a row has a problem. When the streaming
 * reader cannot read the file after batches went out, the whole-workbook loader reads it and
 * its batches start with `restart`. `failAfterRows` makes the streaming reader fail there
 * (tests of that path).
 */
export async function streamWorkbookImport(
  buf: Buffer,
  req: WorkbookImportRequest,
  limits: WorkbookLimits,
  send: (b: DraftBatch) => void,
  failAfterRows?: number,
): Promise<void> {
  let sent = false;
  if (sniffFormat(buf) === 'xlsx') {
    const entries = await xlsxEntries(buf, limits);
    let libSheet: ParsedSheet | null = null;
    let conversion: Conversion | undefined;
    let library: { units: UnitDraft[]; errors: ImportError[] } | undefined;
    let refused: AppError | undefined;
    let rows = 0;
    /** Past the deadline the read may still run: nothing of it may be sent beside the fallback's. */
    let abandoned = false;
    const start = (sheet: SheetRows) => {
      const header: SheetHeader = { name: sheet.name, headerRow: sheet.headerRow, columns: sheet.columns, ...sheet.reading };
      try {
        assertEnoughColumns({ format: 'xlsx', tickets: { ...header, rows: [] }, library: libSheet });
        const c = startConversion(header, libSheet, req.ticketsMappings, req.libraryMappings, req.overrides);
        if ('errors' in c) throw unprocessable(formatImportErrors(c.errors));
        conversion = c;
        library = c.library(libSheet?.rows ?? []);
      } catch (err) {
        refused = err as AppError;
      }
    };
    const flush = () => {
      if (!conversion || !library || conversion.tickets.errors.length || library.errors.length) return;
      send(sent ? { tickets: conversion.tickets.takeChanges() } : { tickets: conversion.tickets.takeChanges(), library: library.units });
      sent = true;
    };
    try {
      const tickets = await withDeadline(
        streamXlsx(buf, limits, entries, {
          library: (sheet) => (libSheet = sheet),
          header: start,
          row: ({ row, cells }) => {
            if (abandoned) throw new Error('abandoned at the deadline');
            if (failAfterRows !== undefined && ++rows > failAfterRows) throw new Error('streaming reader failed (test)');
            conversion?.tickets.add(row, cells);
            if ((conversion?.tickets.changes ?? 0) >= TICKETS_PER_MESSAGE) flush();
          },
        }, req.sheets),
        READ_DEADLINE_MS,
      );
      if (!tickets.headerRow) start(tickets);
      if (refused) throw refused;
      const errors = importErrors(conversion!.tickets.errors, library!.errors);
      assertImportOk({ tickets: conversion!.tickets.all(), library: [], errors });
      flush();
      return;
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Not readable as a stream: the whole-workbook loader's turn (workbookImportOf falls back to it).
      abandoned = true;
    }
  }
  const { tickets, library } = await workbookImportOf(buf, req, limits);
  batchesOf(tickets, library, sent, send);
}

// ---------------------------------------------------------------------------------------------
// Worker protocol

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
 * (3 runs each): GET /health's max 37–68 ms at the default priority, 29–38 ms at 19, the import
 * as fast.
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

/**
 * How a workbook is read on behalf of a user: the limits of the file, the time its
 * worker may spend on it, and who asks (one workbook per user at a time).
 */
export interface ImportOptions {
  userId?: number;
  limits?: WorkbookLimits;
  timeLimitMs?: number;
}

type Done = Extract<WorkerReply, { done: true }>;

interface Job {
  message: WorkerJob;
  timeLimitMs: number;
  /** A batch arrived; `take` tells the worker the server thread is done with it. */
  onBatch: (batch: DraftBatch, take: () => void) => void;
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
    if ('batch' in msg) {
      const taken = new Int32Array(job.message.taken);
      try {
        job.onBatch(msg.batch, () => {
          Atomics.add(taken, 0, 1);
          Atomics.notify(taken, 0);
        });
      } catch (err) {
        // A batch that cannot be taken (a continuation of nothing) ends the job, not the process.
        retire(slot);
        job.reject(err as Error);
        dispatch();
      }
      return;
    }
    finish(slot);
    if ('done' in msg) job.resolve(msg);
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

/**
 * Queue a job for the pool; `onBatch` gets its batches. One workbook per user at a time: a
 * second one (another tab, a double click) would only double the memory and wait behind the
 * first (429). The clock (timeLimitMs) runs from the job's start to its last reply, so for a
 * streamed import it also covers the time the server thread takes to write its batches.
 */
function startOffThread(buf: Buffer, task: WorkerTask, options: ImportOptions, onBatch: Job['onBatch']): Promise<Done> {
  const { userId } = options;
  if (userId !== undefined) {
    if (busyUsers.has(userId)) throw tooMany(MSG.excelImportBusy);
    busyUsers.add(userId);
  }
  const done = new Promise<Done>((resolve, reject) => {
    queue.push({
      // A copy of just the file's bytes (a Buffer may be a view into a larger memory block,
      // and a view is cloned with all of it); the caller's buffer stays usable.
      message: { id: nextId++, buf: new Uint8Array(buf), task, limits: options.limits ?? DEFAULT_WORKBOOK_LIMITS, taken: new SharedArrayBuffer(4) },
      timeLimitMs: options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS,
      onBatch,
      resolve,
      reject,
    });
    dispatch();
  });
  return userId === undefined ? done : done.finally(() => busyUsers.delete(userId));
}

/** A job run to its end, its batches folded into whole drafts (a restart starts them over). */
async function collectOffThread(buf: Buffer, task: WorkerTask, options: ImportOptions = {}): Promise<Done & { tickets: TicketDraft[]; library: UnitDraft[] }> {
  let tickets: TicketDraft[] = [];
  let library: UnitDraft[] = [];
  const byKey = new Map<string, TicketDraft>();
  const done = await startOffThread(buf, task, options, (batch, take) => {
    if (batch.restart) {
      tickets = [];
      byKey.clear();
    }
    if (batch.library) library = batch.library;
    for (const t of batch.tickets) {
      const continues = t.continued ? byKey.get(t.key) : undefined;
      if (t.continued && !continues) throw new Error(`a continuation of ticket '${t.key}', which was never sent`);
      if (continues) mergeContinued(continues, t);
      else {
        tickets.push(t);
        byKey.set(t.key, t);
      }
    }
    take();
  });
  return { ...done, tickets, library };
}

/**
 * A job's batches as they come, for a consumer that works on each before it takes the next
 * (the staged import writes it). The job starts at once. When the consumer stops early, the
 * worker runs on to its end unthrottled and what it still sends is dropped. The job's error
 * (a 422 naming rows, a limit) is thrown after the batches that came before it.
 */
class BatchStream implements AsyncIterable<DraftBatch> {
  private readonly waiting: { batch: DraftBatch; take: () => void }[] = [];
  private end?: { error?: unknown };
  private wake?: () => void;
  private stopped = false;

  constructor(start: (onBatch: Job['onBatch']) => Promise<Done>) {
    start((batch, take) => {
      if (this.stopped) return take();
      this.waiting.push({ batch, take });
      this.wake?.();
    }).then(
      () => this.finish({}),
      (error: unknown) => this.finish({ error }),
    );
  }

  private finish(end: { error?: unknown }) {
    this.end = end;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<DraftBatch> {
    try {
      for (;;) {
        const next = this.waiting.shift();
        if (next) {
          yield next.batch;
          next.take();
        } else if (this.end) {
          if (this.end.error !== undefined) throw this.end.error;
          return;
        } else {
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = undefined;
        }
      }
    } finally {
      this.stopped = true;
      for (const w of this.waiting.splice(0)) w.take();
    }
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
  const { tickets, library } = await collectOffThread(buf, { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets, library };
}

/**
 * The same drafts in batches as the worker converts them (streamWorkbookImport), for the staged
 * import of a new job. Reading starts now; a second workbook of the same user throws 429 here.
 */
export function workbookImportBatches(buf: Buffer, req: WorkbookImportRequest, options: ImportOptions = {}): AsyncIterable<DraftBatch> {
  const task: WorkerTask = { kind: 'import', req: { ...req, overrides: overridesOf(req.overrides) } };
  return new BatchStream((onBatch) => startOffThread(buf, task, options, onBatch));
}

/** `sheetUploadOf` in the worker: the same result, the same AppErrors. */
export async function sheetUploadOffThread(buf: Buffer, req: SheetUploadRequest, options?: ImportOptions): Promise<WorkbookImport> {
  const done = await collectOffThread(buf, { kind: 'sheet', req: { ...req, overrides: overridesOf(req.overrides) } }, options);
  return { tickets: done.tickets, library: done.library, errors: done.errors ?? [] };
}

/** getColumns' header lists (422 when there are too few), read in the worker. */
export async function workbookColumnsOffThread(buf: Buffer, options?: ImportOptions, sheets?: SheetChoice): Promise<WorkbookColumns> {
  return (await collectOffThread(buf, { kind: 'columns', sheets }, options)).columns!;
}

/** The header lists of a spreadsheet upload (422 with too few ticket columns; the library sheet is optional). */
export async function sheetColumnsOffThread(buf: Buffer, options?: ImportOptions, sheets?: SheetChoice): Promise<WorkbookColumns> {
  return (await collectOffThread(buf, { kind: 'columns', sheet: true, sheets }, options)).columns!;
}
