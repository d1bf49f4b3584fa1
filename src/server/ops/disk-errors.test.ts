import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from '../plugins/errors';
import { MSG } from '../../shared/messages';
import { LocalStorage } from '../storage/local';
import { createTestApp, type TestApp } from '../test/harness';

/**
 * docs/deploy.md "What each process needs" (decision 015): a full disk or an unwritable data folder answers 507 / 503 with a message a
 * person can act on, never a generic 500; GET /health fails when the database or the data folder
 * cannot write. Real failures: /dev/full (ENOSPC), a storage folder under /sys (EPERM even for
 * root), a small tmpfs that fills up (when this machine lets the tests mount one), a read-only
 * database session.
 */

async function signAndPut(t: TestApp, token: string, bytes: Buffer) {
  const signed = await t.request({ method: 'GET', url: '/api/v1/doc_upload/sign-s3-pdf?directory=work_packet&fileName=packet.pdf&fileType=application%2Fpdf', token });
  expect(signed.statusCode, signed.body).toBe(200);
  const { signedRequest } = signed.json() as { signedRequest: string };
  return t.request({ method: 'PUT', url: signedRequest, headers: { 'content-type': 'application/pdf' }, body: bytes });
}

const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
// One app per storage, made at the top so the harness's afterAll closes them.
const t = await createTestApp();
const unwritable = await createTestApp({ storage: new LocalStorage('/sys/kernel/linecrew-no-such-files', SECRET) });
const full = mkdtempSync(path.join(tmpdir(), 'linecrew-full-'));
const onFullDisk = await createTestApp({ storage: new LocalStorage(full, SECRET) });
afterAll(() => rmSync(full, { recursive: true, force: true }));

const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(size, 0x20)]);

describe('disk full and unwritable folders', () => {
  it('a real ENOSPC (/dev/full) answers 507 with the disk-full message', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/write', async () => {
      await writeFile('/dev/full', 'x');
      return { ok: true };
    });
    const res = await app.inject({ method: 'GET', url: '/write' });
    expect(res.statusCode).toBe(507);
    expect(res.json().error).toBe(MSG.diskFull);
    await app.close();
  });

  it('PostgreSQL disk_full (SQLSTATE 53100), wrapped by the driver, answers 507', async () => {
    // No real database can be filled here: the error object is what pg/PGlite raise, wrapped as drizzle wraps it.
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/q', async () => {
      throw new Error('Failed query: insert …', { cause: Object.assign(new Error('could not extend file "base/5/16384": No space left on device'), { code: '53100' }) });
    });
    const res = await app.inject({ method: 'GET', url: '/q' });
    expect(res.statusCode).toBe(507);
    await app.close();
  });

  it('an upload into a folder the server may not write answers 503 and says so', async () => {
    const token = await unwritable.login('admin@example.com');
    const res = await signAndPut(unwritable, token, pdf(100));
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe(MSG.dataFolderReadOnly);
  });

  it('an upload to a disk that fills up answers 507 and leaves no partial file (a 64 KB tmpfs; skipped where mounting is not permitted)', async (ctx) => {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', full]).status === 0;
    try {
      if (!mounted) ctx.skip();
      const token = await onFullDisk.login('admin@example.com');
      const res = await signAndPut(onFullDisk, token, pdf(200 * 1024));
      expect(res.statusCode).toBe(507);
      expect(res.json().error).toBe(MSG.diskFull);
      const left = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? left(path.join(dir, e.name)) : [e.name]));
      expect(left(full)).toEqual([]);
    } finally {
      if (mounted) spawnSync('umount', [full]);
    }
  });
});

// In this order: the last one leaves the database read-only.
describe('GET /health', () => {
  it('answers 200 while the database and the data folder can write', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('answers 503 when the data folder cannot be written', async () => {
    // The data folder replaced by a plain file: nothing can be created in it.
    rmSync(t.dataDir, { recursive: true, force: true });
    writeFileSync(t.dataDir, 'not a folder');
    const res = await t.request({ method: 'GET', url: '/api/v1/health' });
    rmSync(t.dataDir, { force: true });
    mkdirSync(t.dataDir);
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe(MSG.dataFolderReadOnly);
  });

  it('answers 503 when the database is read-only', async () => {
    // Every connection of the test pool (4 on PostgreSQL, PGlite has one) turned read-only: the
    // statements run at once, so each holds its own connection while it sets it.
    await Promise.all(
      Array.from({ length: 4 }, () => t.database.db.execute(sql`select set_config('default_transaction_read_only', 'on', false), pg_sleep(0.2)`)),
    );
    const res = await t.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toBe(MSG.databaseCannotWrite);
  });
});
