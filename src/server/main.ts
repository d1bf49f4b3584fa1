import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { DataDirLockedError } from './db/lock';
import { seedIfEmpty } from './db/seed/seed';
import { ABANDONED_IMPORT_MINUTES, discardAbandonedImports } from './modules/imports/staged-import.repository';
import { createMailer } from './mail/mailer';
import { createStorage } from './storage/create';
import { buildApp } from './app';
import { loggerOptions, redactUrl } from './logging';
import { startWorkbookWorker } from './modules/imports/worker/pool';
import { warmUpImports } from './modules/imports/warm-up';
import { countNameClashes } from './db/name-clashes';
import { startDigestScheduler } from './modules/digest/digest.service';
import { startWebhookWorker, type WebhookWorker } from './modules/webhooks/webhooks.service';

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
    // Imports a stopped process left half written (decision 027). On PostgreSQL another process
    // may be writing one right now: only those older than any import takes are abandoned.
    await discardAbandonedImports(database.db, database.kind === 'pglite' ? 0 : ABANDONED_IMPORT_MINUTES);
    if (config.seedDemo) await seedIfEmpty(ctx);
  });

  const app = await buildApp({
    ...ctx,
    webDir: path.join(root, 'dist/web'),
    logger: loggerOptions(config.logLevel),
  });
  // Look-alike names the migration could not merge on its own (the look_alike_names migration, docs/product/sessions-and-safety.md §9): said at every
  // start until a person has renamed or merged them and emptied the table.
  const clashes = await countNameClashes(database.db);
  if (clashes > 0) {
    app.log.warn(
      `${clashes} job numbers, unit codes or poles look alike once normalised and were left as they are: see the table name_clashes (docs/deploy.md, "Names that look alike").`,
    );
  }
  // Requests the HTTP server has received and not yet answered: named if shutdown times out.
  const inFlight = new Set<IncomingMessage>();
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(req);
    res.once('close', () => inFlight.delete(req));
  });
  let stopDigest = async () => {};
  // Sends the webhooks every process's changes wrote (decision 050); WEBHOOKS=0 leaves it to other processes.
  let webhooks: WebhookWorker | undefined;
  let stopping = false;
  // Stops taking requests, lets those in flight finish, closes the database (releasing its
  // lock). A request that never ends (a stalled upload) must not keep the process alive past
  // SHUTDOWN_TIMEOUT_MS: then it says what was still running and exits non-zero.
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      const running = [...inFlight].map((req) => `${req.method} ${redactUrl(req.url ?? '')}`);
      app.log.error(
        { stillRunning: running },
        `Shutdown (${signal}) did not finish within ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS); exiting with requests still running: ` +
          (running.length ? running.join(', ') : 'none (closing the database)'),
      );
      process.exit(1);
    }, config.shutdownTimeoutMs);
    try {
      await app.close();
      // The digest pass under way finishes (a mail half sent is taken over by another process
      // only after the lease) before the database closes.
      await stopDigest();
      await webhooks?.stop();
      await database.close();
    } catch (err) {
      app.log.error({ err }, `Shutdown (${signal}) failed`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  // Loads in its own thread while the first requests are served: no one waits for it later.
  startWorkbookWorker();
  // PGlite: the import's statements run once, on one hidden ticket that is then discarded, so the
  // first real import does not pay their first runs on the server's thread (decision 034, warm-up.ts).
  if (database.kind === 'pglite') void warmUpImports(database.db).catch((err: unknown) => app.log.error({ err }, 'import warm-up failed'));
  // Every minute: the daily digest of each company whose 06:00 has come (decision 046).
  if (config.dailyDigest) stopDigest = startDigestScheduler(ctx, { log: (msg, err) => app.log.error({ err }, msg) });
  if (config.webhooks.deliver) {
    webhooks = startWebhookWorker(database.db, { allowPrivate: config.webhooks.allowPrivate, log: (err) => app.log.error({ err }, 'webhook delivery round failed') });
  }
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
