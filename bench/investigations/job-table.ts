/**
 * `npx tsx bench/investigations/job-table.ts` (under the bench lock: bench/investigations/README.md):
 * only the big job's two desktop rows of `npm run bench` — "ticket table visible" (navigation →
 * the tickets page's 'tickets-table-visible' mark) and "re-sort of that table" (the 'tickets-sort' measure, Line then
 * Pole per load) — by the bench's own code (bench/lib/browser.ts `measureBrowser`), on a fresh copy
 * of the PGlite bench data. It neither builds the web app nor writes docs/benchmarks.md: run
 * `npx vite build` first.
 *
 *   options: --runs N (default 5) --port P (default: a free one)
 *            --waterfall  one more cold load, printing when each request of the page started and
 *                         ended (Resource Timing) and the page's marks: where the time before
 *                         the table goes
 *            --waterfall --profile FILE  and that load's CPU profile (.cpuprofile) written to FILE
 *            --waterfall --trace FILE    or its Chromium performance trace (DevTools' Performance
 *                         panel; `npx tsx bench/investigations/trace-summary.ts FILE` sums its main thread)
 *            --marks N    instead of the figure's runs: N untraced cold loads, each printing the
 *                         page's marks, when the job's reply and the last script arrived
 *                         (Resource Timing responseEnd): the phases of a load as the figure sees it
 *            --cpu N      instead of the figure's runs: N traced cold loads, each printing when the
 *                         table's mark came and the page's main-thread CPU time (trace `tdur`)
 *                         before it — the page's own work, which a loaded machine stretches less
 *                         than the wall time (decision 061)
 */
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { measureBrowser } from '../lib/browser';
import { browserBenchData, withBenchServer } from '../lib/bench-server';
import { parseArgs, round } from '../lib/common';
import { mainThreadBefore, recordTrace } from '../lib/trace';

const args = parseArgs(process.argv.slice(2));
const RUNS = Number(args.runs ?? 5);
const PORT = args.port === undefined ? undefined : Number(args.port);
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

/** A fresh browser with one signed-in page, as the figure's runs open it (1366 × 900, fresh context), for fn; closed after. */
async function withColdPage<T>(origin: string, token: string, fn: (page: Page, context: BrowserContext) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
    return await fn(await context.newPage(), context);
  } finally {
    await browser.close();
  }
}

/** Opens the page and waits for the table's mark. */
async function loadToMark(page: Page, origin: string, url: string) {
  await page.goto(`${origin}${url}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('tickets-table-visible', 'mark').length > 0, null, { timeout: 60_000 });
}

/** One cold desktop load (as the figure's runs: 1366 × 900, fresh context): its requests and marks. */
async function waterfall(origin: string, url: string, token: string, profile?: string, trace?: string) {
  await withColdPage(origin, token, async (page, context) => {
    const cdp = profile || trace ? await context.newCDPSession(page) : null;
    if (cdp && profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const load = () => loadToMark(page, origin, url);
    if (cdp && trace) log(`trace: ${trace} (${await recordTrace(cdp, trace, load)} events)`);
    else await load();
    if (cdp && profile) writeFileSync(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const { resources, marks } = await page.evaluate(() => ({
      resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((r) => ({
        name: r.name.replace(location.origin, ''),
        start: Math.round(r.startTime),
        sent: Math.round(r.requestStart),
        end: Math.round(r.responseEnd),
        bytes: r.encodedBodySize,
      })),
      marks: performance.getEntriesByType('mark').map((m) => `${m.name} ${Math.round(m.startTime)}`),
    }));
    for (const r of resources.sort((a, b) => a.start - b.start))
      console.log(`  ${String(r.start).padStart(5)} → ${String(r.sent).padStart(5)} → ${String(r.end).padStart(5)} ms  ${String(r.bytes).padStart(8)} B  ${r.name}`);
    log(`${resources.length} requests; marks: ${marks.join(', ')}`);
  });
}

/** One untraced cold load (as the figure's): every mark, the job's reply and the last script's end. */
async function marksLoad(origin: string, url: string, token: string) {
  return withColdPage(origin, token, async (page) => {
    await loadToMark(page, origin, url);
    return page.evaluate(() => {
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const before = performance.getEntriesByName('tickets-table-visible', 'mark')[0].startTime;
      const job = res.find((r) => /\/api\/v1\/jobs\/\d+$/.test(r.name));
      const scripts = res.filter((r) => r.name.endsWith('.js') && r.startTime < before);
      const out: Record<string, number> = {};
      if (job) out['job reply start'] = job.responseStart;
      if (job) out['job reply end'] = job.responseEnd;
      out['last script end'] = Math.max(...scripts.map((r) => r.responseEnd));
      for (const m of performance.getEntriesByType('mark')) out[m.name] = m.startTime;
      return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Math.round(v)]).sort((a, b) => (a[1] as number) - (b[1] as number)));
    });
  });
}

/** One traced cold load (as the figure's: 1366 × 900, fresh context): the mark and the CPU before it. */
async function cpuLoad(origin: string, url: string, token: string) {
  const file = path.join(os.tmpdir(), `job-table-${process.pid}.trace.json`);
  try {
    return await withColdPage(origin, token, async (page, context) => {
      await recordTrace(await context.newCDPSession(page), file, () => loadToMark(page, origin, url));
      return mainThreadBefore(file, 'tickets-table-visible');
    });
  } finally {
    rmSync(file, { force: true });
  }
}

async function main() {
  const { t, m } = browserBenchData();
  log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; copying the bench data…`);
  await withBenchServer(t, { port: PORT }, async ({ origin, login }) => {
    const token = await login(m.adminEmail);
    if (args.marks) {
      for (let i = 0; i < Number(args.marks); i++) {
        const r = await marksLoad(origin, `/job?id=${m.bigJobId}`, token);
        log(`load ${i + 1} (load average ${os.loadavg()[0].toFixed(2)}): ${Object.entries(r).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
      }
      return;
    }
    if (args.cpu) {
      const loads = [];
      for (let i = 0; i < Number(args.cpu); i++) {
        const r = await cpuLoad(origin, `/job?id=${m.bigJobId}`, token);
        if (r) loads.push(r);
        log(r ? `load ${i + 1}: mark ${round(r.markMs, 0)} ms, main thread CPU ${round(r.cpuMs, 0)} ms (busy ${round(r.busyMs, 0)} ms) before it` : `load ${i + 1}: no mark in the trace`);
      }
      const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
      console.log(JSON.stringify({ loadAverage: os.loadavg().map((l) => round(l, 2)), markMs: median(loads.map((l) => l.markMs)), cpuMs: median(loads.map((l) => l.cpuMs)), loads: loads.length }));
      return;
    }
    const b = await measureBrowser({ origin, token, bigJobId: m.bigJobId, runs: RUNS, timeBudgetMs: 240_000, log, initialJs: false });
    if (args.waterfall) await waterfall(
        origin,
        `/job?id=${m.bigJobId}`,
        token,
        typeof args.profile === 'string' ? args.profile : undefined,
        typeof args.trace === 'string' ? args.trace : undefined,
      );
    console.log(
      JSON.stringify(
        {
          loadAverage: os.loadavg().map((l) => round(l, 2)),
          tableVisibleMs: b.tableVisibleMs === null ? null : round(b.tableVisibleMs, 0),
          tableVisibleHow: b.tableVisibleHow,
          resortMs: b.resortMs === null ? null : round(b.resortMs, 0),
          resortHow: b.resortHow,
          runs: b.runs,
          samples: b.samples,
          notes: b.notes,
        },
        null,
        2,
      ),
    );
  });
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
