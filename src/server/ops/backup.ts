import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { openDatabase, rowsOf, type Database } from '../db/client';
import { DataDirLockedError, lockDataDir } from '../db/lock';

/**
 * Backup and restore of the embedded default (DATA_DIR/db + DATA_DIR/files) as one .tar.gz
 * (`npm run backup`, `npm run restore`; docs/deploy.md "Backups of the embedded database").
 *
 * The copy is taken with the database folder's lock held (db/lock.ts), so it is consistent: no
 * server writes while it runs. While the app runs the lock is the app's, and the backup stops
 * with a message naming it — PGlite is one process, and a copy of its files under a running
 * server would not be a consistent database. The database goes in as PGlite's own dump
 * (dumpDataDir), the files folder as it is, plus a manifest with counts that restore checks.
 *
 * Archive layout: manifest.json, pglite.tar (the dump), files/… (uploads, with their .meta).
 */

const BACKUP_FORMAT = 'linecrew-backup';
const BACKUP_VERSION = 1;

/** Tables whose row counts go in the manifest and are checked after a restore. */
const COUNTED = ['companies', 'users', 'jobs', 'tickets', 'ticket_tasks', 'notes', 'images', 'poles'] as const;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  app: string;
  rows: Record<string, number>;
  files: number;
}

export class BackupError extends Error {}

function dbDir(dataDir: string) {
  return path.join(dataDir, 'db');
}

function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname ?? '.', '../../../package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Files under dir (recursively), skipping the upload scratch folder. */
function listFiles(dir: string, skip = new Set(['.tmp'])): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (skip.has(e.name)) return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(full, new Set()).map((f) => path.join(e.name, f)) : [e.name];
  });
}

async function countRows(database: Database): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of COUNTED) {
    const [r] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
    rows[table] = Number(r.n);
  }
  return rows;
}

function busy(err: DataDirLockedError, action: string): BackupError {
  const o = err.owner;
  return new BackupError(
    `Linecrew is running (${o.purpose}, pid ${o.pid} on ${o.host}, since ${o.since}), and it holds the embedded database. ` +
      `Stop it first, then ${action} again: a copy taken under a running embedded database would not be consistent. ` +
      '(With DATABASE_URL, back up PostgreSQL with pg_dump instead: docs/deploy.md.)',
  );
}

