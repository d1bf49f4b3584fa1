import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../../shared/constants';
import { ERROR_CODE } from '../../shared/error-codes';
import type { Ticket } from '../../shared/tickets.schemas';
import { idempotencyKeys, users } from '../db/schema/index';
import { createTestApp, type TestApp } from '../test/harness';
import { fixture, multipart } from '../test/files';
import { IDEMPOTENCY_MESSAGES, purgeExpiredKeys, REPLY_KEEP_MAX_BYTES, replyToKeep, requestHash } from './idempotency';
import { registeredRoutes } from './route-list';

/**
 * docs/product/field-mode.md §6 "replays apply once", decision 019: a state-changing call repeated with the same
 * `Idempotency-Key` is answered from the stored reply and applied once, on every such route.
 * Real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set); the two-process case is
 * in src/server/scale-out.test.ts.
 */
const API = '/api/v1';
let t: TestApp;
let admin: string;
let office: string;
let lineman: string;
let j1: number;
let pole: number;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, office, lineman] = await t.loginAs('admin', 'office', 'lineman');
  j1 = (await t.demo()).job['J-1001'];
  const first = (await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin })).json()[0] as Ticket;
  pole = first.pole_id!;
  adminId = (await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com')))[0].id;
});

/** Creates a ticket on an existing pole of J-1001: applied twice, it makes two tickets. */
function createTicket(description: string, key?: string, token = admin) {
  return t.request({
    method: 'PUT',
    url: `${API}/tickets/`,
    token,
    headers: key === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: key },
    body: { ticket: { job_id: j1, pole: { id: pole }, description } },
  });
}

/** J-1001's tickets with this description, counted through the API. */
async function countTickets(description: string): Promise<number> {
  const res = await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin });
  expect(res.statusCode).toBe(200);
  return (res.json() as Ticket[]).filter((x) => x.description === description).length;
}

const rowsOf = (key: string) => t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

describe('without an Idempotency-Key', () => {
  it('behaves as before: each call is applied, nothing is stored, no replay header', async () => {
    const first = await createTicket('no key');
    const second = await createTicket('no key');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().ticket.id).not.toBe(first.json().ticket.id);
    expect(first.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await countTickets('no key')).toBe(2);
    expect(await t.ctx.db.select().from(idempotencyKeys)).toEqual([]);
  });
});

