import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/server/db/client';
import { tickets, users } from '../../src/server/db/schema/index';
import { generateData } from '../data';
import { benchTarget, dropRun, median, prepareRun, readManifest, repeat, type Kind, type Manifest, type Target } from '../lib/common';
import { timeImportEntries, type HistoryFigures } from '../lib/history';
import type { DbResults } from './figures';
import { phase1 } from './in-process';
import { args, log, QUICK } from './options';
import { phase2 } from './server';

/**
 * The import's history part, once the server of phase 2 has stopped: its one INSERT … SELECT of
 * per-ticket entries over the tickets the last import wrote, timed alone (rolled back), so the
 * row compares the import with its own entries.
 */
async function importEntriesAfter(t: Target, m: Manifest, jobId: number, h: HistoryFigures) {
  const database = await openDatabase({ databaseUrl: t.runUrl, pgliteDir: path.join(t.runDir, 'db') });
  try {
    const { db } = database;
    const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, m.adminEmail));
    h.importTickets = (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, jobId))).length;
    h.importEntriesMs = median(await repeat(3, 120_000, () => timeImportEntries(db, m.companyId, admin.id, jobId)));
  } finally {
    await database.close();
  }
}

/** `npm run bench` on one database: its data (made when missing), a fresh copy, phase 1, then phases 2 and 3. */
export async function benchDatabase(kind: Kind): Promise<DbResults> {
  const started = performance.now();
  const t = benchTarget(kind, QUICK);
  let m = readManifest(t);
  if (!m || args.regen || !existsSync(m.workbook.path)) {
    log(`${kind}: no bench data yet — making it (npm run bench:data${QUICK ? ' -- --quick' : ''})`);
    m = await generateData(t, QUICK ? { jobs: 500, bigJobTickets: 1000, workbookRows: 2000, log } : { jobs: 5000, bigJobTickets: 5000, workbookRows: 10_000, log });
  }
  const res: DbResults = { kind, manifest: m, statements: {}, load: {}, importFig: null, exportMs: null, mapExport: null, rss: null, browser: null, field: null, notes: [], seconds: 0 };
  await prepareRun(t);
  try {
    log(`${kind}: phase 1 (in process)`);
    const p1 = await phase1(t, m);
    res.statements = p1.statements;
    res.exportMs = p1.exportMs;
    res.mapExport = p1.mapExport;
    res.invoice = p1.invoice;
    res.history = p1.history;
    res.notes.push(...p1.notes);
    log(`${kind}: phase 2 (server process)`);
    await phase2(t, m, p1, res);
    if (res.history && res.importFig?.lastJobId) {
      await importEntriesAfter(t, m, res.importFig.lastJobId, res.history).catch((e: unknown) => res.notes.push(`history of the import: ${(e as Error).message}`));
    }
  } catch (e) {
    res.notes.push(`aborted: ${(e as Error).message.split('\n')[0]}`);
    console.error(e);
  } finally {
    await dropRun(t).catch(() => {});
  }
  res.seconds = (performance.now() - started) / 1000;
  return res;
}
