import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import autocannon, { unreadBodiesSkipped } from './load-client';

// The bench's load generator: replies nobody reads are not decoded, replies a test reads arrive whole.
describe('bench load client', () => {
  let server: Server;
  let origin: string;
  const big = Buffer.alloc(100_000, 0xe9); // not valid UTF-8 on its own, as a brotli reply is not
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.method === 'PUT') return res.end(JSON.stringify({ ticket: { version: 7 }, pad: 'x'.repeat(70_000) }));
      res.end(big);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('applies to this autocannon', () => {
    expect(unreadBodiesSkipped).toBe(true);
  });

  it('keeps no body for a request without onResponse', () => {
    const Queue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js');
    const queue = new Queue();
    queue.insertRequest({ method: 'GET' });
    queue.addBody(big);
    expect(queue.peek().body).toBe('');
    queue.terminateRequest();
    queue.insertRequest({ method: 'PUT', onResponse: () => {} });
    queue.addBody(Buffer.from('{"a":'));
    queue.addBody(Buffer.from('1}'));
    expect(queue.peek().body).toBe('{"a":1}');
  });

  it('hands a read reply over whole, across the chunks it arrives in', async () => {
    const versions: number[] = [];
    const result = await autocannon({
      url: origin,
      connections: 2,
      amount: 6,
      requests: [
        {
          method: 'PUT',
          path: '/',
          onResponse: (status, body) => versions.push(status === 200 ? (JSON.parse(body) as { ticket: { version: number } }).ticket.version : -1),
        },
      ],
    });
    expect(result.non2xx).toBe(0);
    expect(versions).toEqual([7, 7, 7, 7, 7, 7]);
    const unread = await autocannon({ url: origin, connections: 2, amount: 6 });
    expect(unread['2xx']).toBe(6);
    expect(unread.throughput.total).toBeGreaterThan(6 * big.length);
  });
});
