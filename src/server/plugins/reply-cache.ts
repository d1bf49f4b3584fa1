import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress as brotliCallback, constants, gzip as gzipCallback } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The reply cache, in one place: replies kept as bytes per process (ReplyCache), and how a route
 * sends one (sendCachedReply: ETag, 304, compression). Its users: the jobs module (GET /jobs and
 * GET /jobs/{id}, whose page is rebuilt ticket by ticket in jobs/job-page-reply.ts), the
 * production module (GET /jobs/{id}/production), My Work (GET /work) and the dashboard
 * (GET /dashboard, decision 062), under the one budget app.ts gives it.
 */

const gzip = promisify(gzipCallback);
const brotli = promisify(brotliCallback);

/** The encodings a kept reply is sent in, best first. */
export type Encoding = 'br' | 'gzip';

/** One serialised reply (e.g. GET /jobs/{id}), valid while its fingerprint is unchanged. */
export interface CachedReply<S = unknown> {
  fingerprint: string;
  /** Weak: the same reply is sent plain or compressed. */
  etag: string;
  json: Buffer;
  /** Compressed on first demand, on the libuv pool (not the event loop), then kept. */
  encoded(encoding: Encoding): Promise<Buffer>;
  /** What a builder left to rebuild the next reply from (`getRebuilt`); undefined for `get`. */
  state?: S;
}

/** A reply as a builder made it: its bytes and what the next rebuild may start from. */
export interface BuiltReply<S> {
  json: Buffer;
  state: S;
}

/**
 * Serialised replies of GET /jobs/{id}, per process, bounded in bytes (least recently used go
 * first). Reading and serialising a job of thousands of tickets costs far more CPU than its
 * fingerprint (job-record.repository `jobFingerprint`), and a crew reloads the same job all day: the
 * reply is built once per change and then served as bytes. Every request still checks the
 * fingerprint against the database, so a write made through another process is seen at once.
 * The jobs list and a job's production are kept here too, under keys of their own
 * (jobs.service getJobListReply, production.service getProductionReply): one budget for all.
 */
export class ReplyCache<S = unknown> {
  private readonly entries = new Map<string, CachedReply<S>>();
  /** Builds in flight, so ten clients opening a changed job build it once. */
  private readonly building = new Map<string, Promise<CachedReply<S>>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** The reply for this fingerprint, from the cache or from `build` (then cached). */
  get(key: string, fingerprint: string, build: () => Promise<unknown>): Promise<CachedReply<S>> {
    return this.getRebuilt(key, fingerprint, async () => ({ json: Buffer.from(JSON.stringify(await build())), state: undefined as S }));
  }

  /**
   * As `get`, but a change is rebuilt from the reply kept for this key (whatever its
   * fingerprint): `build` gets that reply's bytes and state, or undefined when none is kept, so
   * it can redo only what changed (the job page: only the tickets saved since, job-page-reply.ts).
   */
  async getRebuilt(key: string, fingerprint: string, build: (previous: BuiltReply<S> | undefined) => Promise<BuiltReply<S>>): Promise<CachedReply<S>> {
    const hit = this.entries.get(key);
    if (hit && hit.fingerprint === fingerprint) {
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const flightKey = `${key}\u0000${fingerprint}`;
    let flight = this.building.get(flightKey);
    if (!flight) {
      const previous = hit && hit.state !== undefined ? { json: hit.json, state: hit.state } : undefined;
      flight = build(previous)
        .then((built) => this.store(key, fingerprint, built))
        .finally(() => this.building.delete(flightKey));
      this.building.set(flightKey, flight);
    }
    return flight;
  }

  delete(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.json.length;
  }

  /** Drops every reply whose key starts with `prefix` (a job's replies of every day). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  /** Bytes held (plain replies; compressed copies are a fraction of that). */
  get size(): number {
    return this.bytes;
  }

  private store(key: string, fingerprint: string, { json, state }: BuiltReply<S>): CachedReply<S> {
    const compressed: Partial<Record<Encoding, Promise<Buffer>>> = {};
    const compress = (encoding: Encoding) =>
      encoding === 'br'
        ? // Quality 6: a 2 MB job page in ~50 ms to ~40 % of its gzip size (11 would take seconds).
          brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })
        : gzip(json);
    const reply: CachedReply<S> = {
      fingerprint,
      etag: `W/"${createHash('sha256').update(`${key}:${fingerprint}`).digest('base64url').slice(0, 27)}"`,
      json,
      encoded: (encoding) => (compressed[encoding] ??= compress(encoding)),
      state,
    };
    // The last build stored wins: a reply of an older fingerprint is never served for a newer
    // one (every request compares), it only costs one more build.
    this.delete(key);
    if (json.length <= this.maxBytes) {
      this.entries.set(key, reply);
      this.bytes += json.length;
      for (const [oldest, entry] of this.entries) {
        if (this.bytes <= this.maxBytes) break;
        this.entries.delete(oldest);
        this.bytes -= entry.json.length;
      }
    }
    return reply;
  }
}

/** Does an If-None-Match header name this ETag (weak comparison, RFC 9110 §13.1.2)? */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * br when the client takes it (browsers do over HTTPS), else gzip, else none: an encoding
 * counts unless refused with q=0. The server's preference wins over the client's q-values,
 * which browsers do not use to rank these two.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) accepted.add(coding.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/**
 * Sends a kept reply: its ETag, 304 when the client already holds it, else the JSON compressed as
 * the client accepts. The route's response schema documents the reply; the API tests check every
 * reply against it, as Fastify does not serialise bytes.
 */
export async function sendCachedReply(request: FastifyRequest, reply: FastifyReply, cached: CachedReply): Promise<FastifyReply> {
  // no-cache: a browser may keep it but must ask again (304 when unchanged).
  reply.header('etag', cached.etag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Encoding');
  if (matchesEtag(request.headers['if-none-match'], cached.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const encoding = preferredEncoding(request.headers['accept-encoding']);
  if (!encoding) return reply.send(cached.json);
  return reply.header('content-encoding', encoding).send(await cached.encoded(encoding));
}
