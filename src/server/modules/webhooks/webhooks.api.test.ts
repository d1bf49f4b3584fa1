import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { webhookCreateReply, webhookListReply, webhookLogReply, type WebhookEventType } from '../../../shared/webhooks.schemas';
import { openDatabase, rowsOf, type Db } from '../../db/client';
import { tickets, webhookDeliveries } from '../../db/schema/index';
import { withDatabase } from '../../test/global-setup';
import { createTestApp, dbKind } from '../../test/harness';
import { deliverDue, emitWebhookEvent, startWebhookWorker } from './webhooks.service';

/**
 * Webhooks (docs/product/integrations.md §4) through the app on a real database (PGlite, and
 * PostgreSQL with TEST_DATABASE_URL), delivered to a real HTTP receiver on loopback
 * (WEBHOOKS_ALLOW_PRIVATE=1), signatures checked as the Standard Webhooks spec describes.
 */
const t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: '1' } });
/** The same server as deployed: private addresses refused. */
const strict = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;
const tok: Record<string, string> = {};
let demoId: number;
let ngrid: number;

/** Every retry at once: tests do not wait for the real schedule. */
const now = { allowPrivate: true, retryDelaysMs: [0, 0, 0, 0, 0, 0, 0] };

// ---------------------------------------------------------------------------------------------
// A receiver on loopback, and the spec's verification written from its text

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

async function startReceiver(answer: (n: number, req: http.IncomingMessage) => number | Promise<number> = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = await answer(received.length, req);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Standard Webhooks "Verifying webhook authenticity": the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}`; the key is the secret without its `whsec_` prefix,
 * base64-decoded; the signature HMAC-SHA256, base64; the header a space-delimited list of
 * `v1,<signature>`, one match enough, compared in constant time; the timestamp within 5 minutes.
 */
function verifyStandardWebhook(secret: string, headers: http.IncomingHttpHeaders, body: string, nowSeconds = Date.now() / 1000): boolean {
  const id = headers['webhook-id'];
  const ts = headers['webhook-timestamp'];
  const sigs = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof ts !== 'string' || typeof sigs !== 'string') return false;
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 5 * 60) return false;
  const key = Buffer.from(secret.split('_')[1], 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`, 'utf8').digest();
  return sigs.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// ---------------------------------------------------------------------------------------------

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string | undefined, body?: unknown) =>
  t.request({ method, url: `${API}${url}`, token, body });

beforeAll(async () => {
  [tok.admin, tok.office, tok.foreman, tok.lineman, tok.other] = await t.loginAs('admin', 'office', 'foreman', 'lineman', 'other');
  const demo = await t.demo();
  demoId = demo.company;
  ngrid = demo.ngrid;
});

/** A new endpoint of the demo company for `events`, pointing at `url`: its id and secret. */
async function register(url: string, events: WebhookEventType[] = ['job.created', 'ticket.completed', 'ticket.reopened', 'invoice.created']) {
  const res = await api('POST', '/webhooks', tok.admin, { url, events });
  expect(res.statusCode, res.body).toBe(201);
  const reply = webhookCreateReply.parse(res.json());
  return { id: reply.webhook.id, secret: reply.secret };
}

/** Endpoints left by an earlier test would receive this test's events too: each test starts with none. */
async function clearEndpoints() {
  await db.execute(sql`delete from webhook_endpoints where company_id = ${demoId}`);
}

/** Runs delivery rounds until nothing is due (each round sends what is due now). */
async function deliverAll(database: Db = db) {
  for (let i = 0; i < 50 && (await deliverDue(database, now)) > 0; i++);
}

const bodies = (r: Received[]) => r.map((x) => JSON.parse(x.body) as { id: string; type: string; created_at: string; data: Record<string, unknown> });

async function pendingTicket(): Promise<Ticket> {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.companyId, demoId), isNull(tickets.actualCompletionDate), isNull(tickets.billedAt)))
    .orderBy(tickets.id)
    .limit(1);
  return (await api('GET', `/tickets/${row.id}`, tok.admin)).json() as Ticket;
}

