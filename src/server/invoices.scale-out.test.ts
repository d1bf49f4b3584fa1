import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE } from '../shared/error-codes';
import { withDatabase } from './test/global-setup';
import { startServer, type ServerProcess } from './test/server-process';

/**
 * Never billed twice, across processes (DESIGN §7.3): two real server processes on ONE
 * PostgreSQL database receive invoices of the same job at the same moment. Exactly one invoice
 * is made, each ticket is on it once, and every other request gets a clear 409. Real HTTP, no
 * app.inject; the guarantee is the database's (row locks + billed_tickets' key), not a process's.
 *
 * Needs a real PostgreSQL server (TEST_DATABASE_URL) and runs once, in the "postgres" project.
 */
const url = process.env.TEST_DATABASE_URL;
const skipReason = !url
  ? 'skipped: TEST_DATABASE_URL is not set (needs a real PostgreSQL server; CI sets it)'
  : process.env.TEST_DB_KIND !== 'postgres'
    ? 'skipped here: runs once, in the "postgres" vitest project'
    : null;
const label = (name: string) => (skipReason ? `${name} [${skipReason}]` : name);

const dbName = `linecrew_inv_${randomBytes(5).toString('hex')}`;
let dataDir = '';
let a: ServerProcess | undefined;
let b: ServerProcess | undefined;
let admin: pg.Client | undefined;
const tokens: string[] = [];

async function login(server: ServerProcess, email: string) {
  const res = await fetch(`${server.origin}/api/v1/crew/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'linecrew' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function post(server: ServerProcess, token: string, route: string, body: unknown) {
  const res = await fetch(`${server.origin}/api/v1${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'accept-encoding': 'identity' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe.skipIf(skipReason !== null)('invoices across two app processes on one PostgreSQL', () => {
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-inv-'));
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: withDatabase(url!, dbName),
      DATA_DIR: dataDir,
      JWT_SECRET: `inv-${randomBytes(24).toString('hex')}`,
      SEED_DEMO: '1',
    };
    a = await startServer({ env });
    await a.ready;
    b = await startServer({ env });
    await b.ready;
    tokens.push(await login(a, 'admin@example.com'), await login(b, 'office@example.com'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it(label('eight invoices of one job sent at once to both processes: one invoice, each ticket billed once, the rest 409'), async () => {
    const db = new pg.Client({ connectionString: withDatabase(url!, dbName) });
    await db.connect();
    try {
      const job = (
        await db.query(`SELECT id FROM jobs WHERE job_number = 'J-1001' AND company_id = (SELECT id FROM companies WHERE name = 'Demo Line Co')`)
      ).rows[0].id as number;
      // Every ticket of the job Complete and unbilled: something real to fight over.
      await db.query(`UPDATE tickets SET actual_completion_date = now() - interval '1 day', billed_at = NULL, invoice_number = NULL WHERE job_id = $1`, [job]);
      const ids = (await db.query(`SELECT id FROM tickets WHERE job_id = $1 ORDER BY id`, [job])).rows.map((r) => r.id as number);
      expect(ids.length).toBeGreaterThan(1);

      const servers = [a!, b!, a!, b!, a!, b!, a!, b!];
      const replies = await Promise.all(
        servers.map((server, i) => post(server, tokens[i % 2], `/jobs/${job}/invoices`, i < 4 ? {} : { ticket_ids: ids })),
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

      const invoices = await db.query(`SELECT id FROM invoices WHERE job_id = $1`, [job]);
      expect(invoices.rows).toEqual([{ id: invoice.id }]);
      const billed = await db.query(`SELECT ticket_id, invoice_id FROM billed_tickets WHERE ticket_id = ANY($1) ORDER BY ticket_id`, [ids]);
      expect(billed.rows).toEqual(ids.map((id) => ({ ticket_id: id, invoice_id: invoice.id })));
      const tickets = await db.query(`SELECT DISTINCT invoice_number FROM tickets WHERE job_id = $1`, [job]);
      expect(tickets.rows).toEqual([{ invoice_number: invoice.number }]);
      // Numbers were never handed out twice: the counter moved once.
      const counter = await db.query(`SELECT last_invoice_number FROM companies WHERE name = 'Demo Line Co'`);
      expect(counter.rows[0].last_invoice_number).toBe(Number(invoice.number.slice(4)));
    } finally {
      await db.end();
    }
  });
});
