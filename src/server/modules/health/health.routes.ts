import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { App, AppContext } from '../../context';
import { rowsOf } from '../../db/client';
import { AppError } from '../../errors';
import { MSG } from '../../../shared/messages';
import { storageFailure } from '../../plugins/errors';

/** GET /health: for a load balancer or a monitor, public (docs/deploy.md). */
export async function healthRoutes(app: App, ctx: AppContext) {
  app.get(
    '/health',
    { config: { public: true }, schema: { tags: ['system'], summary: 'Whether the server and its database take writes (for a load balancer)', response: { 200: z.object({ ok: z.boolean() }) } } },
    async (request) => {
      // Proves the database takes writes, not only answers: txid_current() gives this statement
      // a transaction id (a replica in recovery refuses), and the session must not be read-only.
      // Then a few bytes to the data folder, where PGlite, uploads and mail live (a full or
      // read-only disk). One statement and one small file: cheap enough to poll.
      let readOnly: boolean;
      try {
        const rows = rowsOf<{ ro: string }>(await ctx.db.execute(sql`select txid_current(), current_setting('transaction_read_only') as ro`));
        readOnly = rows[0]?.ro !== 'off';
      } catch (err) {
        request.log.error({ err }, 'health: the database cannot write');
        throw storageFailure(err) ?? new AppError(503, MSG.databaseCannotWrite);
      }
      if (readOnly) throw new AppError(503, MSG.databaseCannotWrite);
      try {
        // Synchronous on purpose: a few bytes to a local file take microseconds, while the
        // promise version is three trips through libuv's thread pool (open, write, close), and
        // during a PGlite import each trip waited for one of its statements (GET /health 91–104
        // ms on a first import, budget 100; now one trip for the query only).
        writeFileSync(path.join(ctx.config.dataDir, '.health'), String(Date.now()));
      } catch (err) {
        request.log.error({ err }, 'health: the data folder cannot be written');
        throw storageFailure(err) ?? new AppError(503, MSG.dataFolderReadOnly);
      }
      return { ok: true };
    },
  );
}
