/**
 * Benchmark data (docs/product/scale.md §1): fills a company "Bench Line Co" through the same service layer the
 * API uses — crew through the crew service, jobs through the jobs service with their tickets
 * through the import service (the code path of PUT /jobs/ with newTickets), notes and
 * assignments through the tickets service (PUT /tickets/) — and writes the 10,000-row workbook
 * that `bench` imports through PUT /jobs/ with ticketsFile.
 *
 *   npm run bench:data -- --jobs 5000 --big-job-tickets 5000 [--workbook-rows 10000]
 *   BENCH_DATABASE_URL=postgres://… npm run bench:data -- …     (a real PostgreSQL server)
 *   BENCH_DATABASE_URL=postgres://… npm run bench:data -- --scale large
 *       ten years' data of docs/product/scale.md §1, bulk-loaded in SQL (bench/lib/large.ts)
 *
 * The result is a template (bench/lib/common.ts): each `bench` run starts from a copy of it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import { DEFAULT_ROLE_NAMES, ROLE } from '../src/shared/constants';
import { loadConfig } from '../src/server/config';
import type { AppContext } from '../src/server/context';
import { openDatabase } from '../src/server/db/client';
import { seedIfEmpty } from '../src/server/db/seed/seed';
import { tickets, utilities } from '../src/server/db/schema/index';
import { createMailer } from '../src/server/mail/mailer';
import { createStorage } from '../src/server/storage/create';
import { hashPassword } from '../src/server/modules/auth/passwords';
import { insertCompany, insertUser } from '../src/server/modules/auth/auth.repository';
import { createMember } from '../src/server/modules/crew/crew.service';
import { saveTicket } from '../src/server/modules/tickets/tickets.service';
import { generateTicketWorkbook } from '../src/server/test/generate-workbook';
import type { CurrentUser } from '../src/server/plugins/auth';
import { BENCH_ADMIN, BENCH_DIR, BENCH_PASSWORD, JWT_SECRET, benchTarget, parseArgs, resetTemplate, type Manifest, type Target } from './lib/common';
import { createBenchJob, type BenchTicket, type BenchUnit } from './lib/jobs';
import { generateLargeData } from './lib/large';

const UNIT_COUNT = 500;
const CREW = { foremen: 6, workingForemen: 14, linemen: 28, apprentices: 12 }; // 60
const STREETS = ['Main St', 'Elm St', 'Oak Ave', 'River Rd', 'Mill St', 'Pine St', 'Church St', 'High St', 'Maple Ave', 'Lake Rd'];

export interface DataOptions {
  jobs: number;
  bigJobTickets: number;
  workbookRows: number;
  log?: (msg: string) => void;
}

/** Ticket drafts as the Create Job modal sends them (newTickets): pole, work order, tasks. */
function ticketDrafts(prefix: string, count: number, tasksPerTicket: number, unitCodes: string[], seed = 0): BenchTicket[] {
  return Array.from({ length: count }, (_, i) => {
    const line = `${prefix}L${(i % 40) + 1}`;
    return {
      pole: {
        pole_name: `${prefix}${1000 + i}`,
        line_name: line,
        pole_id: `PID-${prefix}${i}`,
        line_id: `LID-${line}`,
        street_address: `${10 + (i % 900)} ${STREETS[i % STREETS.length]}, Springfield MA`,
        geo_lat: i % 7 === 6 ? null : Number((42.0 + (i % 5000) / 10000).toFixed(6)),
        geo_lon: i % 7 === 6 ? null : Number((-72.5 - (i % 5000) / 10000).toFixed(6)),
        primary_voltage: '13.8 kV',
        secondary_voltage: '240 V',
        arc_rating: '8 cal/cm²',
      },
      due_date: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      street_address: `${10 + (i % 900)} ${STREETS[i % STREETS.length]}, Springfield MA`,
      work_orders: [`WO-${prefix}${100000 + Math.floor(i / 3)}`],
      tasks: Array.from({ length: tasksPerTicket }, (_, k) => ({
        code: unitCodes[(i * 7 + k * 13 + seed) % unitCodes.length],
        init_qty: 1 + ((i + k) % 5),
      })),
    };
  });
}

