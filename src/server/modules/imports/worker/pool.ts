import { Worker } from 'node:worker_threads';
import { MSG } from '../../../../shared/messages';
import { ERROR_CODE } from '../../../../shared/error-codes';
import { AppError, tooMany, unprocessable } from '../../../errors';
import { DEFAULT_WORKBOOK_LIMITS, type WorkbookLimits } from '../read/workbook';
import type { WorkerJob, WorkerReply, WorkerTask } from './protocol';
import type { DraftBatch } from './stream';

/**
 * How a workbook is read on behalf of a user: the limits of the file, the time its
 * worker may spend on it, and who asks (one workbook per user at a time).
 */
export interface ImportOptions {
  userId?: number;
  limits?: WorkbookLimits;
  timeLimitMs?: number;
}

export type Done = Extract<WorkerReply, { done: true }>;

export interface Job {
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
 * run on; each holds its loaded code (about 100 MB of RSS) plus the workbook it reads.
 * Starting one takes long enough to notice (module loading), so the first is started with the server
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
 * 64 MB made a 10,000-row read measurably faster (medians of 10, same file).
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
export function startOffThread(buf: Buffer, task: WorkerTask, options: ImportOptions, onBatch: Job['onBatch']): Promise<Done> {
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
