/**
 * A Linecrew API client as an integrator writes it from /api/docs/json alone: every request and
 * reply type comes from the OpenAPI document (`npx openapi-typescript <server>/api/docs/json -o
 * examples/generated/linecrew-api.d.ts`), none is written by hand. docs/api.md walks through it
 * step by step, and src/server/example-client.test.ts runs exactly these calls against a real
 * server.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { components, paths } from './generated/linecrew-api';

// --- Typing plain fetch with the generated `paths` (generic helpers, no API shapes) -----------

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type PathsWith<M extends Method> = { [P in keyof paths]: paths[P] extends Record<M, object> ? P : never }[keyof paths];
type Op<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;
type JsonBody<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type Params<O> = O extends { parameters: { path: infer A } } ? A : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type Reply<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } }
  ? R
  : O extends { responses: { 201: { content: { 'application/json': infer R } } } }
    ? R
    : never;

export interface Linecrew {
  baseUrl: string;
  /** An API token made by an Admin on the API tokens page: `lc_…`. */
  token: string;
}

/** A refused request: the status and the server's message (`error`), which a person can act on. */
export class LinecrewError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(`${status}: ${message}`);
  }
}

/**
 * One call of the API: the path as the document names it, its path parameters, query and JSON
 * body, and for a change an `Idempotency-Key` (sent again on a retry, it is applied once).
 */
