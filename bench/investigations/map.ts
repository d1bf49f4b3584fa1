/**
 * `npx tsx bench/investigations/map.ts` — only the two map rows of `npm run bench`
 * (docs/product/map.md §1; budgets in docs/product/scale.md §3), with the bench's own method
 * (bench/lib/map.ts) on its PGlite data: navigation → 'tickets-map-visible' and the frame times
 * while panning and zooming the big job's map.
 *
 *   npx tsx bench/investigations/map.ts [--runs 5] [--port P] [--trace DIR]
 *
 * The web app must be built (`npx vite build`): the server serves dist/web. `--trace DIR` also
 * writes a Chromium performance trace (CDP Tracing, DevTools' categories) of one cold load and of
 * one gesture run to DIR/map-load.json and DIR/map-gestures.json, for DevTools' Performance panel.
 * Measure under the bench lock (bench/investigations/README.md).
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { browserBenchData, withBenchServer } from '../lib/bench-server';
import { parseArgs } from '../lib/common';
import { MAP_VIEW, gestures, measureMap } from '../lib/map';
import { recordTrace } from '../lib/trace';

const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 5);
const log = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`);

async function trace(origin: string, token: string, jobId: number, dir: string) {
  mkdirSync(dir, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
      await context.addInitScript(({ key, value }) => localStorage.setItem(key, value), MAP_VIEW);
      await context.route(/tile|\.png(\?|$)/, (route) => route.abort());
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      const record = async (file: string, work: () => Promise<unknown>) =>
        log(`trace: ${path.join(dir, file)} (${await recordTrace(cdp, path.join(dir, file), work)} events)`);
      const open = async () => {
        await page.goto(`${origin}/job?id=${jobId}`, { waitUntil: 'commit' });
        await page.waitForFunction(() => performance.getEntriesByName('tickets-map-visible', 'mark').length > 0, null, { timeout: 60_000, polling: 50 });
        await page.waitForTimeout(1000);
      };
      // The first load warms the server and the chunks, as measureMap's uncounted one does.
      if (i === 0) await open();
      else {
        await record('map-load.json', open);
        await record('map-gestures.json', () => gestures(page));
      }
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

async function main() {
  const { t, m } = browserBenchData();
  await withBenchServer(t, { port: args.port ? Number(args.port) : undefined }, async ({ origin, login }) => {
    const token = await login(m.adminEmail);
    log(`load average at start: ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')}`);
    if (typeof args.trace === 'string') await trace(origin, token, m.bigJobId, args.trace);
    else {
      const f = await measureMap({ origin, token, bigJobId: m.bigJobId, runs, timeBudgetMs: 240_000, log });
      console.log(JSON.stringify(f, null, 2));
    }
    log(`load average at end: ${os.loadavg().map((n) => n.toFixed(1)).join(' / ')}`);
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
