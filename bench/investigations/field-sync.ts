/**
 * The field-mode sync figure alone (bench/lib/field.ts, "50 notes queued offline, synced"), on a
 * fresh copy of the bench data, against the built app (dist/web: run `npx vite build` first):
 *
 *   npx tsx bench/investigations/field-sync.ts [--db pglite|postgres] [--runs 3] [--port 4331]
 *
 * Same method as `npm run bench`'s row (measureField with no repeat visits and no photo: a first
 * visit, then the sync runs). Run it under the bench lock
 * when other measurements may run at once (bench/investigations/README.md).
 */
import os from 'node:os';
import { browserBenchData, giveForemanPassword, withBenchServer } from '../lib/bench-server';
import { BENCH_FOREMAN, type Kind } from '../lib/common';
import { measureField } from '../lib/field';

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const { t, m } = browserBenchData((arg('db') as Kind | undefined) ?? 'pglite');
const runs = Number(arg('runs') ?? 3);
const port = arg('port') ? Number(arg('port')) : undefined;

await withBenchServer(t, { port, prepare: () => giveForemanPassword(t, m) }, async ({ origin, login }) => {
  const started = os.loadavg();
  const fig = await measureField({
    origin,
    relayPort: port === undefined ? undefined : port + 1,
    token: await login(BENCH_FOREMAN),
    checkToken: await login(m.adminEmail),
    visits: 0,
    photo: false,
    syncRuns: runs,
    timeBudgetMs: 240_000,
    log: (s) => console.log(s),
  });
  const ended = os.loadavg();
  const la = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  console.log(`sync: median ${fig.syncMs?.toFixed(0)} ms over ${fig.syncRuns} runs; arrived ${fig.syncArrived.join(', ')}; load ${la(started)} → ${la(ended)}`);
  for (const n of fig.notes) console.log(`note: ${n}`);
});

