import { parentPort } from 'node:worker_threads';
import { exportXlsx } from './export-xlsx';
import type { XlsxJob, XlsxReply } from './export-xlsx-thread';

/** Builds one export workbook per message, off the server's thread (see export-xlsx-thread.ts). */
const port = parentPort!;
port.on('message', async (job: XlsxJob) => {
  let reply: XlsxReply;
  try {
    const buf = await exportXlsx(job.table);
    // A copy the size of the file, handed over without another copy (transferred).
    const bytes = new Uint8Array(buf).slice().buffer;
    reply = { id: job.id, bytes };
    port.postMessage(reply, [bytes]);
  } catch (err) {
    reply = { id: job.id, error: (err as Error).message };
    port.postMessage(reply);
  }
});
