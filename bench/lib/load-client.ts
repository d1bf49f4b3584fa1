/**
 * autocannon, the bench's load generator, without the one cost of its own that lands on the
 * server's figures: autocannon 9 appends every response body to a string (`req.body += chunk` in
 * lib/pipelinedRequestsQueue.js), whether or not anything reads it. The big job's reply is 90 KB
 * of brotli; decoding it as UTF-8 took ~1 ms of CPU per request, on the same two cores as the
 * server and PostgreSQL. Measured on PostgreSQL, server unchanged, three alternating pairs: route
 * p50 at 10 clients 17–20 ms with it, 11–12 ms without; req/s 520 → 790; autocannon's own CPU
 * 560–630 → 130–140 ms per second (/proc). A browser decodes its reply on its own machine.
 *
 * A request that reads its reply (`onResponse`: the ticket-save load test reads each new
 * version) still gets the body, exactly as before.
 */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

interface Pending {
  req?: { onResponse?: unknown };
  body: string;
}
interface PipelinedRequestsQueue {
  prototype: { peek(): Pending | undefined; addBody(data: Buffer): void };
}

function keepOnlyReadBodies(): boolean {
  try {
    const queue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as PipelinedRequestsQueue;
    const proto = queue.prototype;
    if (typeof proto?.addBody !== 'function' || typeof proto.peek !== 'function') return false;
    proto.addBody = function addBody(this: typeof proto, data: Buffer) {
      const pending = this.peek();
      if (pending && typeof pending.req?.onResponse === 'function') pending.body += data;
    };
    return true;
  } catch {
    return false;
  }
}

/**
 * false when autocannon's internals moved (another version): every body is then decoded as
 * before, and the report says so beside its load figures.
 */
export const unreadBodiesSkipped = keepOnlyReadBodies();

export default autocannon;
export type { RequestSpec } from 'autocannon';