describe('a repeat with the same key', () => {
  it('gets the stored status, content type and body byte for byte, and applies nothing again', async () => {
    const first = await createTicket('replayed', 'replay-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    const again = await createTicket('replayed', 'replay-1');
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(await countTickets('replayed')).toBe(1);
    // The replay is an ordinary reply otherwise: the security headers are there.
    expect(again.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is the same request whatever the JSON spacing and key order', async () => {
    await createTicket('reordered', 'reorder-1');
    const raw = `{ "ticket": { "description": "reordered", "pole": { "id": ${pole} }, "job_id": ${j1} } }`;
    const again = await t.request({
      method: 'PUT',
      url: `${API}/tickets/`,
      token: admin,
      headers: { [IDEMPOTENCY_KEY_HEADER]: 'reorder-1', 'content-type': 'application/json' },
      body: raw,
    });
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(await countTickets('reordered')).toBe(1);
  });

  it('replays a delete, which run again would answer 404', async () => {
    const id = (await createTicket('to delete')).json().ticket.id as number;
    const del = () => t.request({ method: 'DELETE', url: `${API}/tickets/${id}`, token: admin, headers: { [IDEMPOTENCY_KEY_HEADER]: 'delete-1' } });
    const first = await del();
    expect(first.statusCode).toBe(200);
    const again = await del();
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
  });

  it('replays a 4xx reply as it was', async () => {
    // A lineman may annotate but not change a ticket's description: the service refuses (403).
    const ticket = (await createTicket('guarded')).json().ticket as Ticket;
    const change = () =>
      t.request({
        method: 'PUT',
        url: `${API}/tickets/`,
        token: lineman,
        headers: { [IDEMPOTENCY_KEY_HEADER]: 'refused-1' },
        body: { ticket: { id: ticket.id, version: ticket.version, description: 'changed by a lineman' } },
      });
    const first = await change();
    expect(first.statusCode).toBe(403);
    const again = await change();
    expect(again.statusCode).toBe(403);
    expect(again.body).toBe(first.body);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    const [row] = await rowsOf('refused-1');
    expect(row).toMatchObject({ state: 'done', statusCode: 403 });
  });

  it('a multipart upload sent again (a new boundary) is the same request: the workbook is imported once', async () => {
    const upload = (content: Buffer) => {
      const body = multipart({ job_id: String(j1) }, { field: 'file', name: 'good.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content });
      return t.request({
        method: 'POST',
        url: `${API}/tickets/xls-upload`,
        token: admin,
        headers: { ...body.headers, [IDEMPOTENCY_KEY_HEADER]: 'workbook-1' },
        payload: body.payload,
      });
    };
    const all = async () => ((await t.request({ url: `${API}/jobs/tickets/${j1}`, token: admin })).json() as Ticket[]).length;
    const before = await all();
    const first = await upload(fixture('good.xlsx'));
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().tickets).toBe(3);
    const again = await upload(fixture('good.xlsx'));
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await all()).toBe(before + 3);
    // Other bytes in the file: another request.
    const other = await upload(fixture('bad-row.xlsx'));
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe(ERROR_CODE.idempotencyKeyReused);
  });
});

describe('a change re-based after a stale refusal keeps its key (decision 037)', () => {
  it('the refusal frees the key, the change on the new version is applied once, and a late copy on the old version is recognised as a replay', async () => {
    const ticket = (await createTicket('rebased note')).json().ticket as Ticket;
    const note = (version: number) =>
      t.request({
        method: 'PUT',
        url: `${API}/tickets/`,
        token: office,
        headers: { [IDEMPOTENCY_KEY_HEADER]: 'rebased-1' },
        body: { ticket: { id: ticket.id, version, notes: [{ note_text: 'Guy wire loose' }] } },
      });
    // Someone saves the ticket first: the note, made on the old version, is refused as stale.
    const moved = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body: { ticket: { id: ticket.id, version: ticket.version, street_address: '9 Elm St' } } });
    expect(moved.statusCode).toBe(200);
    const stale = await note(ticket.version);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe(ERROR_CODE.staleVersion);
    expect(await rowsOf('rebased-1')).toEqual([]);

    const rebased = await note(ticket.version + 1);
    expect(rebased.statusCode, rebased.body).toBe(200);
    // A second sender still holding the old copy of the change: the server knows it.
    const late = await note(ticket.version);
    expect(late.statusCode).toBe(200);
    expect(late.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    const stored = (await t.request({ url: `${API}/tickets/${ticket.id}`, token: admin })).json() as Ticket;
    expect(stored.notes.map((n) => n.note_text)).toEqual(['Guy wire loose']);
  });
});

describe('the same key with a different request', () => {
  it('answers 422 and applies nothing, for another body or another path', async () => {
    expect((await createTicket('first body', 'reuse-1')).statusCode).toBe(200);
    const other = await createTicket('second body', 'reuse-1');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error: IDEMPOTENCY_MESSAGES.reused, code: ERROR_CODE.idempotencyKeyReused });
    expect(await countTickets('second body')).toBe(0);

    const elsewhere = await t.request({ method: 'DELETE', url: `${API}/tickets/999999`, token: admin, headers: { [IDEMPOTENCY_KEY_HEADER]: 'reuse-1' } });
    expect(elsewhere.statusCode).toBe(422);
    // The first request's reply is still there for its repeats.
    expect((await createTicket('first body', 'reuse-1')).headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
  });
});

describe('concurrent requests with one key', () => {
  it('apply once: the others answer 409 (still running) or the replay', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, () => createTicket('concurrent', 'concurrent-1')));
    const applied = replies.filter((r) => r.statusCode === 200 && r.headers[IDEMPOTENT_REPLAYED_HEADER] === undefined);
    expect(applied).toHaveLength(1);
    for (const r of replies) {
      if (r === applied[0]) continue;
      if (r.statusCode === 409) expect(r.json()).toMatchObject({ error: IDEMPOTENCY_MESSAGES.inProgress, code: ERROR_CODE.idempotencyInProgress });
      else expect([r.statusCode, r.headers[IDEMPOTENT_REPLAYED_HEADER], r.body]).toEqual([200, 'true', applied[0].body]);
    }
    expect(await countTickets('concurrent')).toBe(1);
  });

  it('a repeat while the first is running answers 409; a claim left by a dead process is taken over after its lease', async () => {
    const hash = requestHash({
      method: 'PUT',
      url: `${API}/tickets/`,
      body: { ticket: { job_id: j1, pole: { id: pole }, description: 'running' } },
    });
    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'running-1', requestHash: hash, state: 'running' });
    const busy = await createTicket('running', 'running-1');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe(ERROR_CODE.idempotencyInProgress);
    expect(await countTickets('running')).toBe(0);

    // 11 minutes later the claim is stale (its process died): the repeat runs, once.
    await t.ctx.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(idempotencyKeys.key, 'running-1'));
    const taken = await createTicket('running', 'running-1');
    expect(taken.statusCode).toBe(200);
    expect(taken.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect((await createTicket('running', 'running-1')).headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(await countTickets('running')).toBe(1);
  });
});

