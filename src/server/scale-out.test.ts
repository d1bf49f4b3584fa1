import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER } from '../shared/constants';
import { ERROR_CODE } from '../shared/error-codes';
import { withDatabase } from './test/global-setup';
import { startServer, type ServerProcess } from './test/server-process';

/**
 * Scale-out proof (docs/deploy.md): two real server processes on ONE fresh PostgreSQL
 * database and ONE storage folder, same JWT_SECRET, different ports, started at the same moment
 * (so both race to migrate and seed: the advisory lock must make that safe). A session made on
 * one process works on the other, a write through one is read through the other, and a stale
 * `version` from one is refused by the other, and one `Idempotency-Key` sent to both is applied
 * once (docs/product/field-mode.md), and invoices of one job sent to both at once make one invoice (docs/product/billing.md §4).
 * Real HTTP to 127.0.0.1, no app.inject.
 *
 * It needs a real PostgreSQL server (TEST_DATABASE_URL) — PGlite is one process by design — and
 * runs once, in the vitest "postgres" project.
 */
const url = process.env.TEST_DATABASE_URL;
const skipReason = !url
  ? 'skipped: TEST_DATABASE_URL is not set (needs a real PostgreSQL server; CI sets it)'
  : process.env.TEST_DB_KIND !== 'postgres'
    ? 'skipped here: runs once, in the "postgres" vitest project'
    : null;
const label = (name: string) => (skipReason ? `${name} [${skipReason}]` : name);

const JWT_SECRET = `scale-out-${randomBytes(24).toString('hex')}`;
const dbName = `linecrew_scale_${randomBytes(5).toString('hex')}`;
let dataDir = '';
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let admin: pg.Client | undefined;
let token = '';

async function call(server: ServerProcess, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.origin}/api/v1${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(15_000),
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json, text, headers: res.headers };
}

