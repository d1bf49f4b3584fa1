import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { sleep } from './common';

/**
 * A TCP relay on 127.0.0.1 in front of the server that counts the bytes the server sends (HTTP
 * headers and bodies, as they cross the wire). The browser of the field figures talks to the
 * server through it: it sees what DevTools does not report, such as the browser's own update
 * check of /sw.js, which belongs to no page and no running worker.
 */
export interface WireCounter {
  origin: string;
  /** Bytes sent by the server since the relay started. */
  down(): number;
  /** Until no byte has moved for quietMs (at most maxMs). */
  quiet(quietMs: number, maxMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** `port`: where the relay listens (default: a free one). */
export async function countingRelay(targetPort: number, port = 0): Promise<WireCounter> {
  let down = 0;
  let last = performance.now();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    upstream.on('data', (chunk: Buffer) => {
      down += chunk.length;
      last = performance.now();
    });
    client.on('data', () => (last = performance.now()));
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    down: () => down,
    async quiet(quietMs, maxMs) {
      const deadline = performance.now() + maxMs;
      while (performance.now() < deadline) {
        if (performance.now() - last >= quietMs) return true;
        await sleep(100);
      }
      return false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
