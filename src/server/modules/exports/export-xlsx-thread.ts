import { Worker } from 'node:worker_threads';
import type { ExportTable } from '../../../shared/export';

/**
 * Export workbooks are built on a worker thread, as invoice files are (invoice-files-thread.ts):
 * the 5,000-ticket bench job is ~15,000 unit rows, seconds of pure CPU in exceljs on a busy
 * 2-core machine, and on the server's own thread every other request would wait that long.
 * One worker per process, started on the first download and kept; a worker that dies is
 * replaced on the next one. It never keeps the process alive (unref).
 */

export interface XlsxJob {
  id: number;
  table: ExportTable;
}
export type XlsxReply = { id: number; bytes: ArrayBuffer } | { id: number; error: string };

let worker: Worker | null = null;
let seq = 0;
const pending = new Map<number, { resolve: (b: Buffer) => void; reject: (e: Error) => void }>();

function start(): Worker {
  const w = new Worker(new URL('./export-xlsx.worker.mjs', import.meta.url));
  w.unref();
  w.on('message', (reply: XlsxReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if ('error' in reply) p.reject(new Error(`The export workbook could not be built: ${reply.error}`));
    else p.resolve(Buffer.from(reply.bytes));
  });
  const gone = (err: Error) => {
    if (worker === w) worker = null;
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  w.on('error', gone);
  w.on('exit', (code) => gone(new Error(`the export workbook worker stopped (exit ${code})`)));
  return w;
}

/** The table as an .xlsx, built off the event loop. */
export function buildExportXlsx(table: ExportTable): Promise<Buffer> {
  worker ??= start();
  const id = ++seq;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    worker!.postMessage({ id, table } satisfies XlsxJob);
  });
}
