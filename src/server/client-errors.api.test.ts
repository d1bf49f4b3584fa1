import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../shared/messages';
import { createTestApp } from './test/harness';

/**
 * Errors Node's HTTP parser raises before Fastify has a request (431 request line or headers too
 * large, 400 not HTTP) must still have the documented shape `{error, status}` (docs/product/api.md §1.3), with a
 * message a person can act on. Over a real socket: app.inject never reaches the HTTP parser.
 */
const t = await createTestApp();
let port = 0;
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});

/** Sends raw bytes and returns the status and the parsed JSON body of the reply. */
function raw(request: string): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const type = /content-type: *([^\r\n]+)/i.exec(head)?.[1] ?? '';
      try {
        resolve({ status, type, body: JSON.parse(rest.join('\r\n\r\n')) });
      } catch {
        reject(new Error(`not JSON: ${data}`));
      }
    });
  });
}

describe('errors of the HTTP parser', () => {
  it('answers a request line too long with 431 {error, status}', async () => {
    const res = await raw(`GET /api/v1/jobs?search=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.type).toMatch(/application\/json/);
    expect(res.body).toEqual({ error: MSG.requestHeadersTooLarge, status: MSG.requestHeadersTooLarge });
  });

  it('answers headers too large with the same 431', async () => {
    const res = await raw(`GET /api/v1/health HTTP/1.1\r\nHost: localhost\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body.error).toBe(MSG.requestHeadersTooLarge);
  });

  it('answers bytes that are not HTTP with 400 {error, status}', async () => {
    const res = await raw('HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: MSG.requestNotHttp, status: MSG.requestNotHttp });
  });
});
