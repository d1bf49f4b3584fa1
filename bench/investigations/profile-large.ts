/**
 * One route of the large bench timed in process on a kept copy of the large data (--db NAME, made
 * with CREATE DATABASE … TEMPLATE linecrew_bench_template_large; never the template), with its
 * statements' own time beside it, so route − SQL is the JS the route spends (decision 054).
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/investigations/profile-large.ts --db NAME --route work|jobs|search|job|production|xlsx2|xlsxunits|geojson [--n 20] [--clients 10]
 *   --dump FILE writes the plain reply; --prof FILE writes a CPU profile of the timed requests only
 *   (not the start-up; open it in Chrome's DevTools); "node CPU per request" is this process's CPU
 *   time (user + system, process.cpuUsage) over the timed requests ÷ their number: what the route
 *   costs beside its SQL, less noisy on a shared machine than the p50 (decision 063)
 *   --stale: a write the dashboard reads (migration 0034's stamps move) before each round, so every
 *            request rebuilds its kept reply: the cost after a write, not the cached one (decision 062)
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { users } from '../../src/server/db/schema/index';
import { createMailer } from '../../src/server/mail/mailer';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { createStorage } from '../../src/server/storage/create';
import { BENCH_PASSWORD, JWT_SECRET, benchTarget, median, parseArgs, readManifest, withDatabase } from '../lib/common';
import { capture, replayOnce } from '../lib/sql';

const args = parseArgs(process.argv.slice(2));

async function main() {
  // --pglite: the 5,000-job PGlite bench data instead (a fresh copy), the database in this process.
  const pglite = Boolean(args.pglite);
  const t = pglite ? benchTarget('pglite') : benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no bench data');
  let url = '';
  const copy = path.join(t.runDir, '..', 'profile-pglite');
  if (pglite) {
    rmSync(copy, { recursive: true, force: true });
    cpSync(t.templateDir, copy, { recursive: true });
  } else {
    if (typeof args.db !== 'string' || args.db === t.templateDb) throw new Error('--db names your own copy of the large data');
    url = withDatabase(t.adminUrl!, args.db);
  }
  const database = await openDatabase(pglite ? { pgliteDir: path.join(copy, 'db') } : { databaseUrl: url });
  await database.migrate();
  const [fm] = (
    (await database.db.execute(sql`
      select u.email from tickets t join jobs j on j.id = t.job_id and j.company_id = t.company_id
      join users u on u.id = j.foreman_id where t.company_id = ${m.companyId} and t.actual_completion_date is null
      group by u.email order by abs(count(*) - 2000), u.email limit 1`)) as unknown as { rows: { email: string }[] }
  ).rows;
  await database.db.update(users).set({ passwordHash: await hashPassword(BENCH_PASSWORD) }).where(and(eq(users.companyId, m.companyId), eq(users.email, fm.email)));
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: pglite ? copy : path.join(t.runDir, 'profile'), ...(pglite ? {} : { DATABASE_URL: url }), JWT_SECRET, LOG_LEVEL: 'error' });
  const app = await buildApp({ db: database.db, config, mail: createMailer({ outboxDir: path.join(t.runDir, 'profile-outbox'), from: config.mailFrom }), storage: await createStorage(config), logger: false });
  await app.ready();
  const login = async (email: string) => (await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email, password: BENCH_PASSWORD } })).json().token as string;
  const routes: Record<string, [string, string]> = {
    jobs: ['/api/v1/jobs?limit=50', m.adminEmail],
    search: ['/api/v1/jobs?limit=50&q=0999', m.adminEmail],
    work: ['/api/v1/work', fm.email],
    dashboard: ['/api/v1/dashboard', m.adminEmail],
    job: [`/api/v1/jobs/${m.bigJobId}`, m.adminEmail],
    production: [`/api/v1/jobs/${m.bigJobId}/production`, m.adminEmail],
    // The big job's exports (the large bench's "Exports" row).
    xlsx2: [`/api/v1/jobs/${m.bigJobId}/export.xlsx?option=2`, m.adminEmail],
    xlsxunits: [`/api/v1/jobs/${m.bigJobId}/export.xlsx?option=units`, m.adminEmail],
    geojson: [`/api/v1/jobs/${m.bigJobId}/geojson`, m.adminEmail],
  };
  const [url_, who] = routes[String(args.route ?? 'work')];
  const token = await login(who);
  // payloadAsStream: the reply's bytes read as a stream, as a socket would; light-my-request's
  // default turns every reply into a string first, milliseconds for a 92 KB compressed job page.
  const get = async () => {
    const r = await app.inject({ method: 'GET', url: url_, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip, deflate, br' }, payloadAsStream: true });
    let size = 0;
    for await (const chunk of r.stream()) size += (chunk as Buffer).length;
    return { statusCode: r.statusCode, size };
  };
  if (typeof args.dump === 'string') {
    // The plain reply, for trying compression levels on it.
    const plain = await app.inject({ method: 'GET', url: url_, headers: { authorization: `Bearer ${token}` } });
    writeFileSync(args.dump, plain.rawPayload);
  }
  const n = Number(args.n ?? 20);
  const clients = Number(args.clients ?? 1);
  await get();
  const times: number[] = [];
  let bytes = 0;
  const stale = async () => {
    if (args.stale) await database.db.execute(sql`update job_dashboard set open = open where job_id = (select min(job_id) from job_dashboard where company_id = ${m.companyId})`);
  };
  const session = typeof args.prof === 'string' ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    await stale();
    await Promise.all(
      Array.from({ length: clients }, async () => {
        const t0 = performance.now();
        const r = await get();
        times.push(performance.now() - t0);
        bytes = r.size;
      }),
    );
  }
  const cpu = process.cpuUsage(cpu0);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(String(args.prof), JSON.stringify(profile));
    session.disconnect();
  }
  await stale();
  const { statements } = await capture(get, database.db);
  const sqlTimes: number[] = [];
  for (let i = 0; i < 5; i++) sqlTimes.push(await replayOnce(database.db, database.kind, statements, { write: false }));
  console.log(`${url_}: route p50 ${median(times).toFixed(1)} ms (${clients} at once, ${times.length} requests), its SQL alone ${median(sqlTimes).toFixed(1)} ms (${statements.length} statements); reply ${bytes} bytes; node CPU per request ${((cpu.user + cpu.system) / 1000 / times.length).toFixed(2)} ms`);
  await app.close();
  await database.close();
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
