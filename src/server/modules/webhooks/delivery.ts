import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Db } from '../../db/client';
import { parseEndpointUrl, pinnedLookup, resolveEndpoint } from './endpoint-address';
import * as repo from './webhooks.repository';

/**
 * Sending webhooks (docs/product/integrations.md §4, decision 050): Standard Webhooks signatures,
 * a 10 s limit per try, retries with backoff for 24 h until a 2xx, the same `webhook-id` on every
 * try, and one worker loop per app process claiming from the outbox.
 */

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks: 24–64 bytes). */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * `webhook-signature` of Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`
 * keyed with the base64-decoded part of the secret after `whsec_`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/**
 * Wait before each retry after a failed try: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then the rest of
 * 24 h (6 h 24 min 55 s). 8 tries in all, the last 24 h after the first.
 */
const FIRST_RETRIES = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
export const RETRY_DELAYS_MS: readonly number[] = [...FIRST_RETRIES, 24 * HOUR - FIRST_RETRIES.reduce((a, b) => a + b, 0)];

export interface DeliveryOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: http:// and private addresses allowed (tests). */
  allowPrivate: boolean;
  /** A try's time limit (10 s). */
  timeoutMs?: number;
  /** Waits before each retry; tests give zeros. */
  retryDelaysMs?: readonly number[];
  /** Seconds since the epoch for `webhook-timestamp` (tests may fix it). */
  now?: () => number;
  /** How many deliveries one round claims. */
  batch?: number;
}

const TIMEOUT_MS = 10 * SECOND;
/** What we read of a reply: nothing of it is kept but its status. */
const MAX_REPLY_BYTES = 64 * 1024;

/** One POST of a claimed delivery; never throws: a failure is its outcome. */
async function post(d: repo.ClaimedDelivery, opts: DeliveryOptions): Promise<repo.TryOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null): repo.TryOutcome => ({
    statusCode,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  let target;
  try {
    // Checked again at every try: the name may resolve elsewhere than when it was saved.
    target = await resolveEndpoint(parseEndpointUrl(d.url, opts.allowPrivate), opts.allowPrivate);
  } catch (err) {
    return done(null, err instanceof Error ? err.message : String(err));
  }
  const timestamp = Math.floor((opts.now?.() ?? Date.now()) / 1000);
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  return new Promise((resolve) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const req = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinnedLookup(target) as never,
        // A fresh connection per try: a pooled socket would skip the lookup just checked.
        agent: false,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Linecrew-Webhooks/1',
          'webhook-id': d.event_id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signature(d.secret, d.event_id, timestamp, d.body),
        },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_REPLY_BYTES) res.destroy();
        });
        const finish = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          resolve(done(status, ok ? null : `HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`));
        };
        res.on('end', finish);
        res.on('close', finish);
        // A reply cut off midway: 'close' settles the try; unheard, the error would end the process.
        res.on('error', () => {});
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const timedOut = err.name === 'AbortError' || err.name === 'TimeoutError';
      resolve(done(null, timedOut ? `No reply within ${timeoutMs / 1000} s` : `${err.code ?? err.name}: ${err.message}`));
    });
    req.end(d.body);
  });
}

/** One round: claims what is due, sends each, records the tries. The number claimed. */
export async function deliverDue(db: Db, opts: DeliveryOptions): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? TIMEOUT_MS;
  const delays = opts.retryDelaysMs ?? RETRY_DELAYS_MS;
  // The lease outlasts a try (its DNS lookup and the 10 s) by far: no other process takes it meanwhile.
  const claimed = await repo.claimDue(db, opts.batch ?? 20, timeoutMs * 3 + 30 * SECOND);
  await Promise.all(
    claimed.map(async (d) => {
      const outcome = await post(d, opts);
      const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
      const next = ok ? 'delivered' : d.attempts > delays.length ? 'failed' : { retryInMs: delays[d.attempts - 1] };
      await repo.recordTry(db, d, outcome, next);
    }),
  );
  return claimed.length;
}

export interface WebhookWorker {
  /** Stops the loop and waits for the round in progress. */
  stop(): Promise<void>;
}

/**
 * The loop of one app process: a round every `pollMs` (right away again while rounds find work).
 * Every process may run one: the claim makes each try one process's. Errors (the database
 * briefly away) are logged and the loop goes on.
 */
export function startWebhookWorker(db: Db, opts: DeliveryOptions & { pollMs?: number; log?: (err: unknown) => void }): WebhookWorker {
  const pollMs = opts.pollMs ?? 2 * SECOND;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let rounds = 0;
  const round = async () => {
    let claimed = 0;
    try {
      claimed = await deliverDue(db, opts);
      // Now and then, deliveries nothing shows any more go.
      if (++rounds % 100 === 0) await repo.pruneDeliveries(db);
    } catch (err) {
      opts.log?.(err);
    }
    if (!stopped) timer = setTimeout(tick, claimed > 0 ? 0 : pollMs);
  };
  const tick = () => {
    running = round();
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
