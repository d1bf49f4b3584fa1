import { createHash, type Hash } from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { API_PREFIX, IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_REPLAYED_HEADER } from '../../shared/constants';
import { ERROR_CODE } from '../../shared/error-codes';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema/index';
import { holderAlive, holdProcessLock, type ProcessLock } from '../db/process-lock';
import { badRequest, conflict, unprocessable } from '../errors';
import { changesState } from './routes';

/**
 * "Replays apply once" (docs/product/field-mode.md, decision 019): every state-changing call under /api/v1 by a
 * signed-in user may carry `Idempotency-Key`. The first call with a key claims it in PostgreSQL
 * (one atomic INSERT … ON CONFLICT, so two requests or two processes cannot both apply it) and
 * its reply is stored; a repeat of the same request gets that reply again, byte for byte, and
 * applies nothing. Attached to every such route from here (one onRoute hook), never per route.
 */

export const IDEMPOTENCY_MESSAGES = {
  invalid:
    'The Idempotency-Key header must be 1 to 200 visible ASCII characters (letters, digits and punctuation, no spaces), for example a UUID.',
  reused: 'This Idempotency-Key was already used for a different request. Send a new key with each new change.',
  inProgress: 'The first request with this Idempotency-Key is still being applied. Try again in a moment.',
  notKept: 'The request with this Idempotency-Key was already applied, but its reply was too large to keep. Reload to see the result.',
} as const;

/** How long a key is remembered (docs/product/field-mode.md). Older rows are ignored, then purged. */
const KEEP_FOR = sql.raw(`interval '24 hours'`);
/**
 * A claim still running after this long is taken over whoever holds it. A claim whose process
 * died is free at once (its advisory lock is gone, db/process-lock.ts, docs/product/sessions-and-safety.md §11 "retries after
 * a crash"); the lease is the ceiling for a live process stuck on one request, and for rows
 * claimed before holders were recorded. Far above any request's duration (a workbook import
 * stops at IMPORT_TIME_LIMIT_MS, 60 s by default).
 */
const LEASE = sql.raw(`interval '10 minutes'`);
/** Replies above this are not stored (every reply of a change is a record or a few counts). */
export const REPLY_KEEP_MAX_BYTES = 1024 * 1024;
/** Expired rows are deleted at most this often per process, by the next claim. */
const PURGE_EVERY_MS = 10 * 60_000;

/** A key this request holds: its reply is stored (or the key released) when it is sent. */
interface Claim {
  userId: number;
  key: string;
  settled: boolean;
}

/** Feeds a parsed body into the hash: type-tagged and length-prefixed, object keys sorted. */
function feed(hash: Hash, value: unknown): void {
  if (value === undefined) hash.update('u');
  else if (value === null) hash.update('n');
  else if (value instanceof Uint8Array) hash.update(`b${value.length}:`).update(value);
  else if (typeof value === 'string') hash.update(`s${Buffer.byteLength(value)}:`).update(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') hash.update(`${typeof value} ${String(value)};`);
  else if (Array.isArray(value)) {
    hash.update(`a${value.length}[`);
    for (const item of value) feed(hash, item);
    hash.update(']');
  } else if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // The version a change was made on is its precondition (If-Match), not the change: a queued
    // change re-based after a stale refusal keeps its key and is still recognised (decision 037).
    const keys = Object.keys(record)
      .filter((k) => k !== 'version')
      .sort();
    hash.update(`o${keys.length}{`);
    for (const k of keys) {
      feed(hash, k);
      feed(hash, record[k]);
    }
    hash.update('}');
  } else hash.update(`?${typeof value}`);
}

/**
 * What makes two requests "the same": method, path with query as sent, and the body as parsed
 * (JSON, form or multipart; files by their bytes), less any `version` field (the record version
 * the change was made on, a precondition). Parsed rather than raw bytes because a
 * multipart body is framed by a boundary the browser picks anew on every send, and JSON's
 * spacing and key order mean nothing: a faithful resend must match.
 */
export function requestHash(request: Pick<FastifyRequest, 'method' | 'url' | 'body'>): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  feed(hash, request.body);
  return hash.digest('hex');
}

