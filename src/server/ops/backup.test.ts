import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../db/client';
import { lockDataDir } from '../db/lock';
import { LocalStorage } from '../storage/local';
import { makeStorageKey } from '../storage/keys';
import { PGLITE_TEMPLATE } from '../test/global-setup';
import { backup, restore } from './backup';

/**
 * docs/deploy.md "Backups of the embedded database" (decision 016): `npm run backup` / `npm run restore` of the embedded default. A real DATA_DIR
 * (PGlite folder with the migrated demo data plus a ticket written here, and real files through
 * LocalStorage) is backed up, restored into an empty DATA_DIR, and every job, ticket and file is
 * found again, byte for byte.
 */
const skip = process.env.TEST_DB_KIND === 'postgres'; // the embedded database only: runs in "pglite"

const root = mkdtempSync(path.join(tmpdir(), 'linecrew-backup-test-'));
const source = path.join(root, 'source');
const archive = path.join(root, 'out', 'linecrew.tar.gz');
const SECRET = 'backup-test-secret-that-is-long-enough-0123';
const files = new Map<string, Buffer>();

async function snapshot(dataDir: string) {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    const read = async (table: string) =>
      rowsOf<Record<string, unknown>>(await database.db.execute(sql`select * from ${sql.identifier(table)} order by id`));
    return { jobs: await read('jobs'), tickets: await read('tickets'), images: await read('images') };
  } finally {
    await database.close();
  }
}

describe.skipIf(skip)('backup and restore of the embedded database', () => {
  beforeAll(async () => {
    mkdirSync(source);
    const database = await openDatabase({ pgliteDir: path.join(source, 'db'), pgliteLoad: new Blob([readFileSync(PGLITE_TEMPLATE)]) });
    await database.db.execute(sql`update tickets set description = 'written just before the backup' where id = (select min(id) from tickets)`);
    await database.close();
    const storage = new LocalStorage(path.join(source, 'files'), SECRET);
    for (const [kind, name, bytes] of [
      ['work_packet', 'packet.pdf', Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(50_000)])],
      ['media', 'pole 7.jpg', randomBytes(120_000)],
      ['excel', 'tickets.xlsx', randomBytes(3_000)],
    ] as const) {
      const key = makeStorageKey(1, kind, name);
      await storage.put(key, bytes, 'application/octet-stream');
      files.set(key, bytes);
    }
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('refuses while another process holds the database, naming it', async () => {
    const held = lockDataDir(path.join(source, 'db'), 'the Linecrew server');
    try {
      await expect(backup(source, archive)).rejects.toThrow(new RegExp(`running \\(the Linecrew server, pid ${process.pid} .*Stop it first`));
      expect(existsSync(archive)).toBe(false);
    } finally {
      held.release();
    }
  });

  it('restores into an empty DATA_DIR: every job, ticket and file, byte for byte', async () => {
    const manifest = await backup(source, archive);
    expect(manifest.rows.jobs).toBeGreaterThan(0);
    expect(manifest.rows.tickets).toBeGreaterThan(0);
    expect(manifest.files).toBe(files.size);
    // The source is released again: the app can start on it after a backup.
    expect(existsSync(path.join(source, 'db.lock'))).toBe(false);

    const target = path.join(root, 'restored');
    const restored = await restore(archive, target);
    expect(restored.rows).toEqual(manifest.rows);

    const before = await snapshot(source);
    const after = await snapshot(target);
    expect(after.jobs).toEqual(before.jobs);
    expect(after.tickets).toEqual(before.tickets);
    expect(after.images).toEqual(before.images);
    expect(JSON.stringify(after.tickets)).toContain('written just before the backup');

    const storage = new LocalStorage(path.join(target, 'files'), SECRET);
    for (const [key, bytes] of files) {
      expect((await storage.get(key)).equals(bytes), key).toBe(true);
      expect((await storage.head(key))?.size).toBe(bytes.length);
    }
  }, 120_000);

  it('refuses a DATA_DIR that has data unless --force, which replaces it', async () => {
    const target = path.join(root, 'occupied');
    mkdirSync(path.join(target, 'files'), { recursive: true });
    writeFileSync(path.join(target, 'files', 'old.txt'), 'old');
    await expect(restore(archive, target)).rejects.toThrow(/already has a database or files.*--force/);
    expect(readFileSync(path.join(target, 'files', 'old.txt'), 'utf8')).toBe('old');

    await restore(archive, target, { force: true });
    expect(existsSync(path.join(target, 'files', 'old.txt'))).toBe(false);
    expect((await snapshot(target)).jobs.length).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a file that is not a backup', async () => {
    const bogus = path.join(root, 'bogus.tar.gz');
    writeFileSync(bogus, 'not a tarball');
    await expect(restore(bogus, path.join(root, 'empty'))).rejects.toThrow(/not a Linecrew backup/);
  });
});
