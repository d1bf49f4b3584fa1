/**
 * The bench's "Initial JavaScript" rows file by file: every script a fresh load of each page
 * fetches until the network is idle, gzipped one by one (as bench/lib/browser.ts initialJs sums
 * them), on the real server over a fresh copy of the PGlite bench data, signed in as the bench's
 * admin as `npm run bench` measures /jobs and /work (/login signed out). Needs `npx vite build`.
 *
 *   npx tsx bench/investigations/initial-js.ts [--pages /work,/jobs,/login] [--port P]
 *
 * The figure is bytes, not time; under heavy load a run that lists only ~20 files went idle
 * before the page's chunk was asked for: run it again.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { browserBenchData, withBenchServer } from '../lib/bench-server';
import { parseArgs } from '../lib/common';

const args = parseArgs(process.argv.slice(2));
const pages = (typeof args.pages === 'string' ? args.pages : '/work').split(',');

async function listScripts(browser: Browser, origin: string, path: string, token?: string) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  try {
    if (token) await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
    const page = await context.newPage();
    const bodies: Promise<{ url: string; body: Buffer | null }>[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script' || res.status() >= 400) return;
      bodies.push(res.body().then((body) => ({ url: res.url(), body })).catch(() => ({ url: res.url(), body: null })));
    });
    await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 60_000 });
    const all = (await Promise.all(bodies)).filter((b): b is { url: string; body: Buffer } => b.body !== null);
    const rows = all.map((b) => ({ file: new URL(b.url).pathname, raw: b.body.length, gzip: gzipSync(b.body).length })).sort((a, b) => b.gzip - a.gzip);
    console.log(`\n${path}`);
    for (const r of rows) console.log(`${(r.gzip / 1024).toFixed(1).padStart(7)} KB gz ${(r.raw / 1024).toFixed(1).padStart(7)} KB  ${r.file}`);
    const gz = rows.reduce((n, r) => n + r.gzip, 0);
    const raw = rows.reduce((n, r) => n + r.raw, 0);
    console.log(`landed ${new URL(page.url()).pathname}: ${rows.length} files, ${(gz / 1024).toFixed(1)} KB gzip, ${(raw / 1024).toFixed(0)} KB raw`);
  } finally {
    await context.close();
  }
}

const { t, m } = browserBenchData();
await withBenchServer(t, { port: args.port ? Number(args.port) : undefined }, async ({ origin, login }) => {
  const token = await login(m.adminEmail);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const p of pages) await listScripts(browser, origin, p, p === '/login' ? undefined : token);
  } finally {
    await browser.close();
  }
});