/** Deletes every key older than 24 hours. */
export async function purgeExpiredKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(sql`${idempotencyKeys.createdAt} < now() - ${KEEP_FOR}`);
}

/**
 * The reply's bytes as they go out, to store; null when it is not kept: a stream, or more than
 * REPLY_KEEP_MAX_BYTES (then a repeat is told the change was applied, 409 `reply_not_kept`).
 */
export function replyToKeep(payload: unknown): Buffer | null {
  let bytes: Buffer | null = null;
  if (payload === null || payload === undefined) bytes = Buffer.alloc(0);
  else if (typeof payload === 'string') bytes = Buffer.from(payload);
  else if (payload instanceof Uint8Array) bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  return bytes && bytes.length <= REPLY_KEEP_MAX_BYTES ? bytes : null;
}

/**
 * A reply that must not be kept: the server failed (5xx), it said "later" (408, 429) or that the
 * record moved on (409 stale version). The key
 * is released so that a retry can run. A service writes in one transaction, so a 5xx almost
 * always means nothing was applied; keeping it would refuse every retry for 24 hours.
 */
const releases = (status: number, payload: unknown) => status >= 500 || status === 408 || status === 429 || isStaleVersion(status, payload);

/**
 * A 409 stale version applied nothing and says only that the record moved on: the client re-bases
 * the change on the new version and sends it again with the same key (decision 037), which
 * must then run, not be answered with this refusal for 24 hours.
 */
function isStaleVersion(status: number, payload: unknown): boolean {
  if (status !== 409 || typeof payload !== 'string') return false;
  try {
    return (JSON.parse(payload) as { code?: unknown }).code === ERROR_CODE.staleVersion;
  } catch {
    return false;
  }
}

type Hook = (...args: never[]) => unknown;
/** Appends a route-level hook: they run after the app's and the scope's hooks of that kind. */
function appendHook(route: RouteOptions, name: 'onRequest' | 'preValidation' | 'onSend' | 'onResponse', hook: Hook) {
  const current = (route as unknown as Record<string, Hook | Hook[] | undefined>)[name];
  (route as unknown as Record<string, Hook[]>)[name] = [...(current ? [current].flat() : []), hook];
}

/**
 * Registers the hooks on every route added after it (so call it before any route): those under
 * the API prefix that need sign-in and change state. Routes open without sign-in (sign-in,
 * sign-up, password reset) ignore the header: a key belongs to a user.
 */
