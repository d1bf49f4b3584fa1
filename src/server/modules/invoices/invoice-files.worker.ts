import { parentPort } from 'node:worker_threads';
import { invoicePdf, invoiceXlsx } from './invoice-files';
import type { FileJob, FileReply } from './invoice-files-thread';

/** Builds one invoice file per message, off the server's thread (see invoice-files-thread.ts). */
const port = parentPort!;
port.on('message', async (job: FileJob) => {
  let reply: FileReply;
  try {
    const buf = job.kind === 'xlsx' ? await invoiceXlsx(job.input) : await invoicePdf(job.input);
    // A copy the size of the file, handed over without another copy (transferred).
    const bytes = new Uint8Array(buf).slice().buffer;
    reply = { id: job.id, bytes };
    port.postMessage(reply, [bytes]);
  } catch (err) {
    reply = { id: job.id, error: (err as Error).message };
    port.postMessage(reply);
  }
});
