import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = () => mkdtempSync(path.join(tmpdir(), 'linecrew-config-'));

describe('loadConfig', () => {
  it('refuses to start in production without JWT_SECRET, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir() })).toThrow(/JWT_SECRET is not set/);
  });

  it('refuses a short JWT_SECRET', () => {
    expect(() => loadConfig({ JWT_SECRET: 'short', DATA_DIR: dir() })).toThrow(/at least 32 characters/);
  });

  it('generates a development secret once and keeps it in DATA_DIR', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d }).jwtSecret;
    const second = loadConfig({ DATA_DIR: d }).jwtSecret;
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(readFileSync(path.join(d, 'jwt-secret'), 'utf8')).toBe(first);
  });

  it('reads the documented variables', () => {
    const c = loadConfig({
      DATA_DIR: dir(),
      PORT: '4000',
      JWT_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://u@h/db',
      SMTP_URL: 'smtp://localhost:2525',
      SEED_DEMO: '0',
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'http://127.0.0.1:4569',
    });
    expect(c).toMatchObject({
      port: 4000,
      databaseUrl: 'postgres://u@h/db',
      smtpUrl: 'smtp://localhost:2525',
      seedDemo: false,
      publicUrl: 'http://localhost:4000',
      s3: { bucket: 'b', endpoint: 'http://127.0.0.1:4569', region: 'us-east-1' },
    });
  });

  it('reads JOB_CACHE_MB in megabytes (0 turns the cache off) and rejects anything else, naming the variable', () => {
    expect(loadConfig({ DATA_DIR: dir(), JOB_CACHE_MB: '0' }).jobCacheBytes).toBe(0);
    expect(loadConfig({ DATA_DIR: dir(), JOB_CACHE_MB: '2.5' }).jobCacheBytes).toBe(2.5 * 1024 * 1024);
    expect(loadConfig({ DATA_DIR: dir() }).jobCacheBytes).toBe(64 * 1024 * 1024);
    for (const bad of ['-1', 'lots', 'Infinity']) {
      expect(() => loadConfig({ DATA_DIR: dir(), JOB_CACHE_MB: bad })).toThrow(`JOB_CACHE_MB must be a number of megabytes (0 or more), got "${bad}"`);
    }
  });

  it('rejects a PORT that is not a port number', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), PORT: 'abc' })).toThrow(/PORT must be a port number/);
  });

  describe('base map (MAP_STYLE_URL, MAP_ATTRIBUTION, MAP_MAX_ZOOM)', () => {
    const map = (env: NodeJS.ProcessEnv) => loadConfig({ DATA_DIR: dir(), ...env }).map;

    it('defaults to OpenStreetMap\'s tiles, credited as its licence asks', () => {
      expect(map({})).toEqual({
        tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
        tileSource: 'https://tile.openstreetmap.org',
        attribution: '© OpenStreetMap contributors',
        maxZoom: 19,
      });
      expect(map({ MAP_STYLE_URL: '', MAP_ATTRIBUTION: ' ' }).attribution).toBe('© OpenStreetMap contributors');
    });

    it('takes a tile template with {z}, {x}, {y}; its origin (port kept) is what the CSP allows', () => {
      expect(map({ MAP_STYLE_URL: 'http://tiles.local:8080/osm/{z}/{x}/{y}{r}.png?key=abc', MAP_ATTRIBUTION: 'Tiles: our own server', MAP_MAX_ZOOM: '17' })).toEqual({
        tileUrl: 'http://tiles.local:8080/osm/{z}/{x}/{y}{r}.png?key=abc',
        tileSource: 'http://tiles.local:8080',
        attribution: 'Tiles: our own server',
        maxZoom: 17,
      });
    });

    it('turns a {s} subdomain into a wildcard host for the CSP', () => {
      expect(map({ MAP_STYLE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png' }).tileSource).toBe('https://*.tile.example.org');
      expect(map({ MAP_STYLE_URL: 'https://{s}.Tiles.Example.org:8443/{s}/{z}/{x}/{y}.png' }).tileSource).toBe('https://*.tiles.example.org:8443');
    });

    it('refuses templates the map could not use or the CSP could not allow, naming the variable and the reason', () => {
      const cases: [string, RegExp][] = [
        ['tile.openstreetmap.org/{z}/{x}/{y}.png', /not a URL/],
        ['ftp://tiles.example.org/{z}/{x}/{y}.png', /only http and https/],
        ['javascript:alert(1)//{z}/{x}/{y}', /only http and https/],
        ['https://tiles.example.org/{z}/{x}.png', /\{y\} missing/],
        ['https://tiles.example.org/{z}/{x}/{y}.png?key={apikey}', /\{apikey\} is not a placeholder/],
        ['https://user:secret@tiles.example.org/{z}/{x}/{y}.png', /user name or password/],
        ['https://tile-{s}.example.org/{z}/{x}/{y}.png', /only \{s\} may stand/],
        ['https://{z}.example.org/{z}/{x}/{y}.png', /only \{s\} may stand/],
      ];
      for (const [url, why] of cases) {
        expect(() => map({ MAP_STYLE_URL: url }), url).toThrow(ConfigError);
        expect(() => map({ MAP_STYLE_URL: url }), url).toThrow(/^MAP_STYLE_URL must be an http or https URL template/);
        expect(() => map({ MAP_STYLE_URL: url }), url).toThrow(why);
      }
    });

    it('refuses HTML in the attribution and a zoom out of range', () => {
      expect(() => map({ MAP_ATTRIBUTION: '<a href="x">OSM</a>' })).toThrow(/MAP_ATTRIBUTION must be plain text/);
      for (const bad of ['0', '23', '18.5', 'deep']) expect(() => map({ MAP_MAX_ZOOM: bad }), bad).toThrow(`MAP_MAX_ZOOM must be a whole number from 1 to 22, got "${bad}"`);
    });
  });
});
