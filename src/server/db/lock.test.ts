import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../test/server-process';
import { DataDirLockedError, lockDataDir, type LockOwner } from './lock';

/**
 * Decision 016: one process per embedded database folder. The lock itself, then real server
 * processes: a second server on the same DATA_DIR refuses to start and names the first, and a
 * server killed with SIGKILL does not block the next one, which finds the acknowledged writes.
 */

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'linecrew-lock-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has certainly exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('lockDataDir', () => {
  it('a second holder is refused with a message naming the first; release lets it in', () => {
    const db = path.join(tempDir(), 'db');
    const first = lockDataDir(db, 'the Linecrew server');
    expect(existsSync(`${db}.lock`)).toBe(true);
    let refused: unknown;
    try {
      lockDataDir(db, 'a backup');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(DataDirLockedError);
    const message = (refused as Error).message;
    expect(message).toContain(`pid ${process.pid}`);
    expect(message).toContain(hostname());
    expect(message).toContain('the Linecrew server');
    expect(message).toContain(`kill ${process.pid}`);

    first.release();
    expect(existsSync(`${db}.lock`)).toBe(false);
    const second = lockDataDir(db, 'a backup');
    expect(JSON.parse(readFileSync(`${db}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'a backup' });
    second.release();
  });

  it('takes over the lock of a process that died without releasing it', () => {
    const db = path.join(tempDir(), 'db');
    const stale: LockOwner = { pid: deadPid(), host: hostname(), since: '2020-01-01T00:00:00.000Z', purpose: 'the Linecrew server' };
    writeFileSync(`${db}.lock`, JSON.stringify(stale));
    const lock = lockDataDir(db, 'the Linecrew server');
    expect(JSON.parse(readFileSync(`${db}.lock`, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process (pid reused after a restart)', () => {
    const db = path.join(tempDir(), 'db');
    // Our own pid, but a start time that is not ours: a previous life of this pid (e.g. pid 1 in a container).
    const reused: LockOwner = { pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', purpose: 'old', procStart: '1' };
    writeFileSync(`${db}.lock`, JSON.stringify(reused));
    const lock = lockDataDir(db, 'the Linecrew server');
    expect(JSON.parse(readFileSync(`${db}.lock`, 'utf8')).purpose).toBe('the Linecrew server');
    lock.release();
  });

  it('does not take over a lock held on another host, and says how to clear it', () => {
    const db = path.join(tempDir(), 'db');
    const remote: LockOwner = { pid: 4242, host: 'other-host.example', since: '2024-05-01T08:00:00.000Z', purpose: 'the Linecrew server' };
    writeFileSync(`${db}.lock`, JSON.stringify(remote));
    expect(() => lockDataDir(db, 'the Linecrew server')).toThrow(/pid 4242 on other-host\.example.*delete .*db\.lock/s);
    expect(JSON.parse(readFileSync(`${db}.lock`, 'utf8'))).toEqual(remote);
  });
});

// Real processes, once (the "pglite" project): the embedded database is what is locked.
const skip = process.env.TEST_DB_KIND === 'postgres';

/** The exit code once the process has exited; 'serving' if it started instead. */
async function exitCodeOf(server: ServerProcess): Promise<number | null | 'serving'> {
  if (await server.ready.then(() => true, () => false)) return 'serving';
  if (server.child.exitCode !== null || server.child.signalCode !== null) return server.child.exitCode;
  return new Promise((resolve) => server.child.once('exit', (code) => resolve(code)));
}

async function signIn(server: ServerProcess): Promise<string> {
  const res = await fetch(`${server.origin}/api/v1/crew/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'linecrew' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe.skipIf(skip)('two server processes on one DATA_DIR (embedded database)', () => {
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('the second refuses to start and names the first, which keeps serving; after kill -9 of the first a new one starts with its writes', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, JWT_SECRET: 'lock-test-secret-that-is-long-enough-123456', SEED_DEMO: '1' };
    const a = await startServer({ env });
    servers.push(a);
    await a.ready;

    const b = await startServer({ env });
    servers.push(b);
    const code = await exitCodeOf(b);
    expect(code).not.toBe(0);
    expect(b.output()).toContain('Linecrew cannot start');
    expect(b.output()).toContain(`pid ${a.pid}`);

    // A keeps serving, and acknowledges a write.
    const token = await signIn(a);
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const jobs = (await (await fetch(`${a.origin}/api/v1/jobs`, { headers: auth })).json()) as { id: number }[];
    const page = (await (await fetch(`${a.origin}/api/v1/jobs/${jobs[0].id}`, { headers: auth })).json()) as { tickets: { id: number; version: number }[] };
    const ticket = page.tickets[0];
    const saved = await fetch(`${a.origin}/api/v1/tickets/`, {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ ticket: { id: ticket.id, version: ticket.version, description: 'saved before kill -9' } }),
    });
    expect(saved.status, await saved.clone().text()).toBe(200);

    // kill -9: no clean exit, the lock file stays behind.
    a.child.kill('SIGKILL');
    await exitCodeOf(a);
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(true);

    const c = await startServer({ env });
    servers.push(c);
    await c.ready;
    const tokenC = await signIn(c);
    const read = await fetch(`${c.origin}/api/v1/tickets/${ticket.id}`, { headers: { authorization: `Bearer ${tokenC}` } });
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('saved before kill -9');

    // A clean stop (SIGTERM) exits 0 and releases the lock.
    await c.stop();
    expect(c.child.exitCode).toBe(0);
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
  }, 180_000);
});
