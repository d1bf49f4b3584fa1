import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { median } from './common';

/**
 * Browser figures in headless Chromium (Debian's /usr/bin/chromium, never a downloaded one):
 * - time from navigation start to the ticket table of the big job being visible: the
 *   'tickets-table-visible' mark the tickets page sets (src/web/features/tickets/timingMarks.ts),
 *   else the first table row appearing (and the result says which);
 * - re-sort: the 'tickets-sort' measure (click on a column header → the re-sorted rows painted),
 *   else click → first row changed;
 * - initial JavaScript of a page: every script response of a fresh load, gzipped with zlib.
 */
export interface BrowserFigures {
  tableVisibleMs: number | null;
  tableVisibleHow: string;
  resortMs: number | null;
  resortHow: string;
  initialJs: Record<string, { gzipBytes: number; rawBytes: number; files: number; landed: string }>;
  runs: number;
  /** Each load's table-visible time and each re-sort, in the order measured (ms). */
  samples: { tableVisible: number[]; resort: number[] };
  notes: string[];
}

async function newContext(browser: Browser, origin: string, token?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  if (token) await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
  return context;
}

/** Scripts a fresh page load fetches (until the network is idle), gzipped one by one. */
async function initialJs(browser: Browser, origin: string, path: string, token?: string) {
  const context = await newContext(browser, origin, token);
  const page = await context.newPage();
  const bodies: Promise<Buffer | null>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' || res.status() >= 400) return;
    bodies.push(res.body().catch(() => null));
  });
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 60_000 });
  const landed = new URL(page.url()).pathname;
  const all = (await Promise.all(bodies)).filter((b): b is Buffer => b !== null);
  await context.close();
  return {
    landed,
    gzipBytes: all.reduce((n, b) => n + gzipSync(b).length, 0),
    rawBytes: all.reduce((n, b) => n + b.length, 0),
    files: all.length,
  };
}

async function tableVisible(page: Page, url: string): Promise<{ ms: number; how: string }> {
  await page.goto(url, { waitUntil: 'commit', timeout: 60_000 });
  try {
    const handle = await page.waitForFunction(() => performance.getEntriesByName('tickets-table-visible', 'mark')[0]?.startTime ?? null, null, {
      timeout: 60_000,
      polling: 50,
    });
    return { ms: (await handle.jsonValue()) as number, how: "mark 'tickets-table-visible'" };
  } catch {
    // No mark: the first row of the table, timed from the same origin (navigation start).
    await page.waitForSelector('table tbody tr', { timeout: 60_000 });
    return { ms: await page.evaluate(() => performance.now()), how: 'waitForSelector(table tbody tr) — mark missing' };
  }
}

async function resort(page: Page, column: string): Promise<{ ms: number; how: string }> {
  const header = page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).getByRole('button');
  const before = await page.evaluate(() => performance.getEntriesByName('tickets-sort', 'measure').length);
  const firstRow = await page.locator('table tbody tr').first().innerText();
  const t0 = await page.evaluate(() => performance.now());
  await header.click();
  try {
    const handle = await page.waitForFunction(
      (n) => {
        const m = performance.getEntriesByName('tickets-sort', 'measure');
        return m.length > n ? m[m.length - 1].duration : null;
      },
      before,
      { timeout: 15_000, polling: 16 },
    );
    return { ms: (await handle.jsonValue()) as number, how: "measure 'tickets-sort'" };
  } catch {
    await page.waitForFunction((prev) => document.querySelector('table tbody tr')?.textContent !== prev, firstRow, { timeout: 15_000, polling: 'raf' });
    return { ms: (await page.evaluate(() => performance.now())) - t0, how: 'click → first row changed — measure missing' };
  }
}

export async function measureBrowser(opts: {
  origin: string;
  token: string;
  bigJobId: number;
  runs: number;
  timeBudgetMs: number;
  log: (m: string) => void;
  /** false: skip the initial-JavaScript sizes (bench/investigations/vitals-only.ts times only the table). */
  initialJs?: boolean;
}): Promise<BrowserFigures> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const notes: string[] = [];
  try {
    const deadline = Date.now() + opts.timeBudgetMs;
    const visible: number[] = [];
    const sorts: number[] = [];
    let visibleHow = '';
    let resortHow = '';
    // A first load warms the server (and Chromium's code caches are per context, so each run below is cold).
    const warm = await newContext(browser, opts.origin, opts.token);
    await tableVisible(await warm.newPage(), `${opts.origin}/job?id=${opts.bigJobId}`).catch((e: Error) => notes.push(`warm-up: ${e.message.split('\n')[0]}`));
    await warm.close();
    for (let i = 0; i < opts.runs && Date.now() < deadline; i++) {
      const context = await newContext(browser, opts.origin, opts.token);
      const page = await context.newPage();
      try {
        const v = await tableVisible(page, `${opts.origin}/job?id=${opts.bigJobId}`);
        visible.push(v.ms);
        visibleHow = v.how;
        await page.waitForSelector('table tbody tr', { timeout: 30_000 });
        // Line then Pole: two re-sorts per load, both timed.
        for (const col of ['Line', 'Pole']) {
          const s = await resort(page, col);
          sorts.push(s.ms);
          resortHow = s.how;
        }
      } catch (e) {
        notes.push(`run ${i + 1}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await context.close();
      }
    }
    const js: BrowserFigures['initialJs'] = {};
    if (opts.initialJs !== false) {
      js['/login'] = await initialJs(browser, opts.origin, '/login');
      js['/jobs'] = await initialJs(browser, opts.origin, '/jobs', opts.token);
      js['/work'] = await initialJs(browser, opts.origin, '/work', opts.token);
    }
    return {
      tableVisibleMs: visible.length ? median(visible) : null,
      tableVisibleHow: visibleHow,
      resortMs: sorts.length ? median(sorts) : null,
      resortHow,
      initialJs: js,
      runs: visible.length,
      samples: { tableVisible: visible.map(Math.round), resort: sorts.map(Math.round) },
      notes,
    };
  } finally {
    await browser.close();
  }
}
