import { parentPort, Worker } from 'node:worker_threads';

/**
 * Files built on a worker thread (invoice XLSX and PDF, export workbooks): thousands of lines
 * are seconds of pure CPU in exceljs or pdfmake on a busy 2-core machine, and on the server's
 * own thread every other request would wait that long. One worker per kind of file and process,
 * started on the first request and kept; a worker that dies is replaced on the next one. It
 * never keeps the process alive (unref).
 */

interface Request<Job> {
  id: number;
  job: Job;
}
type Reply = { id: number; bytes: ArrayBuffer } | { id: number; error: string };

/**
 * The server's side: `entry` is the worker's .mjs entry (a worker starts as plain Node and loads
 * its TypeScript through tsx); `what` names the file in errors ("the invoice file").
 */
export function fileThread<Job>(entry: URL, what: string): (job: Job) => Promise<Buffer> {
  let worker: Worker | null = null;
  let seq = 0;
  const pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

  const start = (): Worker => {
    const w = new Worker(entry);
    w.unref();
    w.on('message', (reply: Reply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(`${what[0].toUpperCase()}${what.slice(1)} could not be built: ${reply.error}`));
      else p.resolve(Buffer.from(reply.bytes));
    });
    const gone = (err: Error) => {
      if (worker === w) worker = null;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    w.on('error', gone);
    w.on('exit', (code) => gone(new Error(`${what} worker stopped (exit ${code})`)));
    return w;
  };

  return (job) => {
    worker ??= start();
    const id = ++seq;
    return new Promise<Buffer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker!.postMessage({ id, job } satisfies Request<Job>);
    });
  };
}

/** The worker's side: builds one file per message with `build`. */
export function serveFiles<Job>(build: (job: Job) => Promise<Buffer>): void {
  const port = parentPort!;
  port.on('message', async ({ id, job }: Request<Job>) => {
    try {
      const buf = await build(job);
      // A copy the size of the file, handed over without another copy (transferred).
      const bytes = new Uint8Array(buf).slice().buffer;
      port.postMessage({ id, bytes } satisfies Reply, [bytes]);
    } catch (err) {
      port.postMessage({ id, error: (err as Error).message } satisfies Reply);
    }
  });
}
