import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { createTestApp } from './test/harness';

// A built web folder as `vite build` leaves it: hashed assets with .br / .gz beside them.
const webDir = mkdtempSync(path.join(tmpdir(), 'linecrew-web-'));
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
mkdirSync(path.join(webDir, 'assets'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><html><head><title>Linecrew</title></head><body></body></html>');
writeFileSync(path.join(webDir, 'assets/app-1a2b3c.js'), script);
writeFileSync(path.join(webDir, 'assets/app-1a2b3c.js.br'), brotliCompressSync(script));
writeFileSync(path.join(webDir, 'assets/app-1a2b3c.js.gz'), gzipSync(script));
// What vite-plugin-pwa adds (docs/product/field-mode.md §3): the service worker and the web manifest.
writeFileSync(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
writeFileSync(path.join(webDir, 'manifest.webmanifest'), JSON.stringify({ name: 'Linecrew', start_url: '/work' }));
// The job page's own files, listed by the build (vite.config.ts pagePreloads(), decision 064).
mkdirSync(path.join(webDir, '.vite'));
writeFileSync(path.join(webDir, '.vite/page-preloads.json'), JSON.stringify({ '/job': { files: ['/assets/JobRoute-1a2b.js', '/assets/JobRoute-3c4d.css', '/assets/Table-5e6f.js'], map: ['/assets/TicketMap-7a8b.js'] } }));

const t = await createTestApp();
const app = await buildApp({ ...t.ctx, webDir, logger: false });
afterAll(async () => {
  await app.close();
  rmSync(webDir, { recursive: true, force: true });
});

/** `url` asked for as gzip (by `acceptGzip`) and with no encoding: each reply's encoding checked, their bodies decoded. */
async function gzipAndPlain(url: string, acceptGzip: string): Promise<[string, string]> {
  const gz = await app.inject({ url, headers: { 'accept-encoding': acceptGzip } });
  expect(gz.headers['content-encoding']).toBe('gzip');
  const plain = await app.inject({ url });
  expect(plain.headers['content-encoding']).toBeUndefined();
  return [gunzipSync(gz.rawPayload).toString(), plain.body];
}

describe('the built web app', () => {
  it('sends an asset precompressed (br, else gzip, else plain) and lets browsers keep it', async () => {
    const br = await app.inject({ url: '/assets/app-1a2b3c.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    expect(await gzipAndPlain('/assets/app-1a2b3c.js', 'gzip')).toEqual([script, script]);
  });

  it('answers page paths with index.html (not kept), and a missing asset or API path with a JSON 404', async () => {
    for (const url of ['/', '/index.html']) expect((await app.inject({ url })).headers['cache-control']).toBe('no-cache');
    const page = await app.inject({ url: '/job?id=5' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Linecrew</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect((await app.inject({ url: '/assets/missing-123.js' })).statusCode).toBe(404);
    const api = await app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error).toEqual(expect.any(String));
  });

  it("writes the job page's own files into the HTML of /job (only there) for the early script, compressed and not kept like index.html", async () => {
    const block =
      '<script type="application/json" id="linecrew-preloads">{"files":["/assets/JobRoute-1a2b.js","/assets/JobRoute-3c4d.css","/assets/Table-5e6f.js"],"map":["/assets/TicketMap-7a8b.js"]}</script>';
    const br = await app.inject({ url: '/job?id=5', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-security-policy']).toContain("script-src 'self'");
    const html = brotliDecompressSync(br.rawPayload).toString();
    // First in the head: before the early script, which reads it as it runs.
    expect(html).toContain(`<head>\n    ${block}<title>`);

    expect(await gzipAndPlain('/job?id=5', 'gzip;q=1, br;q=0')).toEqual([html, html]);

    for (const url of ['/work', '/login', '/jobs', '/job/other', '/']) {
      const page = await app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Linecrew</title>');
      expect(page.body).not.toContain('linecrew-preloads');
    }
  });

  it('sends the service worker and the manifest as "ask again" (a release never leaves an old app shell behind), the manifest with its own type', async () => {
    const sw = await app.inject({ url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toMatch(/javascript/);
    const manifest = await app.inject({ url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    expect(manifest.json()).toMatchObject({ start_url: '/work' });
  });
});