async function setStatus(ticket: Ticket, status: 'Complete' | 'Pending'): Promise<Ticket> {
  const res = await api('PUT', '/tickets/', tok.foreman, { ticket: { id: ticket.id, version: ticket.version, status } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().ticket as Ticket;
}

describe('webhook endpoints', () => {
  it('an Admin registers an endpoint: the secret (whsec_…) is in that reply only; list, change, delete', async () => {
    await clearEndpoints();
    const res = await api('POST', '/webhooks', tok.admin, { url: 'http://127.0.0.1:9/a', events: ['ticket.completed', 'job.created'] });
    expect(res.statusCode, res.body).toBe(201);
    const { webhook, secret } = webhookCreateReply.parse(res.json());
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    // Stored in the events' order, whatever the order sent.
    expect(webhook).toMatchObject({ url: 'http://127.0.0.1:9/a', events: ['job.created', 'ticket.completed'], enabled: true });

    const list = await api('GET', '/webhooks', tok.admin);
    expect(list.statusCode).toBe(200);
    expect(webhookListReply.parse(list.json()).webhooks.map((w) => w.id)).toEqual([webhook.id]);
    expect(list.body).not.toContain(secret.slice(6));

    const patched = await api('PATCH', `/webhooks/${webhook.id}`, tok.admin, { enabled: false, events: ['invoice.created'] });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().webhook).toMatchObject({ enabled: false, events: ['invoice.created'], url: 'http://127.0.0.1:9/a' });
    expect(patched.body).not.toContain(secret.slice(6));

    const noEvents = await api('PATCH', `/webhooks/${webhook.id}`, tok.admin, { events: [] });
    expect(noEvents.statusCode).toBe(400);
    const badEvent = await api('POST', '/webhooks', tok.admin, { url: 'http://127.0.0.1:9/a', events: ['ticket.deleted'] });
    expect(badEvent.statusCode).toBe(400);

    expect((await api('DELETE', `/webhooks/${webhook.id}`, tok.admin)).statusCode).toBe(200);
    expect((await api('DELETE', `/webhooks/${webhook.id}`, tok.admin)).statusCode).toBe(404);
    expect(webhookListReply.parse((await api('GET', '/webhooks', tok.admin)).json()).webhooks).toEqual([]);
  });

  it("another company's endpoint answers 404 to every route, and is not changed", async () => {
    await clearEndpoints();
    const { id } = await register('http://127.0.0.1:9/ours');
    expect((await api('PATCH', `/webhooks/${id}`, tok.other, { enabled: false })).statusCode).toBe(404);
    expect((await api('DELETE', `/webhooks/${id}`, tok.other)).statusCode).toBe(404);
    expect((await api('GET', `/webhooks/${id}/deliveries`, tok.other)).statusCode).toBe(404);
    expect((await api('POST', `/webhooks/${id}/deliveries/1/resend`, tok.other)).statusCode).toBe(404);
    expect(webhookListReply.parse((await api('GET', '/webhooks', tok.other)).json()).webhooks).toEqual([]);
    const ours = webhookListReply.parse((await api('GET', '/webhooks', tok.admin)).json()).webhooks;
    expect(ours).toMatchObject([{ id, enabled: true }]);
  });

  it('roles other than Admin get 403 (an Office Manager, a Foreman, a Lineman)', async () => {
    await clearEndpoints();
    const { id } = await register('http://127.0.0.1:9/x');
    for (const role of ['office', 'foreman', 'lineman']) {
      expect((await api('GET', '/webhooks', tok[role])).statusCode, role).toBe(403);
      expect((await api('POST', '/webhooks', tok[role], { url: 'http://127.0.0.1:9/y', events: ['job.created'] })).statusCode, role).toBe(403);
      expect((await api('PATCH', `/webhooks/${id}`, tok[role], { enabled: false })).statusCode, role).toBe(403);
      expect((await api('DELETE', `/webhooks/${id}`, tok[role])).statusCode, role).toBe(403);
      expect((await api('GET', `/webhooks/${id}/deliveries`, tok[role])).statusCode, role).toBe(403);
    }
    expect(webhookListReply.parse((await api('GET', '/webhooks', tok.admin)).json()).webhooks).toHaveLength(1);
  });
});

describe('SSRF: private addresses are refused without WEBHOOKS_ALLOW_PRIVATE', () => {
  const post = async (url: string) => {
    const [admin] = await strict.loginAs('admin');
    return strict.request({ method: 'POST', url: `${API}/webhooks`, token: admin, body: { url, events: ['job.created'] } });
  };

  it('10.0.0.1, 127.0.0.1 and other loopback, private, link-local, CGNAT addresses answer 400 naming the address', async () => {
    for (const [url, address] of [
      ['https://10.0.0.1/hooks', '10.0.0.1'],
      ['https://127.0.0.1/hooks', '127.0.0.1'],
      ['https://172.16.5.4/', '172.16.5.4'],
      ['https://192.168.1.10/', '192.168.1.10'],
      ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
      ['https://100.64.0.1/', '100.64.0.1'],
      ['https://0.0.0.0/', '0.0.0.0'],
      ['https://[::1]/', '::1'],
      ['https://[fd12::1]/', 'fd12::1'],
      ['https://[fe80::1]/', 'fe80::1'],
      // The same loopback address written otherwise
      ['https://2130706433/', '127.0.0.1'],
      ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ]) {
      const res = await post(url);
      expect(res.statusCode, url).toBe(400);
      const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
      expect(res.json().error, url).toBe(MSG.webhookPrivateAddress(host, address));
    }
  });

  it('a name that resolves to loopback (localhost) is refused too', async () => {
    const res = await post('https://localhost/hooks');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^localhost leads to (127\.0\.0\.1|::1), a private, loopback or link-local address/);
  });

  it('http:// and other schemes, a user name in the URL, and no URL at all answer 400 with what to do', async () => {
    expect((await post('http://93.184.216.34/hooks')).json().error).toBe(MSG.webhookHttpsOnly);
    expect((await post('ftp://93.184.216.34/hooks')).json().error).toBe(MSG.webhookUrlInvalid);
    expect((await post('https://user:pw@93.184.216.34/hooks')).json().error).toBe(MSG.webhookUrlCredentials);
    expect((await post('not a url')).json().error).toBe(MSG.webhookUrlInvalid);
    const [admin] = await strict.loginAs('admin');
    const list = await strict.request({ method: 'GET', url: `${API}/webhooks`, token: admin });
    expect(webhookListReply.parse(list.json()).webhooks).toEqual([]);
  });

  it('checked again at delivery: an endpoint whose name now resolves to loopback gets nothing, and the log says why', async () => {
    await clearEndpoints();
    const receiver = await startReceiver();
    try {
      // Saved while private addresses were allowed, under a name (DNS answers may change later).
      const { id } = await register(receiver.url.replace('127.0.0.1', 'localhost'));
      await emitWebhookEvent(db, demoId, 'job.created', { job_id: 1, job_number: 'X', user_id: 1 });
      await deliverDue(db, { ...now, allowPrivate: false });
      expect(receiver.received).toHaveLength(0);
      const log = webhookLogReply.parse((await api('GET', `/webhooks/${id}/deliveries`, tok.admin)).json()).attempts;
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status_code: null, delivery_state: 'pending' });
      // An http:// URL is refused before any lookup, a private answer after it.
      expect(log[0].error).toMatch(/https:\/\/|private, loopback or link-local/);
    } finally {
      await receiver.close();
    }
  });
});

