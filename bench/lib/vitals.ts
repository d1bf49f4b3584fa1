import { chromium, type Browser } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { median } from './common';

/**
 * Lighthouse's two load figures on a phone, measured the way its mobile preset runs (decision 058),
 * in headless Debian Chromium without the lighthouse package:
 * - a 390 × 844 page (touch, device scale 2) with the CPU slowed 4× (CDP
 *   Emulation.setCPUThrottlingRate, Lighthouse's mobile CPU multiplier); the network is the
 *   loopback, not throttled: what is measured is the page's own main-thread work;
 * - total blocking time: Σ (long task − 50 ms) of the long tasks (PerformanceObserver 'longtask')
 *   that start after the first contentful paint, until the page has had no long task for 3 s
 *   (Lighthouse counts up to "time to interactive", the start of a 5 s quiet window);
 * - cumulative layout shift: the largest session window of 'layout-shift' entries without recent
 *   input (shifts < 1 s apart, a window at most 5 s long), as Lighthouse and CrUX count it.
 * Each load is a fresh context (cold caches: Chromium's code caches are per context), after one
 * warm-up load that lets the server build and keep its replies.
 */
export interface VitalsFigures {
  /** Median TBT of the job page (ms). */
  jobTbtMs: number | null;
  /** Each load's TBT of the job page, in the order measured. */
  jobTbtRunsMs: number[];
  /** Median CLS of /work. */
  workCls: number | null;
  jobRuns: number;
  workRuns: number;
  notes: string[];
}

export const CPU_SLOWDOWN = 4;
const PHONE = { width: 390, height: 844 };
const QUIET_MS = 3000;
const MAX_WAIT_MS = 45_000;

/** /work is loaded: its ticket cards or its heading. */
export const WORK_READY = '[data-ticket-id], h1';

/** Registered before any script of the page: every long task, paint and layout shift from the start. */
const OBSERVE = () => {
  const w = window as unknown as { __vitals: { long: { start: number; duration: number }[]; fcp: number | null; shifts: { t: number; v: number; what: string[] }[] } };
  w.__vitals = { long: [], fcp: null, shifts: [] };
  const v = w.__vitals;
  new PerformanceObserver((l) => l.getEntries().forEach((e) => v.long.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((l) =>
    l.getEntries().forEach((e) => {
      if (e.name === 'first-contentful-paint') v.fcp = e.startTime;
    }),
  ).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) =>
    l.getEntries().forEach((e) => {
      const s = e as PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
      // What moved, for bench/investigations/vitals-only.ts --cls-sources: the element and its box before and after.
      const what = (s.sources ?? []).map((x) => {
        const el = x.node instanceof Element ? x.node : x.node?.parentElement;
        const box = (r: DOMRectReadOnly) => `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`;
        const name = el ? `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ')[0]}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"` : '(text)';
        return `${name}: ${box(x.previousRect)} → ${box(x.currentRect)}`;
      });
      if (!s.hadRecentInput) v.shifts.push({ t: s.startTime, v: s.value, what });
    }),
  ).observe({ type: 'layout-shift', buffered: true });
};

interface Raw {
  long: { start: number; duration: number }[];
  fcp: number | null;
  shifts: { t: number; v: number; what: string[] }[];
}

/** Σ (duration − 50) of the long tasks after FCP (a task that spans FCP counts its part after it). */
export function totalBlockingTime(raw: Pick<Raw, 'long' | 'fcp'>): number {
  const fcp = raw.fcp ?? 0;
  let tbt = 0;
  for (const t of raw.long) {
    const end = t.start + t.duration;
    if (end <= fcp) continue;
    const counted = end - Math.max(t.start, fcp);
    tbt += Math.max(0, counted - 50);
  }
  return tbt;
}

/** The largest session window: shifts less than 1 s apart, a window at most 5 s long. */
export function cumulativeLayoutShift(shifts: readonly { t: number; v: number }[]): number {
  let best = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const s of [...shifts].sort((a, b) => a.t - b.t)) {
    if (s.t - last > 1000 || s.t - first > 5000) {
      sum = 0;
      first = s.t;
    }
    sum += s.v;
    last = s.t;
    best = Math.max(best, sum);
  }
  return best;
}

/** One cold load of `url` on a throttled phone: its raw entries once the page has been quiet for 3 s. */
export async function load(browser: Browser, origin: string, url: string, token: string, ready: string): Promise<Raw> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  try {
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
    // No service worker: each load fetches the app as a first visit does (Lighthouse's cold load).
    await context.route('**/sw.js', (r) => r.abort());
    await context.addInitScript(OBSERVE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${origin}${url}`, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForSelector(ready, { timeout: MAX_WAIT_MS });
    const started = Date.now();
    // Quiet: no long task ended in the last 3 s (bounded).
    for (;;) {
      const lastEnd = await page.evaluate(() => {
        const v = (window as unknown as { __vitals: Raw }).__vitals;
        const ends = v.long.map((t) => t.start + t.duration);
        return { now: performance.now(), last: ends.length ? Math.max(...ends) : 0 };
      });
      if (lastEnd.now - lastEnd.last >= QUIET_MS || Date.now() - started > MAX_WAIT_MS) break;
      await page.waitForTimeout(500);
    }
    return await page.evaluate(() => (window as unknown as { __vitals: Raw }).__vitals);
  } finally {
    await context.close();
  }
}

export async function measureVitals(opts: {
  origin: string;
  /** Signed in as someone who may read the job (the job page). */
  token: string;
  jobId: number;
  /** Signed in as a foreman (My Work); without it only the job page is loaded (bench/investigations/vitals-only.ts). */
  workToken?: string;
  runs: number;
  timeBudgetMs: number;
  log?: (m: string) => void;
}): Promise<VitalsFigures> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const notes: string[] = [];
  const tbt: number[] = [];
  const cls: number[] = [];
  const deadline = Date.now() + opts.timeBudgetMs;
  try {
    const jobUrl = `/job?id=${opts.jobId}`;
    // The ticket rows (table on a wide screen, cards on a phone) or the empty-job text.
    const jobReady = '[data-ticket-id], [data-testid="no-tickets"]';
    await load(browser, opts.origin, jobUrl, opts.token, jobReady).catch((e: Error) => notes.push(`vitals warm-up: ${e.message.split('\n')[0]}`));
    for (let i = 0; i < opts.runs && Date.now() < deadline; i++) {
      try {
        tbt.push(totalBlockingTime(await load(browser, opts.origin, jobUrl, opts.token, jobReady)));
        if (opts.workToken) {
          const { shifts } = await load(browser, opts.origin, '/work', opts.workToken, WORK_READY);
          cls.push(cumulativeLayoutShift(shifts));
          // What moved, in the notes, so that a shift seen only in a full run can be traced.
          for (const s of shifts.filter((x) => x.v >= 0.005)) notes.push(`/work run ${i + 1}: shift ${s.v.toFixed(4)} at ${Math.round(s.t)} ms: ${s.what.join('; ')}`);
        }
      } catch (e) {
        notes.push(`vitals run ${i + 1}: ${(e as Error).message.split('\n')[0]}`);
      }
      opts.log?.(`vitals run ${i + 1}: TBT ${tbt.at(-1)?.toFixed(0)} ms, CLS ${cls.at(-1)?.toFixed(3)}`);
    }
    return { jobTbtMs: tbt.length ? median(tbt) : null, jobTbtRunsMs: tbt, workCls: cls.length ? median(cls) : null, jobRuns: tbt.length, workRuns: cls.length, notes };
  } finally {
    await browser.close();
  }
}
