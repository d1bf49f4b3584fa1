/**
 * Decision 059's figures on the ten-year data (decision 054): how long migration 0030's backfill
 * takes on 1,000,000 tickets, then GET /dashboard and a 5,000-ticket job's GET /jobs/{id}/production
 * in process (one client, as the large bench's "alone" rows), production with its cached reply
 * made stale before each request (the job row touched) so every request sums again; and what the
 * triggers cost one write on that job (a task's quantity, a ticket completed and reopened).
 * Works on a copy of its own (linecrew_bench_kept_large), dropped at the end unless --keep.
 *
 *   BENCH_DATABASE_URL=postgres://… flock /work/bench.lock npx tsx bench/kept-figures-large.ts [--runs 10] [--keep]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { createMailer } from '../src/server/mail/mailer';
import { createStorage } from '../src/server/storage/create';
import { BENCH_PASSWORD, JWT_SECRET, benchTarget, median, readManifest, withDatabase } from './lib/common';

const DB = 'linecrew_bench_kept_large';
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '10' }, keep: { type: 'boolean', default: false } } });
const runs = Number(args.runs);
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

async function main() {
  const t = benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no large data: run `npm run bench:data -- --scale large` first');
  const admin = new pg.Client({ connectionString: t.adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  let t0 = performance.now();
  await admin.query(`CREATE DATABASE ${DB} TEMPLATE ${t.templateDb}`);
  console.log(`copy of the template: ${ms(t0)} ms`);
  const url = withDatabase(t.adminUrl!, DB);
  const database = await openDatabase({ databaseUrl: url });
  try {
    t0 = performance.now();
    await database.migrate();
    console.log(`migrations (0030's backfill on ${m.counts.tickets} tickets, ${m.counts.tasks} tasks): ${ms(t0)} ms`);
    await database.db.execute(sql`ANALYZE`);
    const kept = (await database.db.execute(sql`select (select count(*) from job_unit_figures) as unit_figures, (select count(*) from job_ticket_days) as ticket_days,
      (select count(*) from job_unit_days) as unit_days, (select count(*) from job_figures) as job_figures`)) as unknown as { rows: unknown[] };
    console.log('kept rows:', JSON.stringify(kept.rows[0]));

    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: path.join(t.runDir, 'kept'), DATABASE_URL: url, JWT_SECRET, LOG_LEVEL: 'error' });
    const app = await buildApp({ db: database.db, config, mail: createMailer({ outboxDir: path.join(t.runDir, 'kept-outbox'), from: config.mailFrom }), storage: await createStorage(config), logger: false });
    await app.ready();
    const login = await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email: m.adminEmail, password: BENCH_PASSWORD } });
    const token = login.json().token as string;
    const get = async (url: string) => {
      const s = performance.now();
      const r = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      if (r.statusCode !== 200) throw new Error(`${url}: ${r.statusCode} ${r.body.slice(0, 200)}`);
      return { ms: ms(s), bytes: r.rawPayload.length };
    };
    const series = async (name: string, url: string, before?: () => Promise<void>) => {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        if (before) await before();
        const r = await get(url);
        times.push(r.ms);
        bytes = r.bytes;
      }
      console.log(`${name}: first ${times[0]} ms, median ${median(times)} ms, max ${Math.max(...times)} ms over ${runs}; ${(bytes / 1024).toFixed(1)} KB of JSON`);
    };
    await series('GET /dashboard', '/api/v1/dashboard');
    const touch = async () => void (await database.db.execute(sql`update jobs set version = version where id = ${m.bigJobId}`));
    await series(`GET /jobs/${m.bigJobId}/production (${m.bigJobTickets} tickets, reply re-made each time)`, `/api/v1/jobs/${m.bigJobId}/production`, touch);

    // What the triggers add to one write on the big job.
    const [task] = ((await database.db.execute(sql`select tt.id, tt.ticket_id from ticket_tasks tt join tickets t on t.id = tt.ticket_id
      where t.job_id = ${m.bigJobId} and t.actual_completion_date is null limit 1`)) as unknown as { rows: { id: number; ticket_id: number }[] }).rows;
    const timed = async (name: string, q: ReturnType<typeof sql>) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const s = performance.now();
        await database.db.execute(q);
        times.push(ms(s));
      }
      console.log(`${name}: median ${median(times)} ms over ${runs}`);
    };
    await timed('a task quantity changed (UPDATE ticket_tasks, triggers included)', sql`update ticket_tasks set additional_qty = additional_qty + 1 where id = ${task!.id}`);
    await timed('a ticket completed or reopened, in turn (UPDATE tickets, triggers included)', sql`update tickets set actual_completion_date = case when actual_completion_date is null then now() end where id = ${task!.ticket_id}`);
    await app.close();
  } finally {
    await database.close();
    if (!args.keep) await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
