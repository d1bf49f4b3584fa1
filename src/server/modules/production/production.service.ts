import Big from 'big.js';
import { TICKET_STATUS } from '../../../shared/constants';
import { isEvidenced } from '../../../shared/evidence';
import { money } from '../../../shared/money';
import { computeProduction, type ProductionTask } from '../../../shared/production';
import type { ProductionForeman, ProductionReply } from '../../../shared/production.schemas';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import type { CachedReply, ReplyCache } from '../../plugins/reply-cache';
import { evidencePhotosRequired } from '../auth/auth.service';
import { findJob } from '../job-record/job-record.service';
import * as repo from './production.repository';

/** Production of a job (docs/product/billing.md): every figure comes from computeProduction. */

export const UNASSIGNED_FOREMAN = 'Unassigned';

/** Each job's "% Complete" for the jobs list, by job id (production.repository selectJobPercents: one statement). */
export const jobPercents = repo.selectJobPercents;
/** The same rule as a sub-select (job_id, percent): the paged jobs list sorts by it. */
export const jobPercentsSql = repo.jobPercentsSql;

/**
 * GET /jobs/{id}/production as serialised bytes: reading and summing every task of a 5,000-ticket
 * job costs far more than its fingerprint, and the office reopens the same job all day.
 * Fingerprint FIRST, as jobs.service getJobReply, so a stored reply is never older than its key.
 */
export async function getProductionReply(ctx: AppContext, me: CurrentUser, jobId: number, cache: ReplyCache): Promise<CachedReply> {
  const key = `production:${me.companyId}:${jobId}`;
  const fingerprint = await repo.productionFingerprint(ctx.db, me.companyId, jobId);
  if (fingerprint === null) {
    cache.delete(key);
    throw notFound('job');
  }
  return cache.get(key, fingerprint, () => jobProduction(ctx, me, jobId));
}

/** The production of a job: a few statements whatever its size, its tasks' sums read as kept (decision 059). */
async function jobProduction(ctx: AppContext, me: CurrentUser, jobId: number): Promise<ProductionReply> {
  const [job, rows, billed, complete, required] = await Promise.all([
    findJob(ctx.db, me.companyId, jobId),
    repo.selectProductionFigures(ctx.db, me.companyId, jobId),
    repo.billedAmountOfJob(ctx.db, me.companyId, jobId),
    repo.selectCompleteTicketEvidence(ctx.db, me.companyId, jobId),
    evidencePhotosRequired(ctx.db, me.companyId),
  ]);
  if (!job) throw notFound('job');

  // Each kept group as one task of its summed quantities: computeProduction adds them up exactly.
  const tasks: (ProductionTask & { foreman_id: number | null; foreman_name: string | null })[] = rows.map((r) => ({
    code: r.code,
    description: r.description,
    uom: r.uom,
    // PGlite reads a numeric as a number, node-postgres as text: "12.50" either way.
    unit_price: r.unit_price == null ? null : money(r.unit_price),
    init_qty: Number(r.bid_qty),
    additional_qty: Number(new Big(r.actual_qty).minus(r.bid_qty).toString()),
    complete: r.complete,
    billed: r.billed,
    foreman_id: r.foreman_id == null ? null : Number(r.foreman_id),
    foreman_name: r.foreman_name,
  }));
  const { units, totals } = computeProduction(tasks, billed);
  const { actual_amount: _whole, ...jobTotals } = totals;
  // The evidenced rule (docs/product/records.md §8), once, from src/shared/evidence.ts.
  const missing = new Map<number | null, number>();
  for (const t of complete) if (!isEvidenced({ status: TICKET_STATUS.COMPLETE, evidence_photo_count: t.evidence_photo_count }, required)) missing.set(t.foreman_id, (missing.get(t.foreman_id) ?? 0) + 1);
  const notEvidenced = [...missing.values()].reduce((a, b) => a + b, 0);
  return {
    units,
    totals: jobTotals,
    by_foreman: byForeman(tasks).map((f) => ({ ...f, not_evidenced: missing.get(f.foreman_id) ?? 0 })),
    evidence: { complete: complete.length, evidenced: complete.length - notEvidenced, not_evidenced: notEvidenced, photos_required: required },
  };
}

/**
 * Per-foreman totals: the job's tasks grouped by the foreman their ticket counts for (the
 * ticket's working foreman, else the job's foreman: decision 024), each group through
 * computeProduction, so a foreman's percentage follows the same rule as the job's (by amount
 * when a unit of the group has a price, else by quantity). Sorted by name, Unassigned last.
 */
function byForeman(tasks: readonly (ProductionTask & { foreman_id: number | null; foreman_name: string | null })[]): Omit<ProductionForeman, 'not_evidenced'>[] {
  const groups = new Map<number | null, { name: string; tasks: ProductionTask[] }>();
  for (const task of tasks) {
    let group = groups.get(task.foreman_id);
    if (!group) groups.set(task.foreman_id, (group = { name: task.foreman_name || UNASSIGNED_FOREMAN, tasks: [] }));
    group.tasks.push(task);
  }
  return [...groups]
    .map(([foremanId, group]): Omit<ProductionForeman, 'not_evidenced'> => {
      const { totals } = computeProduction(group.tasks);
      return {
        foreman_id: foremanId,
        name: group.name,
        actual_amount: totals.actual_amount,
        completed_amount: totals.completed_amount,
        remaining_amount: totals.remaining_amount,
        percent_complete: totals.percent_complete,
      };
    })
    .sort((a, b) => (a.foreman_id == null ? 1 : 0) - (b.foreman_id == null ? 1 : 0) || a.name.localeCompare(b.name) || (a.foreman_id ?? 0) - (b.foreman_id ?? 0));
}