export function registerIdempotency(app: FastifyInstance, db: Db) {
  const keys = new WeakMap<FastifyRequest, string>();
  const claims = new WeakMap<FastifyRequest, Claim>();
  let lastPurge = 0;
  // This process's liveness lock, recorded on each claim it makes (taken when the app is ready).
  let lock: ProcessLock | undefined;
  app.addHook('onReady', async () => {
    lock = await holdProcessLock(db, (err) => app.log.error({ err }, 'idempotency: the connection holding the process lock failed'));
  });
  app.addHook('onClose', async () => {
    await lock?.release();
  });

  const table = idempotencyKeys;
  const fresh = sql`${table.createdAt} >= now() - ${KEEP_FOR}`;
  const mine = (userId: number, key: string) => and(eq(table.userId, userId), eq(table.key, key));

  /** Route-level onRequest, after sign-in: a malformed key is refused before the body is read. */
  async function readKey(request: FastifyRequest) {
    if (!changesState(request.method, request.routeOptions.config)) return;
    const value = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (value === undefined) return;
    // Node joins a repeated header with ", ", which the pattern refuses (a space).
    if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) {
      throw badRequest(IDEMPOTENCY_MESSAGES.invalid, { [IDEMPOTENCY_KEY_HEADER]: IDEMPOTENCY_MESSAGES.invalid }, ERROR_CODE.idempotencyKeyInvalid);
    }
    keys.set(request, value);
  }

  /**
   * Route-level preValidation: the body is parsed (multipart too, by its scope's hook) and not yet
   * validated. Claims the key, or answers from what the key holds.
   */
  async function claimOrReplay(request: FastifyRequest, reply: FastifyReply) {
    const key = keys.get(request);
    if (key === undefined) return;
    const userId = request.user.id;
    const hash = requestHash(request);
    if (Date.now() - lastPurge > PURGE_EVERY_MS) {
      lastPurge = Date.now();
      await purgeExpiredKeys(db).catch((err: unknown) => request.log.error({ err }, 'idempotency: purging expired keys failed'));
    }
    // A row that vanishes between the two statements (its request failed and released it) is
    // claimed on the next turn.
    for (let attempt = 0; attempt < 3; attempt++) {
      // New key, or one that expired, or one whose process died mid-request (its lock is gone,
      // or, for a row with no holder, its lease ran out): ours now. A live row is left alone
      // (the WHERE of DO UPDATE is false) and nothing is returned.
      const holder = lock?.key ?? null;
      const claimed = await db
        .insert(table)
        .values({ userId, key, requestHash: hash, state: 'running', holder })
        .onConflictDoUpdate({
          target: [table.userId, table.key],
          set: { requestHash: hash, state: 'running', statusCode: null, contentType: null, body: null, holder, createdAt: sql`now()` },
          setWhere: sql`${table.createdAt} < now() - ${KEEP_FOR} or (${table.state} = 'running' and (${table.createdAt} < now() - ${LEASE} or (${table.holder} is not null and not ${holderAlive(table.holder)})))`,
        })
        .returning({ userId: table.userId });
      if (claimed.length > 0) {
        claims.set(request, { userId, key, settled: false });
        return;
      }
      const [held] = await db.select().from(table).where(and(mine(userId, key), fresh));
      if (!held) continue;
      if (held.requestHash !== hash) throw unprocessable(IDEMPOTENCY_MESSAGES.reused, ERROR_CODE.idempotencyKeyReused);
      if (held.state === 'running') throw conflict(IDEMPOTENCY_MESSAGES.inProgress, ERROR_CODE.idempotencyInProgress);
      if (held.body === null || held.statusCode === null) throw conflict(IDEMPOTENCY_MESSAGES.notKept, ERROR_CODE.idempotencyReplyNotKept);
      reply.code(held.statusCode).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
      if (held.contentType) reply.header('content-type', held.contentType);
      // A Buffer goes out as it is: no serializer, the same bytes as the first time.
      return reply.send(held.body);
    }
    throw conflict(IDEMPOTENCY_MESSAGES.inProgress, ERROR_CODE.idempotencyInProgress);
  }

  async function release(claim: Claim) {
    await db.delete(table).where(and(mine(claim.userId, claim.key), eq(table.state, 'running')));
  }

  /** Route-level onSend, the last one: what it stores is what the client receives. */
  async function keepReply(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
    const claim = claims.get(request);
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const status = reply.statusCode;
    try {
      if (releases(status, payload)) {
        await release(claim);
      } else {
        const contentType = reply.getHeader('content-type');
        await db
          .update(table)
          .set({
            state: 'done',
            statusCode: status,
            contentType: contentType === undefined ? null : String(contentType),
            body: replyToKeep(payload),
          })
          .where(and(mine(claim.userId, claim.key), eq(table.state, 'running')));
      }
    } catch (err) {
      // The reply still goes out; the row stays running until its lease ends (then a repeat runs).
      request.log.error({ err }, 'idempotency: the reply could not be stored');
    }
    return payload;
  }

  /** Safety net: a claimed request whose reply never passed onSend must not hold its key. */
  async function releaseUnsettled(request: FastifyRequest) {
    const claim = claims.get(request);
    if (!claim || claim.settled) return;
    claim.settled = true;
    await release(claim).catch((err: unknown) => request.log.error({ err }, 'idempotency: releasing a key failed'));
  }

  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((method) => takesIdempotencyKey(method, route.url, route.config))) return;
    appendHook(route, 'onRequest', readKey);
    appendHook(route, 'preValidation', claimOrReplay);
    appendHook(route, 'onSend', keepReply);
    appendHook(route, 'onResponse', releaseUnsettled);
  });
}

/** Whether a route takes an `Idempotency-Key`: a change under /api/v1 by a signed-in caller (also what the OpenAPI document says). */
export function takesIdempotencyKey(method: string, url: string, config: FastifyContextConfig | undefined): boolean {
  return url.startsWith(`${API_PREFIX}/`) && !config?.public && !config?.secretReply && changesState(method, config);
}
