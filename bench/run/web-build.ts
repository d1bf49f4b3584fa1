import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../src/server/test/server-process';
import { args, log } from './options';

function newestMtime(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return latest;
}

/** Builds the web app into dist/web when missing or older than its sources (as `npm start` does). */
export function ensureWebBuilt(notes: string[]): boolean {
  const built = path.join(ROOT, 'dist/web/index.html');
  const sources = Math.max(newestMtime(path.join(ROOT, 'src/web')), newestMtime(path.join(ROOT, 'src/shared')));
  if (existsSync(built) && statSync(built).mtimeMs >= sources) return true;
  if (args['no-build']) {
    notes.push('web build is older than its sources (--no-build): browser figures are of the old build');
    return existsSync(built);
  }
  log('building the web app (vite build)…');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 300_000,
  });
  if (r.status !== 0) {
    notes.push('vite build failed: browser figures skipped');
    return false;
  }
  return true;
}
