/**
 * `npx tsx bench/initial-js-run.ts [--pages /work,/jobs,/login] [--port P]`: bench/initial-js.ts (the bench's
 * "Initial JavaScript" row, file by file) on the real server over a fresh copy of the PGlite bench
 * data, signed in as the bench's admin (as `npm run bench` measures /jobs and /work; /login signed
 * out). Needs `npx vite build`. The figure is bytes, not time; under heavy load a run that lists
 * only ~20 files went idle before the page's chunk was asked for: run it again.
 */
import { spawnSync } from 'node:child_process';
import { browserBenchData, withBenchServer } from './lib/bench-server';
import { parseArgs } from './lib/common';

const args = parseArgs(process.argv.slice(2));
const pages = (typeof args.pages === 'string' ? args.pages : '/work').split(',');
const { t, m } = browserBenchData();
await withBenchServer(t, { port: args.port ? Number(args.port) : undefined }, async ({ origin }) => {
  for (const p of pages) {
    const who = p === '/login' ? [] : [m.adminEmail, 'linecrew'];
    spawnSync('npx', ['tsx', 'bench/initial-js.ts', origin, p, ...who], { stdio: 'inherit', cwd: process.cwd() });
  }
});
