/**
 * A Linecrew API client as an integrator writes it from /api/docs/json alone: every request and
 * reply type comes from the OpenAPI document (`npx openapi-typescript <server>/api/docs/json -o
 * examples/generated/linecrew-api.d.ts`), none is written by hand. docs/api.md walks through it
 * step by step, and src/server/example-client.test.ts runs exactly these calls against a real
 * server.
 */
import type { paths } from './generated/linecrew-api';

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
