import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { MAX_AHEAD, WORKER_NICE, runWorkerJob, type WorkerJob } from './protocol';
import type { DraftBatch } from './stream';

/**
 * The workbook worker (see pool.ts): one job per message. Its batches go out as they
 * are made, the worker waiting (Atomics.wait: it has nothing else to do) whenever it is
 * MAX_AHEAD batches ahead of what the server thread has taken.
 */
const port = parentPort!;

// Lowest priority (WORKER_NICE). Linux gives each thread its own nice value (setpriority on the
// thread's id); elsewhere this does nothing.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid)) setPriority(tid, WORKER_NICE);
} catch {
  // No /proc: not Linux, the scheduler's default.
}

port.on('message', async (job: WorkerJob) => {
  const taken = new Int32Array(job.taken);
  let sent = 0;
  const send = (batch: DraftBatch) => {
    port.postMessage({ id: job.id, batch });
    sent++;
    for (;;) {
      const took = Atomics.load(taken, 0);
      if (sent - took <= MAX_AHEAD) return;
      Atomics.wait(taken, 0, took);
    }
  };
  const last = await runWorkerJob(job, send);
  // The last reply of a job says how big this worker's heap has grown (the server replaces a
  // worker that kept a large one).
  if ('done' in last || 'error' in last) last.heapMb = Math.round(process.memoryUsage().heapTotal / (1024 * 1024));
  port.postMessage(last);
});
