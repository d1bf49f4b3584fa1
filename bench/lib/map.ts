import { chromium, type Page } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { median, percentile, round } from './common';

/**
 * The job map in headless Chromium (docs/product/map.md §1, decision 023), on the bench's 5,000-ticket job:
 * - usable: navigation start → the 'tickets-map-visible' mark TicketMap sets when its first
 *   points are drawn (the page opens in Map view: the choice is remembered on the device);
 * - frame times while panning and zooming: every requestAnimationFrame interval in the page
 *   during a scripted gesture run (mouse drags, wheel zooms in and out, as a person does),
 *   with the long animation frames (> 50 ms) Chromium reports; p95 of the intervals.
 */
export interface MapFigures {
  visibleMs: number | null;
  /** Each measured load's figure, in order (the median is visibleMs). */
  visibleRunsMs: number[];
  frameP95Ms: number | null;
  frameMaxMs: number | null;
  frames: number;
  longFrames: number;
  runs: number;
  notes: string[];
}

/** Mantine's useLocalStorage stores JSON: '"map"' opens the tickets in Map view. */
export const MAP_VIEW = { key: 'linecrew.tickets.view', value: JSON.stringify('map') };

async function openMap(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  const handle = await page.waitForFunction(() => performance.getEntriesByName('tickets-map-visible', 'mark')[0]?.startTime ?? null, null, {
    timeout: 60_000,
    polling: 50,
  });
  return (await handle.jsonValue()) as number;
}

/** Records every animation frame's interval, and the long animation frames (> 50 ms). */
const FRAME_RECORDER = `(() => {
  window.__frames = [];
  window.__long = 0;
  window.__stop = false;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.duration > 50) window.__long++;
    }).observe({ type: 'long-animation-frame', buffered: false });
  } catch (e) {
    /* older Chromium: intervals only */
  }
  let last = 0;
  const tick = (now) => {
    window.__frames.push(now - last);
    last = now;
    if (!window.__stop) requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
})()`;

/** Drags and wheel zooms over the map; returns every frame interval meanwhile. */
export async function gestures(page: Page): Promise<{ intervals: number[]; longFrames: number }> {
  const box = await page.getByTestId('ticket-map').boundingBox();
  if (!box) throw new Error('map not on screen');
  // A string, not a function: tsx would wrap named inner functions in a helper the page lacks.
  await page.evaluate(FRAME_RECORDER);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  for (let round = 0; round < 3; round++) {
    // Pan: a slow drag across the map and back, in small steps as a hand moves.
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    await page.mouse.move(cx - box.width / 4, cy - box.height / 6, { steps: 20 });
    await page.mouse.move(cx + box.width / 4, cy + box.height / 6, { steps: 30 });
    await page.mouse.up();
    // Zoom: wheel in twice, then out twice, letting each animation finish.
    for (const dy of [-240, -240, 240, 240]) {
      await page.mouse.wheel(0, dy);
      await page.waitForTimeout(350);
    }
  }
  await page.waitForTimeout(300);
  return page.evaluate('(() => { window.__stop = true; return { intervals: window.__frames.slice(1), longFrames: window.__long }; })()') as Promise<{
    intervals: number[];
    longFrames: number;
  }>;
}

export async function measureMap(opts: { origin: string; token: string; bigJobId: number; runs: number; timeBudgetMs: number; log: (m: string) => void }): Promise<MapFigures> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const notes: string[] = [];
  const visible: number[] = [];
  const intervals: number[] = [];
  let longFrames = 0;
  const url = `${opts.origin}/job?id=${opts.bigJobId}`;
  try {
    const deadline = Date.now() + opts.timeBudgetMs;
    // runs + 1: the first load warms the server and the map chunk; it is not counted.
    for (let i = 0; i <= opts.runs && Date.now() < deadline; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addCookies([{ name: SESSION_COOKIE, value: opts.token, url: opts.origin, sameSite: 'Strict' }]);
      await context.addInitScript(({ key, value }) => localStorage.setItem(key, value), MAP_VIEW);
      // The bench machine has no tile server: refuse tiles at once rather than wait on them.
      await context.route(/tile|\.png(\?|$)/, (route) => route.abort());
      const page = await context.newPage();
      try {
        const ms = await openMap(page, url);
        if (i === 0) continue;
        visible.push(ms);
        const g = await gestures(page);
        intervals.push(...g.intervals);
        longFrames += g.longFrames;
      } catch (e) {
        notes.push(`map run ${i}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await context.close();
      }
      opts.log(`map: run ${i} done`);
    }
  } finally {
    await browser.close();
  }
  return {
    visibleMs: visible.length ? round(median(visible), 0) : null,
    visibleRunsMs: visible.map((v) => round(v, 0)),
    frameP95Ms: intervals.length ? round(percentile(intervals, 95), 1) : null,
    frameMaxMs: intervals.length ? round(Math.max(...intervals), 0) : null,
    frames: intervals.length,
    longFrames,
    runs: visible.length,
    notes,
  };
}