describe('a claim whose process died (docs/product/sessions-and-safety.md §11 retries after a crash)', () => {
  const hashOf = (description: string) =>
    requestHash({ method: 'PUT', url: `${API}/tickets/`, body: { ticket: { job_id: j1, pole: { id: pole }, description } } });

  it('is free at once: a retry with the same key is applied, once, with no 409 for minutes', async () => {
    // Claimed a moment ago by a process that has since died: it recorded its lock key, and no
    // session of the database holds that lock any more.
    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'dead-holder-1', requestHash: hashOf('after crash'), state: 'running', holder: 987_654_321 });
    const retry = await createTicket('after crash', 'dead-holder-1');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect((await createTicket('after crash', 'dead-holder-1')).headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(await countTickets('after crash')).toBe(1);
  });

  it('held by a live process still answers 409 "still being applied"', async () => {
    // This process's own lock key, as recorded on a claim it made.
    expect((await createTicket('live holder probe', 'live-holder-probe')).statusCode).toBe(200);
    const [probe] = await rowsOf('live-holder-probe');
    expect(probe.holder).toEqual(expect.any(Number));
    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'live-holder-1', requestHash: hashOf('live'), state: 'running', holder: probe.holder });
    const busy = await createTicket('live', 'live-holder-1');
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ error: IDEMPOTENCY_MESSAGES.inProgress, code: ERROR_CODE.idempotencyInProgress });
    expect(await countTickets('live')).toBe(0);
  });
});

describe('keys belong to a user and last 24 hours', () => {
  it('another user with the same key is independent', async () => {
    expect((await createTicket('mine', 'shared-key')).statusCode).toBe(200);
    const theirs = await createTicket('theirs', 'shared-key', office);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await countTickets('mine')).toBe(1);
    expect(await countTickets('theirs')).toBe(1);
    expect(await rowsOf('shared-key')).toHaveLength(2);
  });

  it('a key older than 24 hours is new again, and purged', async () => {
    expect((await createTicket('yesterday', 'old-1')).statusCode).toBe(200);
    await t.ctx.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.key, 'old-1'));
    const today = await createTicket('today', 'old-1');
    expect(today.statusCode).toBe(200);
    expect(today.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await countTickets('today')).toBe(1);

    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'old-2', requestHash: 'x', state: 'done', statusCode: 200, createdAt: sql`now() - interval '25 hours'` });
    await purgeExpiredKeys(t.ctx.db);
    expect(await rowsOf('old-2')).toEqual([]);
    expect(await rowsOf('old-1')).toHaveLength(1);
  });
});

describe('a failed request releases its key', () => {
  it('a 5xx is not stored: the retry with the same key is applied', async () => {
    await t.ctx.db.execute(sql.raw(`CREATE FUNCTION idem_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by a test trigger'; END $$`));
    await t.ctx.db.execute(sql.raw(`CREATE TRIGGER idem_test_refuse BEFORE INSERT ON tickets FOR EACH ROW EXECUTE FUNCTION idem_test_refuse()`));
    let failed;
    try {
      failed = await createTicket('after a failure', 'fail-1');
    } finally {
      await t.ctx.db.execute(sql.raw(`DROP TRIGGER idem_test_refuse ON tickets`));
      await t.ctx.db.execute(sql.raw(`DROP FUNCTION idem_test_refuse()`));
    }
    expect(failed.statusCode).toBe(500);
    expect(await rowsOf('fail-1')).toEqual([]);
    const retry = await createTicket('after a failure', 'fail-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await countTickets('after a failure')).toBe(1);
  });

  it('a reply too large to keep: the key holds, and a repeat is told the change was applied (409)', async () => {
    const body = { ticket: { job_id: j1, pole: { id: pole }, description: 'large' } };
    const hash = requestHash({ method: 'PUT', url: `${API}/tickets/`, body });
    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'large-1', requestHash: hash, state: 'done', statusCode: 200, body: null });
    const res = await createTicket('large', 'large-1');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: IDEMPOTENCY_MESSAGES.notKept, code: ERROR_CODE.idempotencyReplyNotKept });
    expect(await countTickets('large')).toBe(0);
  });

  it('a deleted user takes their keys along', async () => {
    await t.ctx.db.insert(idempotencyKeys).values({ userId: adminId, key: 'cascade-1', requestHash: 'x', state: 'done', statusCode: 200 });
    const [luis] = await t.ctx.db.select().from(users).where(eq(users.email, 'luis@example.com'));
    await t.ctx.db.insert(idempotencyKeys).values({ userId: luis.id, key: 'cascade-1', requestHash: 'x', state: 'done', statusCode: 200 });
    await t.ctx.db.delete(users).where(eq(users.id, luis.id));
    expect((await rowsOf('cascade-1')).map((r) => r.userId)).toEqual([adminId]);
  });
});

