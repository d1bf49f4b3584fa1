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
});
