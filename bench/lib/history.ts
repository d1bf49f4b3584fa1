import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { asc, eq } from 'drizzle-orm';
import type { AppContext } from '../../src/server/context';
import { tickets, users } from '../../src/server/db/schema/index';
import { recordImport } from '../../src/server/modules/history/history.service';
import { recordTicketUpdate } from '../../src/server/modules/tickets/ticket-history.service';
import { loadTicket } from '../../src/server/modules/tickets/ticket-reads.repository';
import { lockTicketForChange } from '../../src/server/modules/tickets/tickets.repository';
import { makeStorageKey } from '../../src/server/storage/keys';
import { defaultMappings } from '../../src/shared/excel';
import type { Ticket } from '../../src/shared/tickets.schemas';
import { importJobBody, median, XLSX_TYPE, type Manifest } from './common';

/**
 * What recording the history costs (decision 051: no more than 20 % on a ticket save or the
 * 10,000-row import), in process on the run's copy of the data (`npm run bench`, and alone:
 * `npm run bench:history`).
 *
 * - The save is timed whole (PUT /tickets/ through app.inject); its history part is the same
 *   history work (recordTicketUpdate: the "before" from what the save holds, the diff, the
 *   insert) timed alone on the same ticket in a transaction that is rolled back, so
 *   "without" = whole − part.
 * - The import is timed whole (PUT /jobs/ with the bench workbook, a new job each time); its
 *   history part is its one INSERT … SELECT of per-ticket entries over that import's tickets,
 *   timed alone the same way.
 */
export interface HistoryFigures {
  saveMs: number;
  saveHistoryMs: number;
  /** The import's per-ticket entries over the tickets of one import of the workbook (null: not measured yet). */
  importEntriesMs: number | null;
  importTickets: number | null;
  /** The whole import in process (null: not measured, the full bench times it on the server). */
  importMs: number | null;
}

export type Inject = (method: 'GET' | 'PUT', url: string, payload?: unknown) => Promise<{ statusCode: number; json: () => unknown; body: string }>;
type Tx = Parameters<Parameters<AppContext['db']['transaction']>[0]>[0];

class RolledBack extends Error {}
/** Runs `work` in a transaction that is always rolled back; its time in ms. */
async function timedRollback(db: AppContext['db'], work: (tx: Tx) => Promise<void>) {
  let ms = 0;
  await db
    .transaction(async (tx) => {
      const t0 = performance.now();
      await work(tx);
      ms = performance.now() - t0;
      throw new RolledBack();
    })
    .catch((e: unknown) => {
      if (!(e instanceof RolledBack)) throw e;
    });
  return ms;
}

/** The ticket save: whole, and its history part alone (`saves` rounds, the first one a warm-up). */
export async function measureSaveHistory(ctx: AppContext, inject: Inject, m: Manifest, saves: number) {
  const [tk] = await ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, m.bigJobId)).orderBy(asc(tickets.id)).limit(1);
  const [admin] = await ctx.db.select().from(users).where(eq(users.email, m.adminEmail));
  const actor = { id: admin.id, companyId: m.companyId };
  const whole: number[] = [];
  const parts: number[] = [];
  for (let i = 0; i < saves; i++) {
    const cur = (await inject('GET', `/api/v1/tickets/${tk.id}`)).json() as Ticket;
    const t0 = performance.now();
    const r = await inject('PUT', '/api/v1/tickets/', { ticket: { id: cur.id, version: cur.version, description: `bench history ${i}` } });
    const ms = performance.now() - t0;
    if (r.statusCode !== 200) throw new Error(`ticket save: ${r.statusCode} ${r.body}`);
    // The save's own steps (the lock, the read of the ticket after for its reply) are done first
    // and not timed; what is timed is what the history adds: the "before" made from what the
    // save holds, the diff and the entries' insert.
    let ms0 = 0;
    const part = await timedRollback(ctx.db, async (tx) => {
      const locked = (await lockTicketForChange(tx, m.companyId, tk.id))!;
      const after = (await loadTicket(tx, m.companyId, tk.id))!;
      const t1 = performance.now();
      await recordTicketUpdate(tx, actor, { locked }, { ...after, description: `${after.description} (bench)` });
      ms0 = performance.now() - t1;
    }).then(() => ms0);
    if (i > 0) {
      whole.push(ms);
      parts.push(part);
    }
  }
  return { saveMs: median(whole), saveHistoryMs: median(parts) };
}

/** The import's entries over the tickets of `jobId` (as it writes them when it publishes), timed alone. */
export async function timeImportEntries(db: AppContext['db'], companyId: number, userId: number, jobId: number) {
  return timedRollback(db, (tx) => recordImport(tx, { companyId, userId, jobId }, { fromJobId: jobId }));
}

/**
 * The workbook imported `runs` times into new jobs (PUT /jobs/ with ticketsFile, in process); for
 * each, its history part timed alone over its own tickets. Medians of the runs after the first.
 */
export async function measureImportHistory(ctx: AppContext, inject: Inject, m: Manifest, runs: number) {
  const [admin] = await ctx.db.select().from(users).where(eq(users.email, m.adminEmail));
  const buf = readFileSync(m.workbook.path);
  const key = makeStorageKey(m.companyId, 'excel', 'bench-history.xlsx');
  await ctx.storage.put(key, buf, XLSX_TYPE);
  const url = ctx.storage.urlFor(key);
  const cols = await inject('GET', `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(url)}`);
  if (cols.statusCode !== 200) throw new Error(`getColumns: ${cols.statusCode} ${cols.body}`);
  const mappings = defaultMappings(cols.json() as Parameters<typeof defaultMappings>[0]);
  const packetKey = makeStorageKey(m.companyId, 'work_packet', 'packet.pdf');
  await ctx.storage.put(packetKey, Buffer.from('%PDF-1.4 bench'), 'application/pdf');
  const imports: number[] = [];
  const entries: number[] = [];
  let importTickets = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await inject('PUT', '/api/v1/jobs/', importJobBody(m, { jobNumber: `HIST-${Date.now().toString(36)}-${i}`, packetUrl: ctx.storage.urlFor(packetKey), fileUrl: url, fileSize: buf.length, mappings }));
    const ms = performance.now() - t0;
    if (r.statusCode !== 200) throw new Error(`import: ${r.statusCode} ${r.body.slice(0, 300)}`);
    const reply = r.json() as { job: { id: number }; imported?: { tickets: number } };
    importTickets = reply.imported?.tickets ?? 0;
    const part = await timeImportEntries(ctx.db, m.companyId, admin.id, reply.job.id);
    if (i > 0 || runs === 1) {
      imports.push(ms);
      entries.push(part);
    }
  }
  return { importMs: median(imports), importEntriesMs: median(entries), importTickets };
}
