import { performance } from 'node:perf_hooks';
import type { Db } from '../../src/server/db/client';
import { queryStats } from '../../src/server/db/client';
import { percentile } from './common';

/**
 * "The bare SQL the route needs": the exact statements (text + parameters) a route sends, as
 * drizzle's logger sees them (queryStats.onQuery), replayed straight on the driver — no Fastify,
 * no zod, no mapping to the read model, no JSON. route ÷ bare SQL is the overhead we own.
 */
export interface Statement {
  query: string;
  params: unknown[];
}

/** Runs fn and returns what it sent to the database. */
export async function capture<T>(fn: () => Promise<T>): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const before = queryStats.onQuery;
  queryStats.onQuery = (query, params) => statements.push({ query, params: [...params] });
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    queryStats.onQuery = before;
  }
}

const TX_CONTROL = /^\s*(begin|commit|rollback|start transaction|savepoint|release)\b/i;

type PgliteClient = {
  query(q: string, p?: unknown[]): Promise<unknown>;
  transaction<T>(fn: (tx: { query(q: string, p?: unknown[]): Promise<unknown>; rollback(): Promise<void> }) => Promise<T>): Promise<T>;
};
type PgPool = {
  query(q: string, p?: unknown[]): Promise<unknown>;
  connect(): Promise<{ query(q: string, p?: unknown[]): Promise<unknown>; release(): void }>;
};

/**
 * One replay of `statements`. Reads: the statements after the first (the session check) are
 * sent together, as the route's Promise.all does (on PostgreSQL over several pool connections).
 * Writes (`rollback: true`): in order, in one transaction that is rolled back, so every replay
 * meets the same rows and the same `version`.
 */
export async function replayOnce(db: Db, kind: 'pglite' | 'postgres', statements: Statement[], opts: { write: boolean }): Promise<number> {
  const list = statements.filter((s) => !TX_CONTROL.test(s.query));
  const client = (db as unknown as { $client: PgliteClient | PgPool }).$client;
  const t0 = performance.now();
  if (!opts.write) {
    const [first, ...rest] = list;
    if (first) await client.query(first.query, first.params);
    await Promise.all(rest.map((s) => client.query(s.query, s.params)));
  } else if (kind === 'pglite') {
    await (client as PgliteClient).transaction(async (tx) => {
      for (const s of list) await tx.query(s.query, s.params);
      await tx.rollback();
    });
  } else {
    const c = await (client as PgPool).connect();
    try {
      await c.query('BEGIN');
      for (const s of list) await c.query(s.query, s.params);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  }
  return performance.now() - t0;
}

/**
 * Bare-SQL latency at the same concurrency as the load test: `workers` loops, each replaying its
 * own statement list (PUT: a different ticket per worker), for at most `ms` and `maxIterations`.
 */
export async function replayUnderLoad(
  db: Db,
  kind: 'pglite' | 'postgres',
  perWorker: Statement[][],
  opts: { write: boolean; ms: number; maxIterations: number },
): Promise<{ p50: number; p99: number; perSecond: number; n: number }> {
  const samples: number[] = [];
  const start = performance.now();
  const deadline = start + opts.ms;
  let iterations = 0;
  await Promise.all(
    perWorker.map(async (statements) => {
      while (performance.now() < deadline && iterations < opts.maxIterations) {
        iterations++;
        samples.push(await replayOnce(db, kind, statements, opts));
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), perSecond: samples.length / elapsed, n: samples.length };
}
