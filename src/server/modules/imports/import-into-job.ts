import { recordImport } from '../history/history.service';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { jobFingerprint, lockJob } from '../job-record/job-record.service';
import * as stagedRepo from './staged-import.repository';
import { groupDrafts, poleKey } from './drafts';
import { findJobTickets, findPoles, planDrafts } from './plan';
import { reimportTickets } from './reimport';
import { writeStagedImport } from './staged-write';
import { StalePreviewError, type ImportBatch, type ImportCounts, type ImportMode, type ImportOptions, type ImportScope, type ImportTicket, type ImportUnit, type ReimportResult } from './types';

/** New tickets from which an import into an existing job is staged: below, its one transaction is short anyway. */
export const STAGE_INTO_JOB_FROM = 250;

export interface IntoJobOptions extends Omit<ImportOptions, 'mode'> {
  /** A preview writes nothing: reimportTickets in a read transaction is all it needs. */
  mode?: Exclude<ImportMode, 'preview'>;
  /** Run first in the transaction that writes, once the job is locked: the job save's update. */
  prepare?: (tx: DbOrTx) => Promise<unknown>;
  /** STAGE_INTO_JOB_FROM unless told (tests take each way with the same drafts). */
  stageFrom?: number;
}

/**
 * An import into an existing job (POST /tickets/xls-upload, PUT /jobs/ with an id), all or
 * nothing (decision 032). Written whole in one transaction, it held PGlite's one connection for
 * about a second at 10,000 rows. When it creates STAGE_INTO_JOB_FROM tickets or more, those are
 * written first, as a new job's import is (writeStagedImport), under a hidden staging job; then one
 * short transaction locks the job, checks by its fingerprint that nothing changed since the plan,
 * runs `prepare`, moves the staged tickets in and writes the rest (rows merging into the job's
 * tickets, quantities). A job changed meanwhile (another import, a crew's edit) makes the staged
 * rows go and the import run whole in one transaction, planned again; so does any failure leave nothing.
 */
export async function importIntoJob(
  db: Db,
  scope: ImportScope,
  drafts: readonly ImportTicket[],
  libraryDrafts: readonly ImportUnit[],
  options: IntoJobOptions = {},
  log?: (err: unknown) => void,
): Promise<ReimportResult> {
  const { prepare, stageFrom = STAGE_INTO_JOB_FROM, ...importOptions } = options;
  const whole = () =>
    db.transaction(async (tx) => {
      // One import of a job at a time: a second one waits here and then plans against what the
      // first wrote, so two imports at once cannot both add the same task.
      await lockJob(tx, scope.companyId, scope.jobId);
      await prepare?.(tx);
      return reimportTickets(tx, scope, drafts, libraryDrafts, importOptions);
    });
  // Fewer drafts than that cannot make that many tickets: no look-up at all (most imports).
  if (drafts.length < stageFrom) return whole();

  // The fingerprint first: a write landing after it, before the plan, still shows as a change.
  const before = await jobFingerprint(db, scope.companyId, scope.jobId);
  const staging = before === null ? null : await stagingPlan(db, scope, drafts, libraryDrafts, stageFrom);
  if (!staging) return whole();
  const { isNewGroup, planned } = staging;
  if (importOptions.expectedToken !== undefined && importOptions.expectedToken !== planned.plan.token) throw new StalePreviewError(planned.plan);
  const isNew = (d: ImportTicket) => isNewGroup(poleKey(d.pole.pole_name, d.pole.line_name));
  const fresh = drafts.filter(isNew);
  const stagingId = await stagedRepo.insertStagingJob(db, scope.companyId, scope.jobId);
  if (stagingId === null) return whole();

  const batches: ImportBatch[] = [];
  for (let i = 0; i < fresh.length; i += STAGED_BATCH) batches.push({ tickets: fresh.slice(i, i + STAGED_BATCH), library: i === 0 ? libraryDrafts : undefined });
  const merging = drafts.filter((d) => !isNew(d));
  let rest: ReimportResult | undefined;
  try {
    const counts = await writeStagedImport(db, { ...scope, jobId: stagingId }, batches, async (tx) => {
      await lockJob(tx, scope.companyId, scope.jobId);
      if ((await jobFingerprint(tx, scope.companyId, scope.jobId))?.fingerprint !== before?.fingerprint) throw new JobChanged();
      await prepare?.(tx);
      // History: one entry per staged ticket, filed under the job they move into (docs/product/records.md §1).
      await recordImport(tx, scope, { fromJobId: stagingId });
      await stagedRepo.moveStagedTickets(tx, scope.companyId, stagingId, scope.jobId);
      // The library was written with the staged rows (its new units are the job's now).
      if (merging.length) rest = await reimportTickets(tx, scope, merging, [], { mode: importOptions.mode });
    });
    if (rest) for (const k of Object.keys(counts) as (keyof ImportCounts)[]) counts[k] += rest.counts[k];
    return { counts, updated: rest?.updated ?? 0, plan: planned.plan };
  } catch (err) {
    await stagedRepo.discardStagedImport(db, scope.companyId, stagingId).catch((e: unknown) => log?.(e));
    if (err instanceof JobChanged) return whole();
    throw err;
  }
}

/**
 * Whether an import into a job is staged: null when it creates fewer than `stageFrom` tickets
 * (two cheap look-ups tell), else its plan and which pole keys are new to the job. A refused row
 * gives null too: the import in one transaction answers it, after the job save's own checks.
 */
async function stagingPlan(db: Db, scope: ImportScope, drafts: readonly ImportTicket[], libraryDrafts: readonly ImportUnit[], stageFrom: number) {
  try {
    const groups = await groupDrafts(drafts);
    const poleIds = await findPoles(db, scope, groups);
    const ticketOfPole = await findJobTickets(db, scope, poleIds);
    const isNewGroup = (k: string) => !poleIds.has(k) || !ticketOfPole.has(poleIds.get(k)!);
    if ([...groups.keys()].filter(isNewGroup).length < stageFrom) return null;
    return { isNewGroup, planned: (await planDrafts(db, scope, drafts, libraryDrafts)).planned };
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** Tickets per batch of a staged import into a job: each batch's statements stay short (as the workbook worker's messages). */
const STAGED_BATCH = 250;

/** The job changed between an import's plan and its publication: the import runs again, whole. */
class JobChanged extends Error {}
