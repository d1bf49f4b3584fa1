import { Worker } from 'node:worker_threads';
import type { InvoiceFileInput } from './invoice-files';

/**
 * Invoice files are built on a worker thread: a 5,000-line invoice takes seconds of pure CPU in
 * pdfmake (≈10 s for the PDF, ≈4 s for the XLSX on a busy 2-core machine), and on the server's
 * own thread every other request would wait that long. One worker per process, started on the
 * first download and kept; a worker that dies is replaced on the next one. It never keeps the
 * process alive (unref).
 */

export interface FileJob {
  id: number;
  kind: 'xlsx' | 'pdf';
  input: InvoiceFileInput;
}
export type FileReply = { id: number; bytes: ArrayBuffer } | { id: number; error: string };

let worker: Worker | null = null;
let seq = 0;
const pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function start(): Worker {
  const w = new Worker(new URL('./invoice-files.worker.mjs', import.meta.url));
  w.unref();
  w.on('message', (reply: FileReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if ('error' in reply) p.reject(new Error(`The invoice file could not be built: ${reply.error}`));
    else p.resolve(Buffer.from(reply.bytes));
  });
  const gone = (err: Error) => {
    if (worker === w) worker = null;
    failAll(err);
  };
  w.on('error', gone);
  w.on('exit', (code) => gone(new Error(`the invoice file worker stopped (exit ${code})`)));
  return w;
}

/** The invoice as an .xlsx or a .pdf, built off the event loop. */
export function buildInvoiceFile(kind: 'xlsx' | 'pdf', input: InvoiceFileInput): Promise<Buffer> {
  worker ??= start();
  const id = ++seq;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker!.postMessage({ id, kind, input } satisfies FileJob);
  });
}