describe('events and deliveries', () => {
  it('ticket.completed and ticket.reopened, signed as Standard Webhooks sign (verified by the spec, not by our signer)', async () => {
    await clearEndpoints();
    const receiver = await startReceiver();
    try {
      const { secret } = await register(receiver.url, ['ticket.completed', 'ticket.reopened']);
      const ticket = await pendingTicket();
      const done = await setStatus(ticket, 'Complete');
      await setStatus(done, 'Pending');
      // A save that does not change the status sends nothing.
      const again = await api('PUT', '/tickets/', tok.foreman, { ticket: { id: ticket.id, version: done.version + 1, status: 'Pending', description: 'no status change' } });
      expect(again.statusCode, again.body).toBe(200);
      await deliverAll();

      expect(receiver.received).toHaveLength(2);
      for (const r of receiver.received) {
        expect(verifyStandardWebhook(secret, r.headers, r.body)).toBe(true);
        expect(verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, r.headers, r.body)).toBe(false);
        expect(verifyStandardWebhook(secret, r.headers, r.body.replace('}', ' }'))).toBe(false);
        expect(r.headers['content-type']).toBe('application/json');
      }
      const [completed, reopened] = bodies(receiver.received);
      expect(completed).toMatchObject({ type: 'ticket.completed', data: { ticket_id: ticket.id, job_id: ticket.job_id, pole_id: ticket.pole_id } });
      expect(completed.data.completed_at).toEqual(expect.any(String));
      expect(completed.id).toBe(receiver.received[0].headers['webhook-id']);
      expect(completed.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(reopened).toMatchObject({ type: 'ticket.reopened', data: { ticket_id: ticket.id, job_id: ticket.job_id } });
      expect(Object.keys(completed).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    } finally {
      await receiver.close();
    }
  });

  it('job.created, for a job saved alone and for one created with its tickets (published import); invoice.created', async () => {
    await clearEndpoints();
    const receiver = await startReceiver();
    try {
      const { secret } = await register(receiver.url, ['job.created', 'invoice.created']);
      const plain = await t.createJob(tok.admin, demoId, { job_number: 'HOOK-JOB-1', selected_utility_id: ngrid });
      const imported = await t.createJob(tok.admin, demoId, {
        job_number: 'HOOK-JOB-2',
        selected_utility_id: ngrid,
        newUnits: [{ code: 'HOOK-U', description: 'Hook unit', uom: 'EA' }],
        newTickets: [{ pole: { pole_name: 'HP-1', line_name: 'HL' }, work_orders: [], tasks: [{ code: 'HOOK-U', init_qty: 1 }] }],
      });
      const [jobTicket] = (await api('GET', `/jobs/tickets/${imported.id}`, tok.admin)).json() as Ticket[];
      await setStatus(jobTicket, 'Complete'); // not subscribed: sends nothing
      const inv = await api('POST', `/jobs/${imported.id}/invoices`, tok.admin, {});
      expect(inv.statusCode, inv.body).toBe(201);
      await deliverAll();

      expect(receiver.received.every((r) => verifyStandardWebhook(secret, r.headers, r.body))).toBe(true);
      const got = bodies(receiver.received);
      expect(got.map((b) => b.type)).toEqual(['job.created', 'job.created', 'invoice.created']);
      expect(got[0].data).toMatchObject({ job_id: plain.id, job_number: 'HOOK-JOB-1' });
      expect(got[1].data).toMatchObject({ job_id: imported.id, job_number: 'HOOK-JOB-2' });
      const invoice = inv.json().invoice;
      expect(got[2].data).toMatchObject({ invoice_id: invoice.id, job_id: imported.id, number: invoice.number, total: invoice.total });
    } finally {
      await receiver.close();
    }
  });

  it('a refused change writes no event (the outbox row is written with the change, in its transaction)', async () => {
    await clearEndpoints();
    await register('http://127.0.0.1:9/never');
    const ticket = await pendingTicket();
    const before = (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.companyId, demoId))).length;
    // Complete, with an assignee who is not a working foreman: refused (400), nothing saved.
    const res = await api('PUT', '/tickets/', tok.foreman, { ticket: { id: ticket.id, version: ticket.version, status: 'Complete', assigned_to: 999_999 } });
    expect(res.statusCode).toBe(400);
    expect((await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.companyId, demoId))).length).toBe(before);
  });

  it('a receiver answering 500 three times, then 200, gets the same webhook-id four times; the log shows the four tries; Resend sends it again', async () => {
    await clearEndpoints();
    const receiver = await startReceiver((n) => (n <= 3 ? 500 : 200));
    try {
      const { id, secret } = await register(receiver.url, ['ticket.completed']);
      await setStatus(await pendingTicket(), 'Complete');
      for (let round = 0; round < 4; round++) expect(await deliverDue(db, now)).toBe(1);
      expect(await deliverDue(db, now)).toBe(0);

      expect(receiver.received).toHaveLength(4);
      const ids = receiver.received.map((r) => r.headers['webhook-id']);
      expect(new Set(ids).size).toBe(1);
      expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
      expect(receiver.received.every((r) => verifyStandardWebhook(secret, r.headers, r.body))).toBe(true);

      const log = webhookLogReply.parse((await api('GET', `/webhooks/${id}/deliveries`, tok.admin)).json()).attempts;
      expect(log.map((a) => a.status_code)).toEqual([200, 500, 500, 500]);
      expect(log.map((a) => a.event_id)).toEqual([ids[0], ids[0], ids[0], ids[0]]);
      expect(log.map((a) => a.error)).toEqual([null, 'HTTP 500 Internal Server Error', 'HTTP 500 Internal Server Error', 'HTTP 500 Internal Server Error']);
      expect(log.every((a) => a.delivery_state === 'delivered' && a.type === 'ticket.completed' && a.duration_ms >= 0)).toBe(true);

      const resend = await api('POST', `/webhooks/${id}/deliveries/${log[0].delivery_id}/resend`, tok.admin);
      expect(resend.statusCode, resend.body).toBe(200);
      await deliverAll();
      expect(receiver.received).toHaveLength(5);
      expect(receiver.received[4].headers['webhook-id']).toBe(ids[0]);
      expect((await api('POST', `/webhooks/${id}/deliveries/999999/resend`, tok.admin)).statusCode).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it('retries wait as scheduled, stop after the last try (failed), and a try that gets no reply in time is a failure', async () => {
    await clearEndpoints();
    const receiver = await startReceiver(() => new Promise<number>(() => {})); // never answers
    try {
      const { id } = await register(receiver.url, ['job.created']);
      await emitWebhookEvent(db, demoId, 'job.created', { job_id: 1, job_number: 'X', user_id: 1 });
      const opts = { allowPrivate: true, timeoutMs: 300, retryDelaysMs: [0, 60_000] };
      expect(await deliverDue(db, opts)).toBe(1); // try 1, retry at once
      expect(await deliverDue(db, opts)).toBe(1); // try 2, next in a minute
      expect(await deliverDue(db, opts)).toBe(0); // not due yet
      await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${id}`);
      expect(await deliverDue(db, opts)).toBe(1); // try 3: the last
      await db.execute(sql`update webhook_deliveries set next_attempt_at = now() where endpoint_id = ${id}`);
      expect(await deliverDue(db, opts)).toBe(0);
      const log = webhookLogReply.parse((await api('GET', `/webhooks/${id}/deliveries`, tok.admin)).json()).attempts;
      expect(log.map((a) => a.error)).toEqual(['No reply within 0.3 s', 'No reply within 0.3 s', 'No reply within 0.3 s']);
      expect(log.map((a) => a.delivery_state)).toEqual(['failed', 'failed', 'failed']);
    } finally {
      await receiver.close();
    }
  });

  it('a disabled endpoint, or one not taking the event, gets nothing; another company gets none of our events', async () => {
    await clearEndpoints();
    const receiver = await startReceiver();
    try {
      const off = await register(receiver.url, ['ticket.completed']);
      await api('PATCH', `/webhooks/${off.id}`, tok.admin, { enabled: false });
      await register(receiver.url, ['invoice.created']);
      const res = await api('POST', '/webhooks', tok.other, { url: receiver.url, events: ['ticket.completed'] });
      expect(res.statusCode).toBe(201);
      await setStatus(await pendingTicket(), 'Complete');
      await deliverAll();
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe('several app processes', () => {
  it('each event is delivered once per endpoint by two workers (on PostgreSQL, two processes’ pools on one database)', async () => {
    await clearEndpoints();
    // Slow answers, so that both workers are busy at once.
    const receiver = await startReceiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 20)));
    let second: { db: Db; close: () => Promise<void> } = { db, close: async () => {} };
    if (dbKind === 'postgres') {
      const [{ name }] = rowsOf<{ name: string }>(await db.execute(sql`select current_database() as name`));
      const other = await openDatabase({ databaseUrl: withDatabase(process.env.TEST_DATABASE_URL!, name), poolSize: 4 });
      second = { db: other.db, close: other.close };
    }
    const a = { id: 0 };
    const b = { id: 0 };
    try {
      a.id = (await register(receiver.url, ['job.created'])).id;
      b.id = (await register(receiver.url, ['job.created'])).id;
      const events = 30;
      for (let i = 0; i < events; i++) await emitWebhookEvent(db, demoId, 'job.created', { job_id: i, job_number: `P-${i}`, user_id: 1 });
      const opts = { ...now, batch: 3, pollMs: 10 };
      const workers = [startWebhookWorker(db, opts), startWebhookWorker(second.db, opts)];
      const pending = async () =>
        rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from webhook_deliveries where company_id = ${demoId} and state <> 'delivered'`))[0].n;
      while ((await pending()) > 0) await new Promise((r) => setTimeout(r, 50));
      await Promise.all(workers.map((w) => w.stop()));

      // 30 events × 2 endpoints: 60 POSTs, each (webhook-id, endpoint) once.
      expect(receiver.received).toHaveLength(events * 2);
      const perId = new Map<string, number>();
      for (const r of receiver.received) perId.set(r.headers['webhook-id'] as string, (perId.get(r.headers['webhook-id'] as string) ?? 0) + 1);
      expect(perId.size).toBe(events);
      expect([...perId.values()].every((n) => n === 2)).toBe(true);
      const tries = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from webhook_attempts where endpoint_id in (${a.id}, ${b.id})`),
      )[0].n;
      expect(tries).toBe(events * 2);
    } finally {
      await second.close();
      await receiver.close();
    }
  });
});

afterAll(async () => {
  await clearEndpoints();
});

describe('OpenAPI', () => {
  it('documents every webhooks route with a summary, its body and its reply', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/json' })).json();
    const ops = [
      ['get', '/api/v1/webhooks', '200'],
      ['post', '/api/v1/webhooks', '201'],
      ['patch', '/api/v1/webhooks/{id}', '200'],
      ['delete', '/api/v1/webhooks/{id}', '200'],
      ['get', '/api/v1/webhooks/{id}/deliveries', '200'],
      ['post', '/api/v1/webhooks/{id}/deliveries/{deliveryId}/resend', '200'],
    ] as const;
    for (const [method, path, status] of ops) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op.summary, `${method} ${path}`).toEqual(expect.any(String));
      expect(op.responses[status].content['application/json'].schema, `${method} ${path}`).toBeDefined();
    }
    const create = doc.paths['/api/v1/webhooks'].post.requestBody.content['application/json'].schema;
    expect(create.required).toEqual(['url', 'events']);
    expect(create.properties.events.items.enum).toEqual(['job.created', 'ticket.completed', 'ticket.reopened', 'invoice.created']);
    expect(doc.paths['/api/v1/webhooks'].post.responses['201'].content['application/json'].schema.required).toEqual(['webhook', 'secret']);
  });
});
