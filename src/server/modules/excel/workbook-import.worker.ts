import { parentPort } from 'node:worker_threads';
import { runWorkerJob, type WorkerJob, type WorkerNext, type WorkerReply } from './workbook-import';

/**
 * The workbook worker (see workbook-import.ts): one job per message. Its replies wait here and
 * go out one at a time, each when the server thread asks for the next.
 */
const port = parentPort!;
const waiting = new Map<number, WorkerReply[]>();

function sendNext(id: number) {
  const replies = waiting.get(id);
  const reply = replies?.shift();
  if (!reply) return;
  if (replies!.length === 0) {
    waiting.delete(id);
    // The last reply of a job says how big this worker's heap has grown (the server replaces
    // a worker that kept a large one).
    if ('done' in reply || 'error' in reply) reply.heapMb = Math.round(process.memoryUsage().heapTotal / (1024 * 1024));
  }
  port.postMessage(reply);
}

port.on('message', async (msg: WorkerJob | WorkerNext) => {
  if ('next' in msg) return sendNext(msg.id);
  waiting.set(msg.id, await runWorkerJob(msg));
  sendNext(msg.id);
});
