import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { ROOT } from '../../src/server/test/server-process';
import { round } from '../lib/common';

/** How the bench's tables write a figure and its budget's verdict. */

export type Status = 'met' | 'not met' | 'n/a';
export const ms = (v: number | null | undefined, d = 1) => (v == null || !Number.isFinite(v) ? '–' : `${round(v, d)} ms`);
export const status = (ok: boolean | null): Status => (ok === null ? 'n/a' : ok ? 'met' : 'not met');

/** The load average now, as the tables write it. */
export const loadNow = () => os.loadavg().map((v) => round(v, 1)).join(' / ');

/** Where and when a run ran: the head of each table in docs/benchmarks.md. */
export function machine() {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT }).toString().trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout
  }
  return {
    date: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    cpus: `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`,
    memory: `${round(os.totalmem() / 2 ** 30, 1)} GiB`,
    node: process.version,
    os: `${os.type()} ${os.release()}`,
    load: loadNow(),
    commit,
  };
}

export type Machine = ReturnType<typeof machine>;
