/**
 * Where a large route's CPU goes under the bench's load (docs/product/scale.md §3, decision 063): one route of the
 * large bench at 10 clients against the real server on a kept copy of the large data (--db NAME),
 * with the CPU time of the server process, of every PostgreSQL process and of the load client
 * (this process: autocannon) over the run, each ÷ the requests served.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/investigations/cpu-split.ts --db NAME --route job|production|dashboard|jobs|health [--seconds 5] [--warm 3] [--connections 10] [--prof DIR]
 *   npx tsx bench/investigations/cpu-split.ts --pglite --route …   the same on a fresh copy of the 5,000-job PGlite data (the database
 *                                                  inside the server process, so "PostgreSQL" is 0)
 */
import { cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { startServer } from '../../src/server/test/server-process';
import { BENCH_PASSWORD, JWT_SECRET, benchTarget, http, parseArgs, readManifest, withDatabase } from '../lib/common';
import autocannon from '../lib/load-client';

const args = parseArgs(process.argv.slice(2));
const TICK_MS = 1000 / 100; // USER_HZ

/** utime + stime (ms) of a process, from /proc/PID/stat. */
function cpuOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU (ms) of every process whose name is postgres, by pid (backends come and go). */
function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() !== 'postgres') continue;
      out.set(Number(d), cpuOf(Number(d)));
    } catch {
      // The process ended between the listing and the read: it no longer counts.
    }
  }
  return out;
}

async function main() {
  const pglite = Boolean(args.pglite);
  const t = pglite ? benchTarget('pglite') : benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no bench data');
  let env: Record<string, string>;
  if (pglite) {
    // A fresh copy of the 5,000-job PGlite data: the server runs the database in its own process.
    const dir = path.join(t.runDir, '..', 'cpu-split-pglite');
    rmSync(dir, { recursive: true, force: true });
    cpSync(t.templateDir, dir, { recursive: true });
    env = { DATA_DIR: dir };
  } else {
    if (typeof args.db !== 'string' || args.db === t.templateDb) throw new Error('--db names your own copy of the large data');
    env = { DATA_DIR: path.join(t.runDir, 'cpu-split'), DATABASE_URL: withDatabase(t.adminUrl!, args.db) };
  }
  const routes: Record<string, string> = {
    job: `/api/v1/jobs/${m.bigJobId}`,
    production: `/api/v1/jobs/${m.bigJobId}/production`,
    dashboard: '/api/v1/dashboard',
    jobs: '/api/v1/jobs?limit=50',
    health: '/api/v1/health',
  };
  const route = routes[String(args.route ?? 'job')];
  const seconds = Number(args.seconds ?? 5);
  const server = await startServer({
    env: { NODE_ENV: 'production', JWT_SECRET, SEED_DEMO: '0', LOG_LEVEL: 'warn', ...env },
    timeoutMs: 120_000,
    // --prof DIR: the server's CPU profile (node --cpu-prof), written as it stops.
    nodeArgs: typeof args.prof === 'string' ? ['--cpu-prof', `--cpu-prof-dir=${args.prof}`] : undefined,
  });
  try {
    await server.ready;
    const login = await http(server.origin, 'POST', '/api/v1/crew/login', undefined, { email: m.adminEmail, password: BENCH_PASSWORD });
    const base = {
      url: server.origin,
      headers: { authorization: `Bearer ${login.json.token}`, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' },
      requests: [{ method: 'GET', path: route }],
    };
    await autocannon({ ...base, connections: 10, duration: Number(args.warm ?? 3) });
    const s0 = cpuOf(server.pid);
    const p0 = postgresCpu();
    const c0 = process.cpuUsage();
    const r = await autocannon({ ...base, connections: Number(args.connections ?? 10), duration: seconds });
    const c = process.cpuUsage(c0);
    const s = cpuOf(server.pid) - s0;
    let p = 0;
    for (const [pid, ms] of postgresCpu()) p += ms - (p0.get(pid) ?? 0);
    const n = r.requests.total;
    const per = (ms: number) => (ms / n).toFixed(2);
    console.log(`${route}: ${n} requests in ${seconds} s (${(n / seconds).toFixed(0)}/s), p50 ${r.latency.p50} ms; CPU per request: server ${per(s)} ms, PostgreSQL ${per(p)} ms, load client ${per((c.user + c.system) / 1000)} ms; cores busy: ${((s + p + (c.user + c.system) / 1000) / (seconds * 1000)).toFixed(2)}`);
  } finally {
    await server.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