export async function call<M extends Method, P extends PathsWith<M>>(
  lc: Linecrew,
  method: M,
  path: P,
  init: { params?: Params<Op<P, M>>; query?: Query<Op<P, M>>; body?: JsonBody<Op<P, M>>; idempotencyKey?: string } = {},
): Promise<{ data: Reply<Op<P, M>>; replayed: boolean }> {
  const url = new URL(String(path).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((init.params as Record<string, unknown>)[name]))), lc.baseUrl);
  for (const [name, value] of Object.entries((init.query ?? {}) as Record<string, unknown>)) if (value !== undefined) url.searchParams.set(name, String(value));
  const headers: Record<string, string> = { authorization: `Bearer ${lc.token}` };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.idempotencyKey) headers['idempotency-key'] = init.idempotencyKey;
  const res = await fetch(url, { method: method.toUpperCase(), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await res.text();
  if (!res.ok) throw new LinecrewError(res.status, (JSON.parse(text || '{}') as { error?: string }).error ?? res.statusText);
  return { data: JSON.parse(text) as Reply<Op<P, M>>, replayed: res.headers.get('idempotent-replayed') === 'true' };
}

// --- Step 2: upload a file (sign, then PUT the bytes) -------------------------------------------

/** Uploads a work packet PDF; the `url` to put in the job. */
export async function uploadWorkPacket(lc: Linecrew, fileName: string, pdf: Blob): Promise<string> {
  const { data: signed } = await call(lc, 'get', '/api/v1/doc_upload/sign-s3-pdf', {
    query: { directory: 'work_packet', fileName, fileType: 'application/pdf', fileSize: String(pdf.size) },
  });
  // signedRequest is absolute; the PUT needs no token (the link is the permission), only these headers.
  const put = await fetch(signed.signedRequest, { method: 'PUT', headers: signed.headers, body: pdf });
  if (!put.ok) throw new LinecrewError(put.status, ((await put.json()) as { error: string }).error);
  return signed.url;
}

// --- Step 3: create a job with its tickets ------------------------------------------------------

/** Creates a job on the utility with this code, with two tickets (one per pole) and their units. */
export async function createJob(lc: Linecrew, jobNumber: string, utilityCode: string, packetUrl: string, key: string) {
  const { data: utilities } = await call(lc, 'get', '/api/v1/utilities');
  const utility = utilities.find((u) => u.code === utilityCode);
  if (!utility) throw new Error(`No utility ${utilityCode}`);
  const { data } = await call(lc, 'put', '/api/v1/jobs', {
    idempotencyKey: key,
    body: {
      job: {
        job_number: jobNumber,
        due_date: '2027-12-31',
        selected_utility_id: utility.id,
        work_packet_url: packetUrl,
        work_packet_name: 'packet.pdf',
        newUnits: [{ code: 'XARM-8', description: '8 ft crossarm', uom: 'EA' }],
        newTickets: [
          { pole: { pole_name: 'P-1', line_name: 'L-9' }, tasks: [{ code: 'XARM-8', init_qty: 2 }] },
          { pole: { pole_name: 'P-2', line_name: 'L-9' }, tasks: [{ code: 'XARM-8', init_qty: 1 }] },
        ],
      },
    },
  });
  return data.job;
}

// --- Step 4: change one task, once --------------------------------------------------------------

/** The job's tickets, each with its tasks and its `version`. */
export async function ticketsOf(lc: Linecrew, jobId: number) {
  return (await call(lc, 'get', '/api/v1/jobs/tickets/{id}', { params: { id: jobId } })).data;
}

/**
 * Sets a task's actual change (`additional_qty`), sending the version read. Sent again with the
 * same key (a timeout, a retry), it is applied once and answered with the same reply.
 */
export async function setTaskChange(lc: Linecrew, ticketId: number, ticketTaskId: number, version: number, additionalQty: number, key: string) {
  return call(lc, 'patch', '/api/v1/tickets/{id}/tasks/{ticket_task_id}', {
    params: { id: ticketId, ticket_task_id: ticketTaskId },
    body: { version, additional_qty: additionalQty },
    idempotencyKey: key,
  });
}

// --- Step 5: read production --------------------------------------------------------------------

export async function production(lc: Linecrew, jobId: number) {
  return (await call(lc, 'get', '/api/v1/jobs/{id}/production', { params: { id: jobId } })).data;
}

// --- Step 6: receive webhooks -------------------------------------------------------------------

/** What Linecrew POSTs to your endpoint (the document's `WebhookEvent`): narrow it by `type`. */
export type WebhookEvent = components['schemas']['WebhookEvent'];
type WebhookEventType = JsonBody<Op<'/api/v1/webhooks', 'post'>>['events'][number];

/**
 * Registers your endpoint for these events (an Admin's token: endpoints are an Admin's to manage).
 * The reply's `secret` (`whsec_…`) is shown this once: keep it where your receiver reads it.
 */
export async function registerWebhook(lc: Linecrew, url: string, events: WebhookEventType[]) {
  return (await call(lc, 'post', '/api/v1/webhooks', { body: { url, events } })).data;
}

/** How far a delivery's timestamp may be from your clock before it is refused as a replay. */
const TOLERANCE_SECONDS = 5 * 60;

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/): the HMAC-SHA256, keyed with
 * the secret's base64 part, of `${webhook-id}.${webhook-timestamp}.${raw body}`, compared in
 * constant time with each `v1,<base64>` of `webhook-signature`; the timestamp within 5 minutes.
 * Verify the raw body as received, before parsing it: re-serialised JSON would not match.
 */
export function verifyWebhook(secret: string, headers: http.IncomingHttpHeaders, rawBody: string, nowMs = Date.now()): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  // A space-separated list (several while a secret is being rotated): one match is enough.
  return signatures.split(' ').some((entry) => {
    const [version, sig] = entry.split(',');
    const given = Buffer.from(sig ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * A receiver: verifies each POST (401 if it is not Linecrew's), hands each event to `handle` once
 * (a retry carries the same id), and answers 204. `handle` also gets the raw request, as verified,
 * for your records. Keep the ids seen in your database in real life, not in memory.
 */
export function webhookReceiver(
  secret: string,
  handle: (event: WebhookEvent, raw: { headers: http.IncomingHttpHeaders; body: string }) => void | Promise<void>,
): http.Server {
  const seen = new Set<string>();
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || !verifyWebhook(secret, req.headers, body)) return void res.writeHead(401).end();
      const event = JSON.parse(body) as WebhookEvent;
      if (seen.has(event.id)) return void res.writeHead(204).end();
      // Answer within 10 seconds; anything but a 2xx (a throw here: 500) is tried again later.
      Promise.resolve(handle(event, { headers: req.headers, body })).then(
        () => {
          seen.add(event.id);
          res.writeHead(204).end();
        },
        () => res.writeHead(500).end(),
      );
    });
  });
}
