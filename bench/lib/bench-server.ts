import { existsSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import path from 'node:path';
import { ROOT, startServer, type ServerProcess } from '../../src/server/test/server-process';
import { users } from '../../src/server/db/schema/index';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { BENCH_FOREMAN, BENCH_PASSWORD, benchTarget, dropRun, http, prepareRun, readManifest, serverEnv, type Kind, type Manifest, type Target } from './common';
import { openRunInProcess } from './in-process';

/** The bench data of `kind` and the built app, which the browser figures need; a clear error naming the command that makes what is missing. */
export function browserBenchData(kind: Kind = 'pglite') {
  const t = benchTarget(kind);
  const m = readManifest(t);
  if (!m) throw new Error(`no bench data at ${t.manifestPath}: npm run bench:data -- --db ${kind}`);
  if (!existsSync(path.join(ROOT, 'dist/web/index.html'))) throw new Error('no web build (dist/web): npx vite build');
  return { t, m };
}

/**
 * On the run's copy, as npm run bench does: the foreman whose My Work the field figures read
 * (invited, so without a password) gets the bench's. For withBenchServer's `prepare`.
 */
export async function giveForemanPassword(t: Target, m: Manifest): Promise<void> {
  const { database, ctx } = await openRunInProcess(t);
  try {
    await ctx.db
      .update(users)
      .set({ passwordHash: await hashPassword(BENCH_PASSWORD) })
      .where(and(eq(users.companyId, m.companyId), eq(users.email, BENCH_FOREMAN)));
  } finally {
    await database.close();
  }
}

export interface BenchServer {
  server: ServerProcess;
  origin: string;
  /** A bearer token of a bench account (BENCH_PASSWORD). */
  login(email: string): Promise<string>;
}

/**
 * The real server (production mode) on a fresh copy of the bench data, for `fn`; then stopped and
 * the copy dropped. The one-figure scripts (bench/import.ts, and bench/investigations/: map.ts,
 * vitals-only.ts, field-sync.ts, initial-js.ts) all start it this way, as `npm run bench` does for its rows. `prepare` runs on
 * the copy before the server opens it (e.g. a password for the invited foreman).
 */
export async function withBenchServer<T>(
  t: Target,
  opts: { port?: number; nodeArgs?: string[]; stopGraceMs?: number; prepare?: () => Promise<void> },
  fn: (s: BenchServer) => Promise<T>,
): Promise<T> {
  await prepareRun(t);
  try {
    await opts.prepare?.();
    const server = await startServer({ env: serverEnv(t), port: opts.port, timeoutMs: 120_000, nodeArgs: opts.nodeArgs });
    try {
      await server.ready;
      const login = async (email: string) => {
        const res = await http(server.origin, 'POST', '/api/v1/crew/login', undefined, { email, password: BENCH_PASSWORD });
        if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status}`);
        return res.json.token as string;
      };
      return await fn({ server, origin: server.origin, login });
    } finally {
      await server.stop(opts.stopGraceMs);
    }
  } finally {
    await dropRun(t);
  }
}
