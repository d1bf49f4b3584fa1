import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../shared/constants';
import type { Ticket } from '../shared/tickets.schemas';
import { idempotencyKeys } from './db/schema/index';
import { createTestApp, type TestApp } from './test/harness';

/**
 * The app compresses its API replies (app.ts): a crew on one bar of signal pays for every byte
 * of My Work (< 50 KB on a repeat visit: docs/product/scale.md §3). Real app, real database; the bytes are
 * inflated here with zlib and compared with the plain reply.
 */
const API = '/api/v1';
let t: TestApp;
let admin: string;
let j1: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin] = await t.loginAs('admin');
  j1 = (await t.demo()).job['J-1001'];
});

describe('API replies', () => {
  it('come gzipped or brotli-compressed when the client takes it, and inflate to the plain reply', async () => {
    const plain = await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const gz = await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(plain.json());

    const br = await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(plain.json());
  });

  it('leave small replies and the job page (compressed once per change) as they are', async () => {
    const small = await t.request({ url: `${API}/health`, headers: { 'accept-encoding': 'gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ ok: true });

    const job = await t.request({ url: `${API}/jobs/${j1}`, token: admin, headers: { 'accept-encoding': 'gzip' } });
    expect(job.headers['content-encoding']).toBe('gzip');
    // Compressed once, not twice: one gunzip gives the JSON.
    expect(JSON.parse(gunzipSync(job.rawPayload).toString('utf8')).id).toBe(j1);
  });

  it('do not compress what the idempotency store keeps: a replay is the first reply, in any encoding', async () => {
    const [first] = (await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin })).json() as Ticket[];
    const key = `compress-${Date.now()}`;
    const description = 'x'.repeat(2000); // a reply well over the 1 KB threshold
    const body = { ticket: { job_id: j1, pole: { id: first.pole_id }, description } };
    const made = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body, headers: { [IDEMPOTENCY_KEY_HEADER]: key, 'accept-encoding': 'gzip' } });
    expect(made.statusCode).toBe(200);
    expect(made.headers['content-encoding']).toBe('gzip');
    const madeJson = JSON.parse(gunzipSync(made.rawPayload).toString('utf8'));

    const [row] = await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(JSON.parse(Buffer.from(row.body!).toString('utf8'))).toEqual(madeJson);

    const replay = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
    expect(replay.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(replay.headers['content-encoding']).toBeUndefined();
    expect(replay.json()).toEqual(madeJson);
  });

  it('are not inflated on the way in: a gzip-encoded request body is refused, not unpacked', async () => {
    const res = await t.request({
      method: 'PUT',
      url: `${API}/tickets/`,
      token: admin,
      headers: { 'content-encoding': 'gzip', 'content-type': 'application/json' },
      body: { ticket: { job_id: j1 } },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
