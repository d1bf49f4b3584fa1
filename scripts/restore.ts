// `npm run restore -- <archive.tar.gz> [--force]`: puts a backup made by `npm run backup` into
// DATA_DIR (src/server/ops/backup.ts). Refuses a DATA_DIR that has data unless --force.
import path from 'node:path';
import { BackupError, restore } from '../src/server/ops/backup';
import { DataDirLockedError } from '../src/server/db/lock';
import { dataDirOf } from '../src/server/config';

const args = process.argv.slice(2);
const force = args.includes('--force');
const archive = args.find((a) => !a.startsWith('--'));
if (!archive) {
  console.error('Usage: npm run restore -- <backup.tar.gz> [--force]   (into DATA_DIR, default ./data)');
  process.exit(1);
}
const dataDir = dataDirOf();

try {
  const manifest = await restore(path.resolve(archive), dataDir, { force });
  const rows = Object.entries(manifest.rows).map(([table, n]) => `${n} ${table}`).join(', ');
  console.log(`Restored ${archive} (taken ${manifest.createdAt}) into ${dataDir}: ${rows}, ${manifest.files} files. Start the app with the same DATA_DIR.`);
} catch (err) {
  if (err instanceof BackupError || err instanceof DataDirLockedError) {
    console.error(`Nothing restored: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