describe.skipIf(skipReason !== null)('scale-out: two app processes, one PostgreSQL, one storage folder', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-scale-'));
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: withDatabase(url!, dbName),
      DATA_DIR: dataDir,
      JWT_SECRET,
      SEED_DEMO: '1',
    };
    // Both at once: the migration/seed advisory lock is what keeps this from failing.
    [a, b] = await Promise.all([startServer({ env }), startServer({ env })]);
    await Promise.all([a.ready, b.ready]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it(label('both processes started together: migrated and seeded exactly once'), async () => {
    const db = new pg.Client({ connectionString: withDatabase(url!, dbName) });
    await db.connect();
    try {
      const companies = await db.query(`SELECT name, count(*)::int AS n FROM companies GROUP BY name ORDER BY name`);
      expect(companies.rows).toEqual([
        { name: 'Demo Line Co', n: 1 },
        { name: 'Other Line Co', n: 1 },
      ]);
      const migrations = await db.query(`SELECT hash, count(*)::int AS n FROM drizzle.__drizzle_migrations GROUP BY hash HAVING count(*) > 1`);
      expect(migrations.rows).toEqual([]);
    } finally {
      await db.end();
    }
    expect(a!.port).not.toBe(b!.port);
  });

  it(label('a token signed in on the first process works on the second'), async () => {
    const res = await fetch(`${a!.origin}/api/v1/crew/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'linecrew' }),
    });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    expect(token).toBeTruthy();
    const me = await call(b!, 'GET', '/crew/myData');
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.json)).toContain('admin@example.com');
  });

  it(label('a ticket created and edited through the second is seen, edited, through the first; a stale version is refused by the other'), async () => {
    const db = new pg.Client({ connectionString: withDatabase(url!, dbName) });
    await db.connect();
    let jobId: number;
    let utilityId: number;
    try {
      const r = await db.query(`SELECT id, utility_id FROM jobs WHERE job_number = 'J-1001' AND company_id = (SELECT id FROM companies WHERE name = 'Demo Line Co')`);
      jobId = r.rows[0].id;
      utilityId = r.rows[0].utility_id;
    } finally {
      await db.end();
    }

    // The first process reads the job page now (and keeps its serialised reply).
    type Rows = { tickets: { id: number; pole_name: string | null; version: number }[] };
    const before = await call(a!, 'GET', `/jobs/${jobId}`);
    expect(before.status).toBe(200);

    const created = await call(b!, 'PUT', '/tickets/', {
      ticket: { job_id: jobId, pole: { pole_name: 'SCALE-1', line_name: 'SX', utility_id_owning_pole: utilityId }, description: 'made on B' },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const ticket = created.json.ticket as { id: number; version: number; description: string };
    expect(ticket.description).toBe('made on B');

    const edited = await call(b!, 'PUT', '/tickets/', { ticket: { id: ticket.id, version: ticket.version, description: 'edited on B' } });
    expect(edited.status, JSON.stringify(edited.json)).toBe(200);
    const v2 = (edited.json.ticket as { version: number }).version;
    expect(v2).toBeGreaterThan(ticket.version);

    // Read through the other process: the change is there.
    const seen = await call(a!, 'GET', `/tickets/${ticket.id}`);
    expect(seen.status).toBe(200);
    const seenTicket = (seen.json.ticket ?? seen.json) as { description: string; version: number };
    expect(seenTicket.description).toBe('edited on B');
    expect(seenTicket.version).toBe(v2);

    // ...and so does the first process's job page: its kept reply is not served any more.
    const page = await call(a!, 'GET', `/jobs/${jobId}`);
    expect(page.status).toBe(200);
    const row = (page.json as unknown as Rows).tickets.find((x) => x.id === ticket.id);
    expect(row).toMatchObject({ pole_name: 'SCALE-1', version: v2 });
    expect((page.json as unknown as Rows).tickets).toHaveLength((before.json as unknown as Rows).tickets.length + 1);

    // The first version, now stale, sent to the first process: refused, nothing overwritten.
    const stale = await call(a!, 'PUT', '/tickets/', { ticket: { id: ticket.id, version: ticket.version, description: 'stale from A' } });
    expect(stale.status).toBe(409);
    expect(typeof stale.json.error).toBe('string');

    // And the other way round: a fresh edit on A makes B's copy stale.
    const onA = await call(a!, 'PUT', '/tickets/', { ticket: { id: ticket.id, version: v2, description: 'edited on A' } });
    expect(onA.status, JSON.stringify(onA.json)).toBe(200);
    const staleOnB = await call(b!, 'PUT', '/tickets/', { ticket: { id: ticket.id, version: v2, description: 'stale from B' } });
    expect(staleOnB.status).toBe(409);

    const final = await call(b!, 'GET', `/tickets/${ticket.id}`);
    expect(((final.json.ticket ?? final.json) as { description: string }).description).toBe('edited on A');
  });

  it(label('a file uploaded through one process is served by the other (one storage location)'), async () => {
    const signed = await call(a!, 'GET', '/doc_upload/sign-s3-pdf?directory=work_packet&fileName=packet.pdf&fileType=application%2Fpdf');
    expect(signed.status).toBe(200);
    const { signedRequest, url: fileUrl, headers } = signed.json as { signedRequest: string; url: string; headers: Record<string, string> };
    // Signed by A, sent to B: the signature is checked with the shared secret.
    const target = new URL(signedRequest, a!.origin);
    const put = await fetch(`${b!.origin}${target.pathname}${target.search}`, {
      method: 'PUT',
      headers,
      body: Buffer.from('%PDF-1.4\nscale-out\n%%EOF\n'),
    });
    expect(put.status).toBeLessThan(300);
    const fileOnA = new URL(fileUrl, a!.origin);
    const got = await fetch(`${a!.origin}${fileOnA.pathname}`, { headers: { authorization: `Bearer ${token}` } });
    expect(got.status).toBe(200);
    expect(await got.text()).toContain('scale-out');
  });

  it(label('one Idempotency-Key sent to both processes at once is applied once, and either replays it'), async () => {
    const db = new pg.Client({ connectionString: withDatabase(url!, dbName) });
    await db.connect();
    const countCreated = async () =>
      (await db.query(`SELECT count(*)::int AS n FROM tickets WHERE description = 'once across processes'`)).rows[0].n as number;
    try {
      const r = await db.query(
        `SELECT t.job_id, t.pole_id FROM tickets t JOIN jobs j ON j.id = t.job_id WHERE j.job_number = 'J-1001' AND j.company_id = (SELECT id FROM companies WHERE name = 'Demo Line Co') LIMIT 1`,
      );
      const { job_id: jobId, pole_id: poleId } = r.rows[0] as { job_id: number; pole_id: number };
      // A create on an existing pole: each time it is applied, another ticket.
      const body = { ticket: { job_id: jobId, pole: { id: poleId }, description: 'once across processes' } };
      const key = { [IDEMPOTENCY_KEY_HEADER]: `scale-out-${randomBytes(8).toString('hex')}` };
      const replies = await Promise.all([a!, b!, a!, b!, a!, b!].map((server) => call(server, 'PUT', '/tickets/', body, key)));
      const applied = replies.filter((x) => x.status === 200 && x.headers.get(IDEMPOTENT_REPLAYED_HEADER) === null);
      expect(applied, replies.map((x) => `${x.status} ${x.text.slice(0, 100)}`).join('\n')).toHaveLength(1);
      for (const x of replies) {
        if (x === applied[0]) continue;
        if (x.status === 409) expect(x.json.code).toBe(ERROR_CODE.idempotencyInProgress);
        else expect([x.status, x.headers.get(IDEMPOTENT_REPLAYED_HEADER), x.text]).toEqual([200, 'true', applied[0].text]);
      }
      expect(await countCreated()).toBe(1);

      // Afterwards each process answers the repeat from the stored reply, the same bytes.
      for (const server of [a!, b!]) {
        const again = await call(server, 'PUT', '/tickets/', body, key);
        expect([again.status, again.headers.get(IDEMPOTENT_REPLAYED_HEADER), again.text]).toEqual([200, 'true', applied[0].text]);
      }
      // The same key with another request, on either process: 422, nothing applied.
      const other = await call(b!, 'PUT', '/tickets/', { ticket: { ...body.ticket, description: 'another request' } }, key);
      expect(other.status).toBe(422);
      expect(other.json.code).toBe(ERROR_CODE.idempotencyKeyReused);
      expect(await countCreated()).toBe(1);
    } finally {
      await db.end();
    }
  });
  // Last: it bills every ticket of J-1001, which the tests above work on.
  it(label('never billed twice: eight invoices of one job sent at once to both processes make one invoice, each ticket on it once, the rest 409'), async () => {
    const db = new pg.Client({ connectionString: withDatabase(url!, dbName) });
    await db.connect();
    try {
      const job = (await db.query(`SELECT id FROM jobs WHERE job_number = 'J-1001' AND company_id = (SELECT id FROM companies WHERE name = 'Demo Line Co')`)).rows[0]
        .id as number;
      // Every ticket of the job Complete and unbilled: something real to fight over.
      await db.query(`UPDATE tickets SET actual_completion_date = now() - interval '1 day', billed_at = NULL, invoice_number = NULL WHERE job_id = $1`, [job]);
      const ids = (await db.query(`SELECT id FROM tickets WHERE job_id = $1 ORDER BY id`, [job])).rows.map((r) => r.id as number);
      expect(ids.length).toBeGreaterThan(1);

      // Two people: the admin on one process, the office manager on the other.
      const office = await fetch(`${b!.origin}/api/v1/crew/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'office@example.com', password: 'linecrew' }),
      });
      const officeAuth = { authorization: `Bearer ${((await office.json()) as { token: string }).token}` };
      const replies = await Promise.all(
        [a!, b!, a!, b!, a!, b!, a!, b!].map((server, i) =>
          call(server, 'POST', `/jobs/${job}/invoices`, i < 4 ? {} : { ticket_ids: ids }, i % 2 ? officeAuth : {}),
        ),
      );
      const made = replies.filter((r) => r.status === 201);
      expect(made, JSON.stringify(replies.map((r) => [r.status, r.json.code ?? r.json.error]))).toHaveLength(1);
      for (const r of replies) {
        if (r.status === 201) continue;
        expect(r.status).toBe(409);
        expect([ERROR_CODE.alreadyBilled, ERROR_CODE.nothingToInvoice]).toContain(r.json.code);
      }
      const invoice = made[0].json.invoice as { id: number; number: string; ticket_ids: number[] };
      expect(invoice.ticket_ids).toEqual(ids);

      expect((await db.query(`SELECT id FROM invoices WHERE job_id = $1`, [job])).rows).toEqual([{ id: invoice.id }]);
      const billed = await db.query(`SELECT ticket_id, invoice_id FROM billed_tickets WHERE ticket_id = ANY($1) ORDER BY ticket_id`, [ids]);
      expect(billed.rows).toEqual(ids.map((id) => ({ ticket_id: id, invoice_id: invoice.id })));
      expect((await db.query(`SELECT DISTINCT invoice_number FROM tickets WHERE job_id = $1`, [job])).rows).toEqual([{ invoice_number: invoice.number }]);
      // Numbers were never handed out twice: the counter moved once.
      const counter = await db.query(`SELECT last_invoice_number FROM companies WHERE name = 'Demo Line Co'`);
      expect(counter.rows[0].last_invoice_number).toBe(Number(invoice.number.slice(4)));
    } finally {
      await db.end();
    }
  });
});
