import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * An exclusive lock on the embedded database folder (DATA_DIR/db), held by the one process that
 * opens it: PGlite is a single-process database, and two processes on one folder each acknowledge
 * writes that the other then overwrites.
 *
 * The lock is a small JSON file beside the folder (`DATA_DIR/db.lock`) naming its owner. It is
 * made with link(2), which fails when the file exists, so two processes can never both create it.
 * A lock whose owner is dead (kill -9, power cut) is taken over: the owner counts as alive only if
 * a process with its pid exists on this host, since the same boot, with the same start time
 * (a pid reused by an unrelated process, or by a restarted container, does not hold the lock).
 *
 * Why not proper-lockfile: its locks go stale by age (an mtime refreshed by a timer). PGlite runs
 * queries on the main thread, so a long query can delay that timer past the stale limit and let a
 * second process in — the very loss this lock prevents — and it does not record who holds it.
 */

export interface LockOwner {
  pid: number;
  host: string;
  /** When the owner took the lock (ISO). */
  since: string;
  /** What the owner is (the server, a backup…), for the message. */
  purpose: string;
  /** Linux: /proc/sys/kernel/random/boot_id and /proc/<pid>/stat start time, to tell a reused pid. */
  bootId?: string;
  procStart?: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly owner: LockOwner,
    readonly lockFile: string,
    dir: string,
  ) {
    const sameHost = owner.host === hostname();
    super(
      `The database folder ${dir} is in use by another Linecrew process ` +
        `(${owner.purpose}, pid ${owner.pid} on ${owner.host}, since ${owner.since}). ` +
        'Two processes on one embedded database lose saved work, so this one stops. ' +
        (sameHost
          ? `Stop that process first (kill ${owner.pid}), or give this one another DATA_DIR; to run several processes, use DATABASE_URL (docs/deploy.md).`
          : `Stop it on ${owner.host} first. If it is no longer running there, delete ${lockFile} and start again.`),
    );
  }
}

export interface DirLock {
  file: string;
  owner: LockOwner;
  release(): void;
}

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat: the start time in clock ticks since boot (Linux only). */
function procStartOf(pid: number): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function currentBootId(): string | undefined {
  return readOr('/proc/sys/kernel/random/boot_id');
}

/** The lock file's owner; undefined when there is no lock file, null when it cannot be read. */
function readOwner(file: string): LockOwner | null | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    const owner = JSON.parse(text) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : null;
  } catch {
    return null;
  }
}

function sameOwner(a: LockOwner, b: LockOwner): boolean {
  return a.pid === b.pid && a.host === b.host && a.since === b.since && a.procStart === b.procStart;
}

/** Whether the lock's owner may still be running. Another host's owner cannot be checked: assume so. */
function isOwnerAlive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  const boot = currentBootId();
  if (owner.bootId && boot && owner.bootId !== boot) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = procStartOf(owner.pid);
  return !(owner.procStart && start && owner.procStart !== start);
}

/**
 * Takes the lock on `dir` (the file `<dir>.lock`) or throws DataDirLockedError naming the holder.
 * The lock is released by `release()` and, failing that, when the process exits.
 */
export function lockDataDir(dir: string, purpose: string): DirLock {
  const file = `${path.resolve(dir)}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    purpose,
    bootId: currentBootId(),
    procStart: procStartOf(process.pid),
  };
  // Written whole to a private file first and linked into place: a reader never sees half of it.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, JSON.stringify(owner), { mode: 0o644 });
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(draft, file);
        return held(file, owner);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const current = readOwner(file);
      if (current === undefined) continue; // released meanwhile: try again
      if (current && isOwnerAlive(current)) throw new DataDirLockedError(current, file, dir);
      // Dead owner (or a file that is not ours to read): move it aside atomically, then check that
      // what was moved is the stale lock and not one another process took over a moment ago.
      const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
      try {
        renameSync(file, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const moved = readOwner(aside);
      if (moved && current && !sameOwner(moved, current) && isOwnerAlive(moved)) {
        try {
          linkSync(aside, file); // put the live owner's lock back
        } catch {
          // someone else already holds a newer one
        }
        unlinkSync(aside);
        throw new DataDirLockedError(moved, file, dir);
      }
      unlinkSync(aside);
    }
    throw new Error(`Could not take the lock ${file}: it keeps changing hands. Is another Linecrew process starting?`);
  } finally {
    try {
      unlinkSync(draft);
    } catch {
      // already gone
    }
  }
}

function held(file: string, owner: LockOwner): DirLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    const current = readOwner(file);
    // Only our own lock: after a takeover of a lock we lost, the file belongs to someone else.
    if (current && sameOwner(current, owner)) {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', release);
  return { file, owner, release };
}