export async function generateData(t: Target, opts: DataOptions): Promise<Manifest> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const started = performance.now();
  await resetTemplate(t);
  mkdirSync(t.templateDir, { recursive: true });
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: t.templateDir,
    DATABASE_URL: t.templateUrl ?? '',
    JWT_SECRET,
    LOG_LEVEL: 'warn',
  });
  // PGlite fills in memory (a data folder syncs on every commit: ~10× slower here) and is then
  // written to the template folder once, from its dump.
  const database = await openDatabase({ databaseUrl: t.templateUrl });
  const mail = createMailer({ outboxDir: path.join(t.templateDir, 'outbox'), from: config.mailFrom });
  const ctx: AppContext = { db: database.db, config, mail, storage: await createStorage(config) };
  try {
    await database.migrate();
    await seedIfEmpty(ctx); // the demo companies too, as a real installation would have others

    // The company and its first admin: there is no API to create a company (the seed does it too).
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const { company, adminRow, utilityId } = await ctx.db.transaction(async (tx) => {
      const company = await insertCompany(tx, 'Bench Line Co', DEFAULT_ROLE_NAMES);
      const adminRow = await insertUser(tx, { companyId: company.id, roleId: ROLE.ADMIN, firstName: 'Bench', lastName: 'Admin', email: BENCH_ADMIN, passwordHash });
      const [u] = await tx.insert(utilities).values({ companyId: company.id, code: 'NGRID' }).returning();
      await tx.insert(utilities).values({ companyId: company.id, code: 'EVERSOURCE' });
      return { company, adminRow, utilityId: u.id };
    });
    const me: CurrentUser = { id: adminRow.id, companyId: company.id, roleId: ROLE.ADMIN, firstName: 'Bench', lastName: 'Admin', email: BENCH_ADMIN };

    // 60 crew members through the crew service (POST /crew).
    let t0 = performance.now();
    const foremanIds: number[] = [];
    const wfIds: number[] = [];
    const quiet = () => {};
    for (let i = 0; i < CREW.foremen; i++) {
      const r = await createMember(ctx, me, { first_name: 'Foreman', last_name: `No${i + 1}`, email: `bench-foreman${i + 1}@example.com`, role_id: ROLE.FOREMAN, crew_status: 1, phone_number: '6175550000' }, quiet);
      foremanIds.push(r.crew.id);
    }
    const member = async (role: number, name: string, n: number) => {
      const r = await createMember(
        ctx,
        me,
        { first_name: name, last_name: `No${n}`, email: `bench-${name.toLowerCase().replace(/\s/g, '')}${n}@example.com`, role_id: role, crew_status: n % 10 === 0 ? 2 : 1, foreman: foremanIds[n % foremanIds.length] },
        quiet,
      );
      return r.crew.id;
    };
    for (let i = 0; i < CREW.workingForemen; i++) wfIds.push(await member(ROLE.WORKING_FOREMAN, 'Working', i + 1));
    for (let i = 0; i < CREW.linemen; i++) await member(ROLE.LINEMAN, 'Lineman', i + 1);
    for (let i = 0; i < CREW.apprentices; i++) await member(ROLE.APPRENTICE, 'Apprentice', i + 1);
    const activeWf = wfIds.filter((_, i) => (i + 1) % 10 !== 0);
    log(`crew: 60 members in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // A work packet in storage, as the signed upload would leave it; every job points at it.
    const packetKey = `${company.id}/work_packet/00000000-0000-4000-8000-000000000000/packet.pdf`;
    await ctx.storage.put(packetKey, Buffer.from('%PDF-1.4\n% bench work packet\n%%EOF\n'), 'application/pdf');
    const packetUrl = ctx.storage.urlFor(packetKey);

    // The unit library (500 units) arrives with the big job, as a workbook's library sheet does.
    const library: BenchUnit[] = Array.from({ length: UNIT_COUNT }, (_, i) => ({
      code: `BU-${String(i + 1).padStart(3, '0')}`,
      description: `Bench unit ${i + 1}`,
      family: ['Poles', 'Framing', 'Guying', 'Transformers', 'Conductor', 'Protection', 'Grounding', 'Clearing'][i % 8],
      type: i % 3 === 0 ? 'Labor' : 'Material',
      action: ['Install', 'Remove', 'Transfer'][i % 3],
      uom: i % 9 === 0 ? 'FT' : 'EA',
      notes: '',
    }));
    const codes = library.map((u) => u.code);
    const jobFields = (n: string, i: number) => ({
      job_number: n,
      job_type: (i % 10 === 0 ? 1 : 0) as 0 | 1,
      due_date: `2027-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
      selected_utility_id: utilityId,
      foreman_id: foremanIds[i % foremanIds.length],
      work_packet_url: packetUrl,
      work_packet_name: 'packet.pdf',
      work_packet_size: 36,
      work_packet_type: 'application/pdf',
      hospital_name: 'Baystate Medical Center',
      hospital_address: '759 Chestnut St, Springfield MA',
    });

    // The big job: N tickets of 4 tasks and 1 work order each, in one job save.
    t0 = performance.now();
    const bigJobId = await createBenchJob(ctx, me, jobFields('BIG-5000', 1), ticketDrafts('B', opts.bigJobTickets, 4, codes), library);
    log(`big job: ${opts.bigJobTickets} tickets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // One note each, assignments, and some completed tickets: through the tickets service (PUT /tickets/).
    t0 = performance.now();
    const big = await ctx.db.select({ id: tickets.id, version: tickets.version }).from(tickets).where(eq(tickets.jobId, bigJobId)).orderBy(tickets.id);
    for (const [i, tk] of big.entries()) {
      await saveTicket(ctx, me, {
        id: tk.id,
        version: tk.version,
        notes: [{ note_text: `Bench note for ticket ${i + 1}: crew on site, check guy anchor before setting.` }],
        assigned_to: i % 4 === 3 ? null : activeWf[i % activeWf.length],
        ...(i % 5 === 0 ? { status: 'Complete' as const } : {}),
        ...(i % 11 === 0 ? { dig_safe_required: 1 as const } : {}),
        ...(i % 13 === 0 ? { nra_required: 1 as const } : {}),
      });
      if ((i + 1) % 1000 === 0) log(`  notes: ${i + 1}/${big.length} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    log(`notes + assignments: ${big.length} ticket saves in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // Jobs of 10 and 100 tickets: statements per request must not grow with the tickets.
    const sizedJobs: Record<string, number> = {};
    for (const n of [10, 100]) sizedJobs[String(n)] = await createBenchJob(ctx, me, jobFields(`SIZE-${n}`, n), ticketDrafts(`S${n}-`, n, 4, codes), []);
    sizedJobs[String(opts.bigJobTickets)] = bigJobId;

    // The rest of the jobs: 0–3 tickets of one task each (the list computes counts and statuses).
    t0 = performance.now();
    const rest = Math.max(0, opts.jobs - 3);
    for (let i = 0; i < rest; i++) {
      await createBenchJob(ctx, me, jobFields(`J-${String(100000 + i)}`, i), ticketDrafts(`J${i}-`, i % 4, 1, codes, i), []);
      if ((i + 1) % 1000 === 0) log(`  jobs: ${i + 1}/${rest} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    }
    log(`jobs: ${rest} more in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    // The workbook to import (exceljs writer): 10,000 rows, 4 rows (tasks) per pole.
    t0 = performance.now();
    const wb = await generateTicketWorkbook(opts.workbookRows);
    const workbookPath = path.join(BENCH_DIR, `tickets-${opts.workbookRows}.xlsx`);
    writeFileSync(workbookPath, wb);
    log(`workbook: ${opts.workbookRows} rows, ${(wb.length / 1024).toFixed(0)} KB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const count = async (table: string) => {
      const res = (await ctx.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE company_id = ${Number(company.id)}`))) as unknown as { rows: { n: number }[] };
      return Number(res.rows[0].n);
    };
    const counts = {
      jobs: await count('jobs'),
      tickets: await count('tickets'),
      tasks: await count('ticket_tasks'),
      notes: await count('notes'),
      workOrders: await count('work_orders'),
      poles: await count('poles'),
      units: await count('units'),
      crew: (await count('users')) - 1,
    };
    if (t.kind === 'pglite') await ctx.db.execute(sql`VACUUM ANALYZE`);
    else await ctx.db.execute(sql`ANALYZE`);

    const manifest: Manifest = {
      kind: t.kind,
      createdAt: new Date().toISOString(),
      jobs: opts.jobs,
      bigJobTickets: opts.bigJobTickets,
      companyId: company.id,
      adminUserId: adminRow.id,
      adminEmail: BENCH_ADMIN,
      utilityId,
      bigJobId,
      sizedJobs,
      workbook: { path: workbookPath, rows: opts.workbookRows, bytes: wb.length },
      counts,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    if (t.kind === 'pglite') {
      t0 = performance.now();
      const client = (ctx.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
      const dump = await client.dumpDataDir('none');
      const onDisk = await openDatabase({ pgliteDir: path.join(t.templateDir, 'db'), pgliteLoad: dump });
      await onDisk.close();
      log(`written to ${path.join(t.templateDir, 'db')} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    writeFileSync(t.manifestPath, JSON.stringify(manifest, null, 2));
    log(`done in ${manifest.seconds} s: ${JSON.stringify(counts)}`);
    return manifest;
  } finally {
    await database.close();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.scale !== undefined && args.scale !== 'large') throw new Error('--scale takes one value: large');
  if (args.scale === 'large') {
    const t = benchTarget('postgres', false, true);
    console.log(`bench:data --scale large → ${t.templateUrl}`);
    const m = await generateLargeData(t, (msg) => console.log(msg));
    writeFileSync(t.manifestPath, JSON.stringify(m, null, 2));
    console.log(`done in ${m.seconds} s: ${JSON.stringify(m.counts)}`);
    return;
  }
  const quick = Boolean(args.quick);
  const opts: DataOptions = {
    jobs: Number(args.jobs ?? (quick ? 500 : 5000)),
    bigJobTickets: Number(args['big-job-tickets'] ?? (quick ? 1000 : 5000)),
    workbookRows: Number(args['workbook-rows'] ?? (quick ? 2000 : 10_000)),
  };
  for (const [k, v] of Object.entries(opts)) {
    if (!Number.isInteger(v) || v < 0 || v > 1_000_000) throw new Error(`--${k} must be a whole number up to 1,000,000`);
  }
  const t = benchTarget(undefined, quick);
  console.log(`bench:data → ${t.kind} (${t.kind === 'pglite' ? t.templateDir : t.templateUrl})`, opts);
  await generateData(t, opts);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
