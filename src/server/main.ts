import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/lock';
import { seedIfEmpty } from './db/seed/seed';
import { createMailer } from './mail/mailer';
import { createStorage } from './storage/create';
import { buildApp } from './app';
import { startWorkbookWorker } from './modules/excel/workbook-import';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db'), purpose: 'the Linecrew server' });
  const storage = await createStorage(config);
  const mail = createMailer({
    smtpUrl: config.smtpUrl,
    outboxDir: path.join(config.dataDir, 'outbox'),
    from: config.mailFrom,
    log: (msg) => console.log(msg),
  });
  const ctx = { db: database.db, config, mail, storage };
  // One process migrates and seeds at a time; the others wait and then find it done.
  await database.withStartupLock(async () => {
    await database.migrate();
    if (config.seedDemo) await seedIfEmpty(ctx);
  });

  const app = await buildApp({
    ...ctx,
    webDir: path.join(root, 'dist/web'),
    logger: { level: config.logLevel },
  });
  const shutdown = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  // Loads in its own thread while the first requests are served: no one waits for it later.
  startWorkbookWorker();
  console.log(`Linecrew is ready at http://localhost:${config.port} (database: ${database.kind}, data: ${config.dataDir})`);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(`Linecrew cannot start: ${err.message}`);
  } else {
    console.error(err);
  }
  process.exit(1);
});
