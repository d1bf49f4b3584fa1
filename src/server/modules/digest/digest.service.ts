import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { addDays } from '../../../shared/dashboard';
import type { AppContext } from '../../context';
import * as repo from './digest.repository';
import { DIGEST_HORIZON_DAYS, digestClock, digestMail, digestsFor } from './digest';

/** A claim whose process stopped before it finished is taken over after this long. */
export const DIGEST_LEASE_MS = 15 * 60_000;

/** What one pass did, per company it claimed: for the log and the tests. */
export interface DigestPass {
  companyId: number;
  day: string;
  /** Users mailed in this pass. */
  sentTo: number[];
}

export interface DigestOptions {
  /** The clock: tests pass their own. */
  now?: () => Date;
  /** Who claims (host:pid:random by default). */
  holder?: string;
  log?: (msg: string, err?: unknown) => void;
}

const defaultHolder = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/**
 * One pass of the scheduler (docs/product/records.md §3 "daily digest", decision 046): every company whose
 * clock is at or past 06:00 and whose digest of today has not been claimed is claimed by this
 * process (digest_runs) and its digests are mailed, one per recipient, each recorded as sent
 * right after it went. A company with nothing to report is claimed too, and nobody is mailed.
 * Companies are independent: one whose mail fails is left claimed but not done, and the pass
 * goes on; the claim is taken over after DIGEST_LEASE_MS by whichever process passes then.
 */
export async function runDueDigests(ctx: AppContext, opts: DigestOptions = {}): Promise<DigestPass[]> {
  const now = opts.now?.() ?? new Date();
  const holder = opts.holder ?? defaultHolder;
  const passes: DigestPass[] = [];
  for (const company of await repo.listCompanies(ctx.db)) {
    const { day, due } = digestClock(now, company.time_zone);
    if (!due) continue;
    const alreadySent = await repo.claimDigest(ctx.db, company.id, day, now, new Date(now.getTime() - DIGEST_LEASE_MS), holder);
    if (!alreadySent) continue;
    const pass: DigestPass = { companyId: company.id, day, sentTo: [] };
    passes.push(pass);
    try {
      const [rows, people] = await Promise.all([
        repo.digestRows(ctx.db, company.id, day, addDays(day, DIGEST_HORIZON_DAYS)),
        repo.digestPeople(ctx.db, company.id),
      ]);
      for (const { person, lists } of digestsFor(people, rows, day)) {
        if (alreadySent.includes(person.id)) continue;
        await ctx.mail.send({ to: person.email, ...digestMail(company.name, day, person, lists, ctx.config.publicUrl) });
        await repo.markSentTo(ctx.db, company.id, day, person.id);
        pass.sentTo.push(person.id);
      }
      await repo.markDone(ctx.db, company.id, day, opts.now?.() ?? new Date());
    } catch (err) {
      opts.log?.(`The daily digest of company ${company.id} for ${day} stopped; another pass takes it over after ${DIGEST_LEASE_MS / 60_000} minutes`, err);
    }
  }
  return passes;
}

/**
 * Runs a pass now and then every `everyMs` (a minute by default) until stopped. One pass at a
 * time per process: a slow SMTP server never stacks passes. Returns stop(), which waits for the
 * pass under way.
 */
export function startDigestScheduler(ctx: AppContext, opts: DigestOptions & { everyMs?: number } = {}): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    // Skips a minute rather than queueing behind a pass still under way.
    if (running) return;
    running = runDueDigests(ctx, opts)
      .catch((err) => opts.log?.('The daily digest pass failed', err))
      .finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, opts.everyMs ?? 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
