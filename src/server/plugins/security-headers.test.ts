import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { S3Storage } from '../storage/s3';
import { createTestApp } from '../test/harness';

const webDir = mkdtempSync(path.join(tmpdir(), 'linecrew-web-'));
writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Linecrew</title><script type="module" src="/assets/app.js"></script>');

const t = await createTestApp();
const app = await buildApp({ ...t.ctx, webDir, logger: false });
afterAll(async () => {
  await app.close();
  rmSync(webDir, { recursive: true, force: true });
});

function directives(csp: string | undefined): Record<string, string> {
  expect(csp, 'a Content-Security-Policy header').toBeTruthy();
  return Object.fromEntries(
    csp!
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name, values.join(' ')];
      }),
  );
}

describe('security headers', () => {
  it.each([
    ['the app page', '/jobs'],
    ['an API reply', '/api/v1/health'],
    ['an API error', '/api/v1/jobs/all'],
    ['a missing file', '/files/nothing-here.pdf'],
  ])('are on %s', async (_what, url) => {
    const res = await app.inject({ url });
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp['script-src']).toBe("'self'");
    expect(csp['frame-ancestors']).toBe("'none'");
    expect(csp['object-src']).toBe("'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // Plain HTTP: no HSTS, or a local run would pin the browser to HTTPS.
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('add HSTS when the request came over TLS through the trusted proxy', async () => {
    const behindProxy = await createTestApp({ env: { TRUST_PROXY: '1' } });
    const res = await behindProxy.request({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Without a trusted proxy the header is the client's word, and is not believed.
    const direct = await t.request({ url: '/api/v1/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(direct.headers['strict-transport-security']).toBeUndefined();
  });

  it('let the browser reach an S3 bucket for images and signed uploads, and nothing else', async () => {
    const storage = new S3Storage({ bucket: 'photos', endpoint: 'https://s3.example.net', region: 'us-east-1' });
    const s3App = await buildApp({ ...t.ctx, storage, logger: false });
    try {
      const csp = directives((await s3App.inject({ url: '/api/v1/health' })).headers['content-security-policy'] as string);
      expect(csp['img-src'].split(' ')).toContain('https://s3.example.net');
      expect(csp['connect-src'].split(' ')).toEqual(["'self'", 'https://s3.example.net']);
      expect(csp['script-src']).toBe("'self'");
    } finally {
      await s3App.close();
    }
    const local = directives((await app.inject({ url: '/api/v1/health' })).headers['content-security-policy'] as string);
    expect(local['connect-src']).toBe("'self'");
  });

  it("let images come from the base map's tile server (MAP_STYLE_URL), a {s} subdomain as a wildcard host, and nothing else from it", async () => {
    // The default: OpenStreetMap's tile server.
    const osm = directives((await app.inject({ url: '/api/v1/health' })).headers['content-security-policy'] as string);
    expect(osm['img-src'].split(' ')).toContain('https://tile.openstreetmap.org');

    const own = await createTestApp({ env: { MAP_STYLE_URL: 'https://{s}.tiles.example.net:8443/{z}/{x}/{y}.png' } });
    const csp = directives((await own.request({ url: '/api/v1/health' })).headers['content-security-policy'] as string);
    expect(csp['img-src'].split(' ')).toEqual(["'self'", 'data:', 'blob:', 'https://*.tiles.example.net:8443']);
    // Tiles are images: scripts, fetches and frames stay our own.
    for (const d of ['script-src', 'connect-src', 'frame-src', 'default-src']) expect(csp[d], d).toBe("'self'");
  });
});
