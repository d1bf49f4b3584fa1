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
  /**
   * Which stage of the request sent it. Statements a route sends together (Promise.all) are all
   * sent before any of them answers; one that needs an earlier reply is sent after that reply.
   * So the stage is how many statements had answered when it was sent (or, without the client to
   * watch, the turn of the event loop it was sent in).
   */
  stage: number;
}

/**
 * Runs fn and returns what it sent to the database. Pass the database the request uses to know
 * its stages exactly: its driver's replies are counted as they arrive.
 */
export async function capture<T>(fn: () => Promise<T>, db?: Db): Promise<{ result: T; statements: Statement[] }> {
  const statements: Statement[] = [];
  const before = queryStats.onQuery;
  let answered = 0;
  const client = db ? (db as unknown as { $client: { query: (...a: unknown[]) => Promise<unknown> } }).$client : undefined;
  const query = client?.query;
  if (client && query) {
    client.query = (...a: unknown[]) => query.apply(client, a).finally(() => answered++);
  }
  // Without the client: a counter that moves once per turn of the event loop while fn runs.
  let turn = 0;
  let running = !client;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  if (running) setImmediate(tick);
  queryStats.onQuery = (q, params) => statements.push({ query: q, params: [...params], stage: client ? answered : turn });
  try {
    const result = await fn();
    return { result, statements };
  } finally {
    running = false;
    queryStats.onQuery = before;
    if (client && query) client.query = query;
  }
}

/** The statements in the stages the route sent them: each stage waits for the one before. */
export function stagesOf(statements: Statement[]): Statement[][] {
  const stages: Statement[][] = [];
  for (const s of statements) {
    const last = stages.at(-1);
    if (last && last[0].stage === s.stage) last.push(s);
    else stages.push([s]);
  }
  return stages;
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
 * One replay of `statements`. Reads: stage by stage as the route sent them (`stagesOf`): the
 * statements of a stage together, as the route's Promise.all does (on PostgreSQL over several pool
 * connections), the next stage once they all answered.
 * Writes (`rollback: true`): in order, in one transaction that is rolled back, so every replay
 * meets the same rows and the same `version`.
 */
export async function replayOnce(db: Db, kind: 'pglite' | 'postgres', statements: Statement[], opts: { write: boolean }): Promise<number> {
  const list = statements.filter((s) => !TX_CONTROL.test(s.query));
  const client = (db as unknown as { $client: PgliteClient | PgPool }).$client;
  const t0 = performance.now();
  if (!opts.write) {
    for (const stage of stagesOf(list)) await Promise.all(stage.map((s) => client.query(s.query, s.params)));
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