/** Writes a backup of dataDir to `out` (a .tar.gz) and returns its manifest. */
export async function backup(dataDir: string, out: string): Promise<Manifest> {
  if (!existsSync(path.join(dbDir(dataDir), 'PG_VERSION'))) {
    throw new BackupError(`There is no embedded database in ${dbDir(dataDir)}: nothing to back up. Is DATA_DIR right?`);
  }
  let database: Database;
  try {
    database = await openDatabase({ pgliteDir: dbDir(dataDir), purpose: 'a backup (npm run backup)' });
  } catch (err) {
    if (err instanceof DataDirLockedError) throw busy(err, 'run npm run backup');
    throw err;
  }
  const stage = path.join(tmpdir(), `linecrew-backup-${randomBytes(6).toString('hex')}`);
  mkdirSync(stage);
  try {
    const rows = await countRows(database);
    const filesDir = path.join(dataDir, 'files');
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: new Date().toISOString(),
      app: appVersion(),
      rows,
      files: listFiles(filesDir).filter((f) => !f.startsWith(`.meta${path.sep}`)).length,
    };
    // PGlite's own consistent dump of its data folder, taken while we hold the lock.
    const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
    writeFileSync(path.join(stage, 'pglite.tar'), Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
    writeFileSync(path.join(stage, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const entries = ['manifest.json', 'pglite.tar'];
    if (existsSync(filesDir)) {
      symlinkSync(path.resolve(filesDir), path.join(stage, 'files'));
      entries.push('files');
    }
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    const partial = `${out}.partial`;
    try {
      await tar.c(
        {
          gzip: true,
          file: partial,
          cwd: stage,
          follow: true, // `files` is a link to DATA_DIR/files: archive what it points at
          portable: true,
          filter: (p) => !p.startsWith('files/.tmp'),
        },
        entries,
      );
      renameSync(partial, out); // never a half-written archive under the final name
    } catch (err) {
      rmSync(partial, { force: true });
      throw err;
    }
    return manifest;
  } finally {
    rmSync(stage, { recursive: true, force: true });
    await database.close();
  }
}

function isEmptyDataDir(dataDir: string): boolean {
  for (const name of ['db', 'files']) {
    const p = path.join(dataDir, name);
    if (existsSync(p) && (!statSync(p).isDirectory() || readdirSync(p).length > 0)) return false;
  }
  return true;
}

/**
 * Restores an archive made by `backup` into dataDir. Refuses a DATA_DIR that already has a
 * database or files unless `force` (then replaces them), and refuses while the app runs there.
 * Checks the restored database's row counts and files against the manifest.
 */
export async function restore(archive: string, dataDir: string, opts: { force?: boolean } = {}): Promise<Manifest> {
  if (!existsSync(archive)) throw new BackupError(`There is no file ${archive}.`);
  mkdirSync(dataDir, { recursive: true });
  // The lock first: never replace the folder under a running app.
  let lock;
  try {
    lock = lockDataDir(dbDir(dataDir), 'a restore (npm run restore)');
  } catch (err) {
    if (err instanceof DataDirLockedError) throw busy(err, 'run npm run restore');
    throw err;
  }
  const stage = path.join(dataDir, `.restore-${randomBytes(6).toString('hex')}`);
  try {
    if (!isEmptyDataDir(dataDir)) {
      if (!opts.force) {
        throw new BackupError(
          `${dataDir} already has a database or files. Restore into an empty DATA_DIR, or add --force to replace them with the backup.`,
        );
      }
    }
    mkdirSync(stage);
    try {
      await tar.x({ file: archive, cwd: stage, strict: true });
    } catch (err) {
      throw new BackupError(`${archive} is not a Linecrew backup (${(err as Error).message}).`);
    }
    let manifest: Manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(stage, 'manifest.json'), 'utf8')) as Manifest;
    } catch {
      throw new BackupError(`${archive} is not a Linecrew backup: it has no manifest.json.`);
    }
    if (manifest.format !== BACKUP_FORMAT || manifest.version > BACKUP_VERSION || !existsSync(path.join(stage, 'pglite.tar'))) {
      throw new BackupError(`${archive} is not a Linecrew backup this version can read (format ${manifest.format} ${manifest.version}).`);
    }
    if (opts.force) {
      rmSync(dbDir(dataDir), { recursive: true, force: true });
      rmSync(path.join(dataDir, 'files'), { recursive: true, force: true });
    }
    lock.release();
    lock = undefined;
    // PGlite loads its dump into the new folder (taking the lock again while it does).
    const database = await openDatabase({
      pgliteDir: dbDir(dataDir),
      pgliteLoad: new Blob([readFileSync(path.join(stage, 'pglite.tar'))]),
      purpose: 'a restore (npm run restore)',
    });
    try {
      const rows = await countRows(database);
      for (const [table, n] of Object.entries(manifest.rows)) {
        if (rows[table] !== n) throw new BackupError(`The restored database has ${rows[table]} ${table}, the backup recorded ${n}.`);
      }
    } finally {
      await database.close();
    }
    if (existsSync(path.join(stage, 'files'))) renameSync(path.join(stage, 'files'), path.join(dataDir, 'files'));
    const files = listFiles(path.join(dataDir, 'files')).filter((f) => !f.startsWith(`.meta${path.sep}`)).length;
    if (files !== manifest.files) throw new BackupError(`The restored files folder has ${files} files, the backup recorded ${manifest.files}.`);
    return manifest;
  } finally {
    lock?.release();
    rmSync(stage, { recursive: true, force: true });
  }
}
