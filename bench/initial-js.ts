/**
 * The bench's "Initial JavaScript" row for one page, file by file: every script a fresh load
 * fetches until the network is idle, gzipped one by one (bench/lib/browser.ts initialJs).
 *   npx tsx bench/initial-js.ts http://localhost:4330 /work foreman@example.com linecrew
 */
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { SESSION_COOKIE } from '../src/shared/constants';
import { CHROMIUM_ARGS } from '../playwright.config';

const [origin, path = '/work', email, password = 'linecrew'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  if (email) {
    const res = await fetch(`${origin}/api/v1/crew/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
    const { token } = (await res.json()) as { token: string };
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
  }
  const page = await context.newPage();
  const bodies: Promise<{ url: string; body: Buffer | null }>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script' || res.status() >= 400) return;
    bodies.push(res.body().then((body) => ({ url: res.url(), body })).catch(() => ({ url: res.url(), body: null })));
  });
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle', timeout: 60_000 });
  const all = (await Promise.all(bodies)).filter((b): b is { url: string; body: Buffer } => b.body !== null);
  const rows = all.map((b) => ({ file: new URL(b.url).pathname, raw: b.body.length, gzip: gzipSync(b.body).length })).sort((a, b) => b.gzip - a.gzip);
  for (const r of rows) console.log(`${(r.gzip / 1024).toFixed(1).padStart(7)} KB gz ${(r.raw / 1024).toFixed(1).padStart(7)} KB  ${r.file}`);
  const gz = rows.reduce((n, r) => n + r.gzip, 0);
  const raw = rows.reduce((n, r) => n + r.raw, 0);
  console.log(`landed ${new URL(page.url()).pathname}: ${rows.length} files, ${(gz / 1024).toFixed(1)} KB gzip, ${(raw / 1024).toFixed(0)} KB raw`);
} finally {
  await browser.close();
}
