/**
 * `npx tsx bench/investigations/vitals-only.ts` (under the bench lock: bench/investigations/README.md):
 * only the big job page's three browser figures of `npm run bench`, by the same code (bench/lib/browser.ts,
 * bench/lib/vitals.ts), on a fresh copy of the PGlite bench data (`npm run bench:data`):
 *  - phone TBT of the big job's page (390 × 844, CPU 4× slower), median of --runs cold loads;
 *  - the layout shift of /work (the bench foreman), the same way;
 *  - navigation → 'tickets-table-visible' and the 'tickets-sort' measure (Line, then Pole), medians.
 * It neither builds the web app nor writes docs/benchmarks.md: run `npx vite build` first.
 *
 *   options: --runs N (default 3) --port P (default: a free one)
 *            --profile FILE  instead of the figures: one cold phone load, throttled as the TBT run,
 *                            with the CDP profiler on; writes FILE (.cpuprofile, opens in Chrome's
 *                            Performance panel) and prints the long tasks and the functions with
 *                            the most self time during them
 *            --profile FILE --profile-sort  the same for two re-sorts of the table on the wide screen
 *            --tbt-only  only the phone TBT (the table's two figures: bench/investigations/job-table.ts)
 *            --cls-sources  instead of the figures: --runs cold phone loads of /work, each shift
 *                           printed with its time, value and the elements it moved
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { measureBrowser } from '../lib/browser';
import { browserBenchData, giveForemanPassword, withBenchServer } from '../lib/bench-server';
import { BENCH_FOREMAN, parseArgs, round } from '../lib/common';
import { CPU_SLOWDOWN, WORK_READY, cumulativeLayoutShift, load, measureVitals, totalBlockingTime } from '../lib/vitals';

const args = parseArgs(process.argv.slice(2));
const RUNS = Number(args.runs ?? 3);
const PORT = args.port === undefined ? undefined : Number(args.port);
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a profile (idle and program time left out). */
function printSelfTime(profile: Profile, top = 40) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const f = byId.get(profile.samples[i])!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + profile.timeDeltas[i] / 1000);
  }
  log(`self time (ms), top ${top}:`);
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${v.toFixed(1).padStart(8)}  ${k}`);
}

/** A re-sort on the wide screen (as the table figure's run, not throttled) with the profiler on. */
async function profileSort(origin: string, url: string, token: string, file: string) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
    const page = await context.newPage();
    await page.goto(`${origin}${url}`);
    await page.waitForSelector('table tbody tr');
    await page.waitForTimeout(3000);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    for (const column of ['Line', 'Pole']) {
      await page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).getByRole('button').click();
      await page.waitForTimeout(1000);
    }
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    writeFileSync(file, JSON.stringify(profile));
    log(`sorts: ${JSON.stringify(await page.evaluate(() => performance.getEntriesByName('tickets-sort', 'measure').map((m) => Math.round(m.duration))))} ms`);
    printSelfTime(profile, 30);
  } finally {
    await browser.close();
  }
}

/** One cold throttled phone load of the job page with the sampling profiler on. */
async function profileLoad(origin: string, url: string, token: string, file: string) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
    await context.route('**/sw.js', (r) => r.abort());
    await context.addInitScript(() => {
      const w = window as unknown as { __long: { start: number; duration: number }[]; __fcp: number | null };
      w.__long = [];
      w.__fcp = null;
      new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__long.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
      new PerformanceObserver((l) => l.getEntries().forEach((e) => e.name === 'first-contentful-paint' && (w.__fcp = e.startTime))).observe({ type: 'paint', buffered: true });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(`${origin}${url}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForSelector('[data-ticket-id]', { timeout: 45_000 });
    await page.waitForTimeout(8000);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const raw = await page.evaluate(() => {
      const w = window as unknown as { __long: { start: number; duration: number }[]; __fcp: number | null; performance: Performance };
      return { long: w.__long, fcp: w.__fcp, timeOrigin: performance.timeOrigin, marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]) };
    });
    writeFileSync(file, JSON.stringify(profile));
    log(`profile written to ${file}`);
    log(`FCP ${round(raw.fcp ?? NaN, 0)} ms, TBT ${round(totalBlockingTime(raw), 0)} ms; marks ${JSON.stringify(raw.marks)}`);
    for (const t of raw.long) log(`long task at ${round(t.start, 0)} ms: ${round(t.duration, 0)} ms`);
    printSelfTime(profile);
    await context.close();
  } finally {
    await browser.close();
  }
}

async function main() {
  const { t, m } = browserBenchData();
  log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; copying the bench data…`);
  await withBenchServer(t, { port: PORT, prepare: () => giveForemanPassword(t, m) }, async ({ origin, login }) => {
    const token = await login(m.adminEmail);
    if (typeof args.profile === 'string') {
      // A warm-up load first, as the figures have: the server keeps its reply.
      await fetch(`${origin}/api/v1/jobs/${m.bigJobId}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
      await (args['profile-sort'] ? profileSort : profileLoad)(origin, `/job?id=${m.bigJobId}`, token, args.profile);
      return;
    }
    if (args['cls-sources']) {
      const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
      try {
        const workToken = await login(BENCH_FOREMAN);
        for (let i = 0; i < RUNS; i++) {
          const raw = await load(browser, origin, '/work', workToken, WORK_READY);
          log(`/work load ${i + 1}: CLS ${round(cumulativeLayoutShift(raw.shifts), 4)}, FCP ${round(raw.fcp ?? NaN, 0)} ms`);
          for (const s of raw.shifts) console.log(`  at ${round(s.t, 0)} ms: ${round(s.v, 4)}\n${s.what.map((w) => `    ${w}`).join('\n')}`);
        }
      } finally {
        await browser.close();
      }
      return;
    }
    const b = args['tbt-only']
      ? { tableVisibleMs: null, tableVisibleHow: 'not measured (--tbt-only)', resortMs: null, resortHow: '', runs: 0, notes: [] }
      : (log(`table and re-sort (${RUNS} runs)…`), await measureBrowser({ origin, token, bigJobId: m.bigJobId, runs: RUNS, timeBudgetMs: 180_000, log, initialJs: false }));
    log(`phone TBT (${RUNS} runs)…`);
    const v = await measureVitals({ origin, token, jobId: m.bigJobId, workToken: await login(BENCH_FOREMAN), runs: RUNS, timeBudgetMs: 300_000, log });
    const out = {
      loadAverage: os.loadavg().map((l) => round(l, 2)),
      phoneTbtMs: v.jobTbtMs === null ? null : round(v.jobTbtMs, 0),
      workCls: v.workCls === null ? null : round(v.workCls, 4),
      tableVisibleMs: b.tableVisibleMs === null ? null : round(b.tableVisibleMs, 0),
      tableVisibleHow: b.tableVisibleHow,
      resortMs: b.resortMs === null ? null : round(b.resortMs, 0),
      resortHow: b.resortHow,
      runs: { table: b.runs, tbt: v.jobRuns },
      tbtRunsMs: v.jobTbtRunsMs.map((x) => round(x, 0)),
      notes: [...b.notes, ...v.notes],
    };
    console.log(JSON.stringify(out, null, 2));
  });
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
