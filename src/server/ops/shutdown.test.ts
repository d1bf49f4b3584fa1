import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { startServer, type ServerProcess } from '../test/server-process';

/**
 * docs/deploy.md "What each process needs" (decision 015): SIGTERM lets requests in flight finish, but not forever. A real server process
 * with a request whose body never ends (a stalled upload) exits non-zero once SHUTDOWN_TIMEOUT_MS
 * has passed, naming the request it gave up on (with its query values redacted).
 */
const skip = process.env.TEST_DB_KIND === 'postgres';

describe('SHUTDOWN_TIMEOUT_MS', () => {
  it('defaults to 25 s and refuses what is not a positive number of milliseconds', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'linecrew-shutdown-config-'));
    try {
      expect(loadConfig({ DATA_DIR: dir }).shutdownTimeoutMs).toBe(25_000);
      expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '1500' }).shutdownTimeoutMs).toBe(1500);
      expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '30s' })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '0' })).toThrow(/SHUTDOWN_TIMEOUT_MS must be/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}); // one real process is enough: runs in "pglite"

describe.skipIf(skip)('SIGTERM', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-shutdown-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop(1000);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives up on a request that never ends after SHUTDOWN_TIMEOUT_MS and exits non-zero, saying what was running', async () => {
    server = await startServer({
      env: { DATA_DIR: dataDir, SEED_DEMO: '0', SHUTDOWN_TIMEOUT_MS: '1500', JWT_SECRET: 'shutdown-test-secret-long-enough-0123456789' },
    });
    await server.ready;
    const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve(code)));

    // A sign-in whose body is announced as 1000 bytes and stops after 10: in flight until it ends.
    const stalled = http.request(`${server.origin}/api/v1/crew/login?email=secret%40example.com`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    stalled.on('error', () => {}); // the server goes away under it
    stalled.write('{"email":"');
    // Another request answered afterwards: the server has read the stalled one's headers by then.
    expect((await fetch(`${server.origin}/api/v1/health`)).status).toBe(200);

    server.child.kill('SIGTERM');
    expect(await exited).toBe(1);
    const out = server.output();
    expect(out).toContain('SHUTDOWN_TIMEOUT_MS');
    expect(out).toContain('POST /api/v1/crew/login?email=[redacted]');
    expect(out).not.toContain('secret%40example.com');
    stalled.destroy();
  }, 120_000);
});
