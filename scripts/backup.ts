// `npm run backup [-- <archive.tar.gz>]`: the embedded database and the files folder of DATA_DIR
// in one archive (src/server/ops/backup.ts). Stop the app first: it holds the database.
import path from 'node:path';
import { BackupError, backup } from '../src/server/ops/backup';
import { DataDirLockedError } from '../src/server/db/lock';
import { dataDirOf } from '../src/server/config';

const dataDir = dataDirOf();
if (process.env.DATABASE_URL) {
  console.error('DATABASE_URL is set: the data is in PostgreSQL. Back it up with pg_dump, and the files with your bucket tools (docs/deploy.md).');
  process.exit(1);
}
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const out = path.resolve(process.argv[2] ?? path.join('backups', `linecrew-${stamp}.tar.gz`));

try {
  const manifest = await backup(dataDir, out);
  const rows = Object.entries(manifest.rows).map(([table, n]) => `${n} ${table}`).join(', ');
  console.log(`Backup of ${dataDir} written to ${out}: ${rows}, ${manifest.files} files.`);
  if (process.env.S3_BUCKET) console.log('S3_BUCKET is set: the files in the bucket are not in this archive; back the bucket up too (docs/deploy.md).');
} catch (err) {
  if (err instanceof BackupError || err instanceof DataDirLockedError) {
    console.error(`No backup made: ${err.message}`);
    process.exit(1);
  }
  throw err;
}
