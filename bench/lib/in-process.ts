import path from 'node:path';
import { loadConfig } from '../../src/server/config';
import type { AppContext } from '../../src/server/context';
import { openDatabase } from '../../src/server/db/client';
import { createMailer } from '../../src/server/mail/mailer';
import { createStorage } from '../../src/server/storage/create';
import { JWT_SECRET, type Target } from './common';

/**
 * The run's copy of the bench data opened in this process, migrated to this commit (as the server
 * would on start), with the app's context: the benches that time the app in process (npm run bench
 * phase 1, bench:history) build their app on it. The caller closes the database.
 */
export async function openRunInProcess(t: Target) {
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: t.runDir, DATABASE_URL: t.runUrl ?? '', JWT_SECRET, LOG_LEVEL: 'error' });
  const database = await openDatabase({ databaseUrl: t.runUrl, pgliteDir: path.join(t.runDir, 'db') });
  try {
    await database.migrate();
    const ctx: AppContext = {
      db: database.db,
      config,
      mail: createMailer({ outboxDir: path.join(t.runDir, 'outbox'), from: config.mailFrom }),
      storage: await createStorage(config),
    };
    return { database, ctx };
  } catch (e) {
    await database.close();
    throw e;
  }
}