describe('the key itself', () => {
  it.each([
    ['empty', ''],
    ['201 characters', 'k'.repeat(201)],
    ['a space', 'two words'],
    ['a tab', 'tab\there'],
    ['a NUL byte', 'nul\u0000byte'],
    ['a non-ASCII letter', 'clé'],
    ['a DEL', 'del\u007f'],
  ])('with %s answers 400 with a code, and nothing is applied', async (_what, key) => {
    const res = await createTicket(`bad key ${_what}`, key);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: IDEMPOTENCY_MESSAGES.invalid, code: ERROR_CODE.idempotencyKeyInvalid });
    expect(await countTickets(`bad key ${_what}`)).toBe(0);
  });

  it('may be 200 visible ASCII characters, quotes and punctuation included', async () => {
    const key = `"${'~!#$%&()*+,-./:;<=>?@[]^_`{|}'.repeat(7)}"`.slice(0, 200).padEnd(200, 'z');
    expect(key).toHaveLength(200);
    expect((await createTicket('long key', key)).statusCode).toBe(200);
    expect((await createTicket('long key', key)).headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(await countTickets('long key')).toBe(1);
  });

  it('is checked on every state-changing route behind sign-in, and ignored by the open ones and those whose reply holds a secret', async () => {
    const routes = registeredRoutes(t.app).filter((r) => r.url.startsWith(`${API}/`) && r.changesState);
    expect(routes.length).toBeGreaterThan(15);
    const wrong: string[] = [];
    for (const route of routes) {
      for (const key of ['not valid', 'nul\u0000', 'x'.repeat(10_000)]) {
        const url = route.url.replace(/:\w+/g, '999999');
        const res = await t.request({ method: route.method as 'POST', url, token: admin, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
        const refused = res.statusCode === 400 && res.json().code === ERROR_CODE.idempotencyKeyInvalid;
        if (refused !== route.takesIdempotencyKey || res.statusCode >= 500) wrong.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The exceptions are exactly the open routes and the two that answer a secret once.
    expect(routes.filter((r) => !r.takesIdempotencyKey && !r.public).map((r) => `${r.method} ${r.url}`).sort()).toEqual([`POST ${API}/api-tokens`, `POST ${API}/webhooks`]);
    expect(await t.ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'not valid'))).toEqual([]);
  });

  it('on sign-in is ignored: nothing is stored, each sign-in is its own', async () => {
    const login = () =>
      t.request({ method: 'POST', url: `${API}/crew/login`, headers: { [IDEMPOTENCY_KEY_HEADER]: 'login-1' }, body: { email: 'office@example.com', password: 'linecrew' } });
    expect((await login()).statusCode).toBe(200);
    const again = await login();
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await rowsOf('login-1')).toEqual([]);
  });
});

describe('the request hash', () => {
  const base = { method: 'PUT', url: '/api/v1/tickets/', body: { ticket: { a: 1, b: [true, null, 'x'] } } };
  it('ignores key order, and tells apart method, path, query, types and file bytes', () => {
    const same = requestHash({ ...base, body: { ticket: { b: [true, null, 'x'], a: 1 } } });
    expect(same).toBe(requestHash(base));
    for (const other of [
      { ...base, method: 'POST' },
      { ...base, url: '/api/v1/tickets/?x=1' },
      { ...base, body: { ticket: { a: '1', b: [true, null, 'x'] } } },
      { ...base, body: { ticket: { a: 1, b: [true, 'x', null] } } },
    ]) {
      expect(requestHash(other)).not.toBe(requestHash(base));
    }
    // The version the change was made on is its precondition, not the change.
    expect(requestHash({ ...base, body: { ticket: { ...base.body.ticket, version: 7 } } })).toBe(requestHash({ ...base, body: { ticket: { ...base.body.ticket, version: 9 } } }));
    const file = (bytes: number[]) => requestHash({ ...base, body: { file: Buffer.from(bytes) } });
    expect(file([1, 2, 3])).toBe(file([1, 2, 3]));
    expect(file([1, 2, 3])).not.toBe(file([1, 2, 4]));
  });
});

describe('the reply kept', () => {
  it('is the bytes sent, up to the limit; a larger reply or a stream is not kept', () => {
    expect(replyToKeep('{"a":"é"}')?.equals(Buffer.from('{"a":"é"}'))).toBe(true);
    expect(replyToKeep(Buffer.from([0, 255]))?.equals(Buffer.from([0, 255]))).toBe(true);
    expect(replyToKeep(undefined)?.length).toBe(0);
    expect(replyToKeep('x'.repeat(REPLY_KEEP_MAX_BYTES))?.length).toBe(REPLY_KEEP_MAX_BYTES);
    expect(replyToKeep('x'.repeat(REPLY_KEEP_MAX_BYTES + 1))).toBeNull();
    expect(replyToKeep(Readable.from(['x']))).toBeNull();
  });
});
