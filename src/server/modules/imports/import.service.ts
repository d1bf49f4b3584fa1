import { createHash } from 'node:crypto';
import { toIsoDate } from '../../../shared/dates';
import type { PoleDraft, TaskDraft, TicketDraft, UnitDraft } from '../../../shared/excel';
import { mergeContinued } from '../excel/convert';
import { LIMITS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { ChangedQuantity } from '../../../shared/reimport';
import type { Db, DbOrTx } from '../../db/client';
import { ERROR_CODE } from '../../../shared/error-codes';
import { AppError, badRequest } from '../../errors';
import * as repo from './import.repository';
import * as stagedRepo from './staged-import.repository';
import { jobFingerprint, lockJob } from '../jobs/jobs.repository';

/**
 * Ticket import (DESIGN §4 Excel workbook, Atomicity): ticket drafts (from a workbook through
 * the Excel converter, or `job.newTickets`) and unit-library drafts become unit-library rows,
 * poles, tickets, tasks and work orders, with multi-row statements in chunks, so that 10,000
 * rows take a few dozen statements instead of tens of thousands.
 *
 * Run it inside the caller's transaction, staged for a new job (importTicketsStaged), or into an
 * existing job through importIntoJob (staged when it creates many tickets): every problem is
 * found before the first write and answered with a 400 naming the row; a database failure rolls
 * the whole save back (staged: removes what was written).
 *
 * The server keeps answering other requests meanwhile: no step holds the event loop
 * for long. Lists travel as ONE JSON parameter (drizzle's query builder takes tens of
 * milliseconds for a statement with thousands of parameters), and the loops over every row give
 * the event loop back every few hundred drafts.
 *
 * Used by PUT /jobs/ (job creation with newTickets / ticketsFile) and POST /tickets/xls-upload.
 */

export interface ImportScope {
  companyId: number;
  jobId: number;
  /** The job's utility: unit library rows and poles are looked up and created for it. */
  utilityId: number;
  /** Who imports (kept for audit; no column records it yet). */
  userId: number;
}

/** A task of a draft: the converter's TaskDraft, optionally with an actual change. */
export type ImportTask = Omit<TaskDraft, 'row' | 'description'> & { row?: number; description?: string; additional_qty?: number };

/** The pole of a draft: the converter's PoleDraft, plus the pole fields only newTickets carries. */
export type ImportPole = PoleDraft & {
  utility_spec?: string | null;
  sub_curcuit?: string | null;
  sap_curcuit?: string | null;
};

/** A ticket draft: the Excel converter's TicketDraft is one; newTickets are converted to it. */
export interface ImportTicket extends Omit<TicketDraft, 'key' | 'tasks' | 'pole' | 'row'> {
  /** Grouping key; derived from pole + line when absent. */
  key?: string;
  /** Excel row of its first row. */
  row?: number;
  /** How messages name the draft ('Row 12', 'Ticket 3'); default `Row ${row}`. */
  label?: string;
  pole: ImportPole;
  description?: string | null;
  ambulance_meetup?: string | null;
  tasks: ImportTask[];
}

export type ImportUnit = Omit<UnitDraft, 'row'> & { row?: number };

export interface ImportCounts {
  /** Tickets created (drafts merged into a ticket already in the job are not counted). */
  tickets: number;
  /** Tasks created. */
  tasks: number;
  workOrders: number;
  /** Unit-library rows inserted or updated. */
  units: number;
  /** Poles created. */
  poles: number;
}

/**
 * What an import does to a job that may already have some of its tickets (decision 018).
 * A draft row is MATCHED when its pole + line is already ticketed in the job and
 * that ticket already has a task of the row's unit (code, case-insensitive): a matched row never
 * creates a task. The file's quantity of a matched (ticket, unit) is the sum of its rows, the
 * job's the sum of the ticket's tasks of that unit (more than one only after the old duplicating
 * import); they are 'changed' when they differ, else the rows are 'unchanged'.
 */
export interface ImportPlan {
  newTickets: number;
  newTasks: number;
  changed: ChangedQuantity[];
  unchanged: number;
  /** Hex SHA-256 of everything the plan was computed from: the drafts and the matched records. */
  token: string;
}

/**
 * - `add_new`: create what is new; matched rows change nothing (what every caller got before
 *   this option existed, minus the duplicated tasks).
 * - `update_quantities`: that, and each changed (ticket, unit) gets the file's bid quantity.
 * - `preview`: compute the plan, write nothing.
 */
export type ImportMode = 'preview' | 'add_new' | 'update_quantities';

export interface ImportOptions {
  mode?: ImportMode;
  /** A preview's token: the import is refused (StalePreviewError) when the plan differs now. */
  expectedToken?: string;
}

/** 409: the job changed between the preview and the import; carries the plan as it is now. */
export class StalePreviewError extends AppError {
  constructor(readonly plan: ImportPlan) {
    super(409, MSG.reimportStale);
  }
}

/** Quantities are compared to a millionth: sums of decimals are not exact in binary. */
const sameQty = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const byKey = <V>([a]: [string, V], [b]: [string, V]) => (a < b ? -1 : a > b ? 1 : 0);

/** Drafts (or groups) handled between two breaths: a few milliseconds of work. */
const BREATHE_EVERY = 250;

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();
const poleKey = (pole: string, line: string) => `${norm(pole)}\u0000${norm(line)}`;
const blankToNull = (s: string | null | undefined) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

type GroupTask = ImportTask & { where: string };

/** The drafts of one pole + line: they become one ticket. */
interface Group {
  label: string;
  first: ImportTicket;
  poleName: string;
  lineName: string;
  workOrders: string[];
  tasks: GroupTask[];
  /** A staged import's group already written: its ticket, and how much of it is written. */
  written?: { ticketId: number; poleId: number; ownPole: boolean; workOrders: number; tasks: number; fields: string };
}

export interface ReimportResult {
  counts: ImportCounts;
  /** Matched (ticket, unit) pairs whose bid quantity was set to the file's (update_quantities). */
  updated: number;
  plan: ImportPlan;
}

/** The import of job saves: new rows only (mode add_new), the counts of what was created. */
export async function importTickets(
  tx: DbOrTx,
  scope: ImportScope,
  drafts: readonly ImportTicket[],
  libraryDrafts: readonly ImportUnit[] = [],
): Promise<ImportCounts> {
  return (await reimportTickets(tx, scope, drafts, libraryDrafts)).counts;
}

/** The import with its plan: a preview (no writes), add_new, or update_quantities. */
export async function reimportTickets(
  tx: DbOrTx,
  scope: ImportScope,
  drafts: readonly ImportTicket[],
  libraryDrafts: readonly ImportUnit[] = [],
  options: ImportOptions = {},
): Promise<ReimportResult> {
  const mode = options.mode ?? 'add_new';
  const counts: ImportCounts = { tickets: 0, tasks: 0, workOrders: 0, units: 0, poles: 0 };
  const { groups, library, poleIds, ticketOfPole, planned } = await planDrafts(tx, scope, drafts, libraryDrafts);
  const { plan } = planned;
  if (mode === 'preview') return { counts, updated: 0, plan };
  if (options.expectedToken !== undefined && options.expectedToken !== plan.token) throw new StalePreviewError(plan);
  if (mode === 'update_quantities') {
    // A bid below the change already recorded would make the total negative: refuse, name the row.
    for (const u of planned.qtyUpdates) if (u.initQty + u.additionalQty < 0) throw badRequest(MSG.reimportBelowChange(u.where));
  }

  // A billed ticket's tasks are locked until unlocked (DESIGN §7.3): rows adding tasks to one, or
  // changing its quantities, refuse the whole import, naming the poles.
  const receiving = new Set<number>(planned.qtyUpdates.map((u) => u.ticketId));
  for (const k of planned.mergedKeys) if (planned.tasksToCreate.has(k)) receiving.add(ticketOfPole.get(poleIds.get(k)!)!);
  if (receiving.size) {
    const locked = await repo.billedLockedTickets(tx, scope, [...receiving]);
    if (locked.length) {
      const names = locked.slice(0, 8).map((t) => `${t.pole ?? `ticket ${t.id}`}${t.line ? ` / ${t.line}` : ''} (${t.invoice ?? 'billed'})`);
      throw new AppError(409, MSG.importBilledTickets(names.join(', ') + (locked.length > 8 ? ` and ${locked.length - 8} more` : '')), undefined, ERROR_CODE.ticketBilled);
    }
  }

  // 7. Write: the library rows, the missing poles, the missing tickets, then work orders and tasks.
  const unitIds = await writeLibrary(tx, scope, library, counts);
  await writePoles(tx, scope, groups, poleIds, counts);
  await writeTickets(tx, scope, groups, planned.mergedKeys, poleIds, ticketOfPole, counts);
  const touched = await writeWorkOrdersAndTasks(tx, scope, groups, planned, (k) => ticketOfPole.get(poleIds.get(k)!)!, (code) => unitIds.get(library.code(code)!)!, counts);
  let updated = 0;
  if (mode === 'update_quantities') {
    await repo.setBidQuantities(tx, scope, planned.qtyUpdates);
    updated = plan.changed.length;
    for (const u of planned.qtyUpdates) touched.add(u.ticketId);
  }
  // A ticket window opened before the import must not save its old tasks over the new ones.
  await repo.bumpTicketVersions(tx, scope, [...touched]);
  return { counts, updated, plan };
}

/** Steps 1 to 6 of an import: its drafts checked and grouped, its poles and the job's tickets found, its plan. */
async function planDrafts(tx: DbOrTx, scope: ImportScope, drafts: readonly ImportTicket[], libraryDrafts: readonly ImportUnit[]) {
  const groups = await groupDrafts(drafts);
  const library = await checkLibrary(tx, scope, libraryDrafts, groups);
  const poleIds = await findPoles(tx, scope, groups);
  const ticketOfPole = await findJobTickets(tx, scope, poleIds);
  const planned = await planImport(tx, scope, groups, library.code, poleIds, ticketOfPole);
  return { groups, library, poleIds, ticketOfPole, planned };
}

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
      if ((await jobFingerprint(tx, scope.companyId, scope.jobId)) !== before) throw new JobChanged();
      await prepare?.(tx);
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

/** Drafts of a staged import as they come: the library with the first batch (ImportBatch of the workbook worker). */
export interface ImportBatch {
  tickets: readonly ImportTicket[];
  library?: readonly ImportUnit[];
  /** Everything sent before is void: the drafts start over (the workbook is read again). */
  restart?: boolean;
}

/**
 * The import of a new job created with `import_pending` (decision 027), written batch by batch as
 * the drafts come (a workbook's while the worker still reads it), in short statements, and
 * published in one short transaction. On any failure what it wrote is removed (a stopped
 * process's leftovers go at the next start: discardAbandonedImports), so a failed import leaves
 * nothing, and no reader sees part of one meanwhile.
 */
export async function importTicketsStaged(
  db: Db,
  scope: ImportScope,
  batches: AsyncIterable<ImportBatch> | Iterable<ImportBatch>,
  log?: (err: unknown) => void,
): Promise<ImportCounts> {
  const publish = async (tx: DbOrTx) => {
    if (!(await stagedRepo.publishStagedJob(tx, scope.companyId, scope.jobId))) throw new Error(`job ${scope.jobId}: its staged import is gone`);
  };
  try {
    return await writeStagedImport(db, scope, batches, publish);
  } catch (err) {
    // The client gets the import's own error; a failed clean-up is retried at the next start.
    await stagedRepo.discardStagedImport(db, scope.companyId, scope.jobId).catch((e: unknown) => log?.(e));
    throw err;
  }
}

/**
 * importTicketsStaged without the clean-up: each batch checked, then written (its new poles and
 * tickets, fields a continuation filled, the work orders and tasks it adds); then the library's
 * fields and `publish` in one transaction. A refused draft answers what the import of all the
 * drafts at once would: the source's own error first (the worker's 422 naming rows), else the
 * first problem of all the drafts, checked in the order reimportTickets checks them.
 */
export async function writeStagedImport(
  db: Db,
  scope: ImportScope,
  batches: AsyncIterable<ImportBatch> | Iterable<ImportBatch>,
  publish: (tx: DbOrTx) => Promise<void>,
): Promise<ImportCounts> {
  const source = (async function* () {
    yield* batches;
  })();
  let run = new StagedRun(db, scope);
  try {
    for (;;) {
      const next = await source.next();
      if (next.done) break;
      if (next.value.restart) {
        await stagedRepo.clearStagedRows(db, scope.companyId, scope.jobId);
        run = new StagedRun(db, scope);
      }
      try {
        await run.write(next.value);
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 400) throw await run.refusal(err, source);
        throw err;
      }
    }
    return await run.publish(publish);
  } finally {
    await source.return(undefined);
  }
}

/** The state of one staged import between its batches. */
class StagedRun {
  private readonly counts: ImportCounts = { tickets: 0, tasks: 0, workOrders: 0, units: 0, poles: 0 };
  private readonly groups = new Map<string, Group>();
  /** Every draft as the whole import would see it (continuations merged in), for `refusal`. */
  private readonly drafts: ImportTicket[] = [];
  private readonly libraryDrafts: ImportUnit[] = [];
  /** A workbook ticket's draft by its key: where its continuations go. */
  private readonly byKey = new Map<string, ImportTicket>();
  private readonly poleIds = new Map<string, number>();
  private library?: { checked: Library; unitIds: Map<string, number> };

  constructor(
    private readonly db: Db,
    private readonly scope: ImportScope,
  ) {}

  async write(batch: ImportBatch): Promise<void> {
    if (!this.library) {
      this.libraryDrafts.push(...(batch.library ?? []));
      const checked = await libraryOf(this.db, this.scope, this.libraryDrafts);
      this.library = { checked, unitIds: await stageNewUnits(this.db, this.scope, checked) };
    }
    const { checked, unitIds } = this.library;
    // Every draft is recorded first (continuations merged into what they continue), so that a
    // refusal checks all of them, this batch's included.
    const first = this.drafts.length;
    for (const d of batch.tickets) this.record(d);
    const fresh = new Map<string, Group>();
    const touched = new Set<Group>();
    const filled: Group[] = [];
    let index = first;
    for (const [i, d] of batch.tickets.entries()) {
      if (i % BREATHE_EVERY === BREATHE_EVERY - 1) await repo.breathe();
      if (d.continued) {
        const draft = this.byKey.get(d.key!)!;
        const g = this.groups.get(poleKey(draft.pole.pole_name, draft.pole.line_name))!;
        addParts(g, d);
        // A later row filled a blank field of a ticket (or of the pole it created) already written.
        if (g.written && g.first === draft && fieldsOf(g) !== g.written.fields) filled.push(g);
        touched.add(g);
        continue;
      }
      const { group, created } = addDraft(this.groups, d, index++);
      if (created) fresh.set(poleKey(group.poleName, group.lineName), group);
      touched.add(group);
    }
    for (const g of touched) checkUnits(checked, g.tasks.slice(g.written?.tasks ?? 0));

    const { db, scope, counts, poleIds } = this;
    for (const [k, id] of await findPoles(db, scope, fresh)) poleIds.set(k, id);
    const found = new Set(poleIds.keys());
    await writePoles(db, scope, fresh, poleIds, counts, scope.jobId);
    const ticketOfPole = new Map<number, number>();
    await writeTickets(db, scope, fresh, new Set(), poleIds, ticketOfPole, counts);
    for (const [k, g] of fresh) {
      const poleId = poleIds.get(k)!;
      g.written = { ticketId: ticketOfPole.get(poleId)!, poleId, ownPole: !found.has(k), workOrders: 0, tasks: 0, fields: fieldsOf(g) };
    }
    if (filled.length) {
      await repo.fillTicketBlanks(db, scope, filled.map((g) => ({ id: g.written!.ticketId, ...ticketRecord(g) })));
      // Poles someone else had are never changed by an import; the ones it created are its own.
      const own = filled.filter((g) => g.written!.ownPole);
      if (own.length) await repo.fillPoleBlanks(db, scope, own.map((g) => ({ id: g.written!.poleId, ...poleRecord(g) })));
      for (const g of filled) g.written!.fields = fieldsOf(g);
    }
    const parts = [...touched].map((g) => {
      const w = g.written!;
      const part = { ticketId: w.ticketId, workOrders: g.workOrders.slice(w.workOrders), tasks: g.tasks.slice(w.tasks) };
      w.workOrders = g.workOrders.length;
      w.tasks = g.tasks.length;
      return part;
    });
    await insertWorkOrdersAndTasks(db, scope, parts, (code) => unitIds.get(checked.code(code)!)!, counts);
  }

  /** A draft as the whole import would see it: a continuation merged into what it continues. */
  private record(d: ImportTicket) {
    if (!d.continued) {
      this.drafts.push(d);
      if (d.key !== undefined) this.byKey.set(d.key, d);
      return;
    }
    const draft = d.key === undefined ? undefined : this.byKey.get(d.key);
    if (!draft) throw new Error(`a continuation of ticket '${d.key}', which was never sent`);
    mergeContinued(draft as TicketDraft, d as TicketDraft);
  }

  /** The library's fields (they change for everyone: with the publication, never before it), then `publish`. */
  async publish(publish: (tx: DbOrTx) => Promise<void>): Promise<ImportCounts> {
    if (!this.library) await this.write({ tickets: [] });
    await this.db.transaction(async (t) => {
      await writeLibrary(t, this.scope, this.library!.checked, this.counts);
      await publish(t);
    });
    return this.counts;
  }

  /**
   * What to answer for a refused draft: the source's own error when it has one (read to its end
   * for it), else the first problem of all the drafts checked at once, as reimportTickets would.
   */
  async refusal(err: AppError, source: AsyncGenerator<ImportBatch>): Promise<unknown> {
    try {
      for (;;) {
        const next = await source.next();
        if (next.done) break;
        for (const d of next.value.tickets) this.record(d);
      }
    } catch (sourceErr) {
      return sourceErr;
    }
    try {
      await checkLibrary(this.db, this.scope, this.libraryDrafts, await groupDrafts(this.drafts));
    } catch (first) {
      return first;
    }
    return err;
  }
}

/** 1. Validate and group the drafts by pole + line (case-insensitive, trimmed) — no writes yet. */
async function groupDrafts(drafts: readonly ImportTicket[]): Promise<Map<string, Group>> {
  const groups = new Map<string, Group>();
  for (const [i, d] of drafts.entries()) {
    if (i % BREATHE_EVERY === BREATHE_EVERY - 1) await repo.breathe();
    addDraft(groups, d, i);
  }
  return groups;
}

/** Draft `d` (the i-th, for its label) checked and added to the group of its pole + line. */
function addDraft(groups: Map<string, Group>, d: ImportTicket, i: number): { group: Group; created: boolean } {
  const label = d.label ?? (d.row ? `Row ${d.row}` : `Ticket ${i + 1}`);
  const poleName = (d.pole?.pole_name ?? '').trim();
  const lineName = (d.pole?.line_name ?? '').trim();
  if (!poleName) throw badRequest(MSG.importTicketMissingPole(label));
  if (poleName.length > LIMITS.shortTextMax || lineName.length > LIMITS.shortTextMax) {
    throw badRequest(`${label}: Pole or line is longer than ${LIMITS.shortTextMax} characters`);
  }
  if (d.due_date != null && d.due_date !== '' && !toIsoDate(d.due_date)) {
    throw badRequest(`${label}: Due date '${d.due_date}' is not a date (use MM/DD/YYYY)`);
  }
  const key = poleKey(poleName, lineName);
  let group = groups.get(key);
  const created = !group;
  if (!group) groups.set(key, (group = { label, first: d, poleName, lineName, workOrders: [], tasks: [] }));
  addParts(group, d, label);
  return { group, created };
}

/** A draft's work orders (each once per ticket) and its tasks, checked, added to its group. */
function addParts(g: Group, d: Pick<ImportTicket, 'work_orders' | 'tasks'>, label = g.label) {
  for (const wo of d.work_orders ?? []) {
    const w = wo.trim();
    if (w && !g.workOrders.includes(w)) g.workOrders.push(w);
  }
  for (const t of d.tasks ?? []) {
    const where = t.row ? `Row ${t.row}` : label;
    if (!t.code?.trim()) throw badRequest(`${where}: Unit/task code is missing`);
    const add = t.additional_qty ?? 0;
    if (!Number.isFinite(t.qty) || t.qty < 0 || !Number.isFinite(add) || t.qty + add < 0) throw badRequest(MSG.importBadQty(where));
    g.tasks.push({ ...t, code: t.code.trim(), where });
  }
}

interface Library {
  /** The library drafts by code (the last row of a code wins). */
  drafts: Map<string, ImportUnit>;
  /** What the utility's library already has. */
  existing: { id: number; code: string }[];
  /** A task's code as the library spells it (exact, else case-insensitive), or undefined. */
  code: (code: string) => string | undefined;
}

/** 2. The unit library: the drafts and what the utility already has; every task's unit must be in it. */
async function checkLibrary(tx: DbOrTx, scope: ImportScope, libraryDrafts: readonly ImportUnit[], groups: Map<string, Group>): Promise<Library> {
  const library = await libraryOf(tx, scope, libraryDrafts);
  for (const g of groups.values()) checkUnits(library, g.tasks);
  await repo.breathe();
  return library;
}

/** The library drafts (each must have a code) and what the utility's library already has. */
async function libraryOf(tx: DbOrTx, scope: ImportScope, libraryDrafts: readonly ImportUnit[]): Promise<Library> {
  const drafts = new Map<string, ImportUnit>();
  for (const [i, u] of libraryDrafts.entries()) {
    const code = (u.code ?? '').trim();
    if (!code) throw badRequest(MSG.excelLibraryRowMissingCode(u.row ?? i + 1));
    drafts.set(code, { ...u, code });
  }
  const existing = await repo.unitsOfUtility(tx, scope);
  const known = new Set([...existing.map((u) => u.code), ...drafts.keys()]);
  const knownLower = new Map<string, string>();
  for (const code of known) if (!knownLower.has(code.toLowerCase())) knownLower.set(code.toLowerCase(), code);
  const code = (c: string) => (known.has(c) ? c : knownLower.get(c.toLowerCase()));
  return { drafts, existing, code };
}

/** 400 naming the first task whose unit is not in the library. */
function checkUnits(library: Library, tasks: readonly GroupTask[]) {
  for (const t of tasks) if (!library.code(t.code)) throw badRequest(MSG.importUnknownUnit(t.where, t.code));
}

/** 4. Poles: found by utility + pole + line (case-insensitive); group key → pole id. */
async function findPoles(tx: DbOrTx, scope: ImportScope, groups: Map<string, Group>): Promise<Map<string, number>> {
  const poleIds = new Map<string, number>();
  const names = [...new Set([...groups.values()].map((g) => norm(g.poleName)))];
  for (const p of await repo.polesNamed(tx, scope, names)) {
    const k = poleKey(p.poleName, p.lineName);
    if (groups.has(k) && !poleIds.has(k)) poleIds.set(k, p.id);
  }
  return poleIds;
}

/** 5. Tickets: a pole already ticketed in this job receives the rows (merge); pole id → ticket id. */
async function findJobTickets(tx: DbOrTx, scope: ImportScope, poleIds: Map<string, number>): Promise<Map<number, number>> {
  const ticketOfPole = new Map<number, number>();
  for (const t of await repo.ticketsOnPoles(tx, scope, [...new Set(poleIds.values())])) {
    if (t.poleId != null && !ticketOfPole.has(t.poleId)) ticketOfPole.set(t.poleId, t.id);
  }
  return ticketOfPole;
}

interface Planned {
  plan: ImportPlan;
  /** Drafts' tasks that become tasks, by group key. */
  tasksToCreate: Map<string, GroupTask[]>;
  /** Matched tasks whose bid is set: the first of a unit gets the file's total, the others 0. */
  qtyUpdates: { id: number; ticketId: number; initQty: number; additionalQty: number; where: string }[];
  /** Groups whose ticket is already in the job. */
  mergedKeys: Set<string>;
  /** The job's tickets that receive rows. */
  mergedTicketIds: number[];
}

type ExistingTask = { id: number; code: string; initQty: number; additionalQty: number };

/** The tasks of the job's tickets that receive rows: ticket id → unit code (lower case) → tasks. */
async function existingTasksOf(tx: DbOrTx, scope: ImportScope, ticketIds: readonly number[]) {
  const existing = new Map<number, Map<string, ExistingTask[]>>();
  for (const r of await repo.tasksOfTickets(tx, scope, ticketIds)) {
    let byCode = existing.get(r.ticketId);
    if (!byCode) existing.set(r.ticketId, (byCode = new Map()));
    const list = byCode.get(r.code.toLowerCase()) ?? [];
    list.push(r);
    byCode.set(r.code.toLowerCase(), list);
  }
  return existing;
}

/** 6. The plan: which rows create tickets and tasks, and which match a task already there. */
async function planImport(
  tx: DbOrTx,
  scope: ImportScope,
  groups: Map<string, Group>,
  libraryCode: Library['code'],
  poleIds: Map<string, number>,
  ticketOfPole: Map<number, number>,
): Promise<Planned> {
  const mergedTicketIds = [...ticketOfPole.values()];
  const existingTasks = await existingTasksOf(tx, scope, mergedTicketIds);
  const plan: Omit<ImportPlan, 'token'> = { newTickets: 0, newTasks: 0, changed: [], unchanged: 0 };
  const planned: Omit<Planned, 'plan'> = { tasksToCreate: new Map(), qtyUpdates: [], mergedKeys: new Set(), mergedTicketIds };
  /** What the token hashes: per group, its ticket and, per unit, the file's total and the matched tasks. */
  const basis: unknown[] = [];
  for (const [k, g] of [...groups.entries()].sort(byKey)) {
    const ticketId = poleIds.has(k) ? ticketOfPole.get(poleIds.get(k)!) : undefined;
    if (ticketId === undefined) {
      plan.newTickets += 1;
      plan.newTasks += g.tasks.length;
      planned.tasksToCreate.set(k, g.tasks);
      basis.push([k, null, g.tasks.map((t) => [libraryCode(t.code), t.qty, t.additional_qty ?? 0])]);
      continue;
    }
    planned.mergedKeys.add(k);
    const have = existingTasks.get(ticketId);
    const rowsByUnit = new Map<string, GroupTask[]>();
    for (const t of g.tasks) {
      const unit = libraryCode(t.code)!.toLowerCase();
      rowsByUnit.set(unit, [...(rowsByUnit.get(unit) ?? []), t]);
    }
    const create: GroupTask[] = [];
    const units_: unknown[] = [];
    for (const [unit, rows] of [...rowsByUnit.entries()].sort(byKey)) {
      const matched = have?.get(unit);
      const total = round6(rows.reduce((sum, t) => sum + t.qty, 0));
      units_.push([unit, total, rows.length, matched?.map((m) => [m.id, m.initQty]) ?? null]);
      if (!matched) {
        create.push(...rows);
        continue;
      }
      // A matched task keeps its description, in both modes, whatever the rows' Description says.
      // As a matched ticket's own fields (decision 018), only the bid of a match is ever the
      // file's (update_quantities): the preview calls the other matched rows "unchanged, nothing
      // to do" and lists changed quantities only, so a description written here would be a change
      // nobody was shown, and a billed ticket's tasks stay as billed. A task only gets its text
      // from the import that created it, so uploading the same file again brings the same text.
      const from = round6(matched.reduce((sum, m) => sum + m.initQty, 0));
      if (sameQty(from, total)) {
        plan.unchanged += rows.length;
        continue;
      }
      plan.changed.push({ pole: g.poleName, line: g.lineName, code: matched[0].code, from, to: total });
      matched.forEach((m, i) =>
        planned.qtyUpdates.push({ id: m.id, ticketId, initQty: i === 0 ? total : 0, additionalQty: m.additionalQty, where: rows[0].where }),
      );
    }
    plan.newTasks += create.length;
    if (create.length) planned.tasksToCreate.set(k, create);
    basis.push([k, ticketId, units_]);
  }
  const token = createHash('sha256').update(JSON.stringify(basis)).digest('hex');
  return { ...planned, plan: { ...plan, token } };
}

/** The library rows (a blank cell keeps what the library already says); code → unit id. */
async function writeLibrary(tx: DbOrTx, scope: ImportScope, library: Library, counts: ImportCounts): Promise<Map<string, number>> {
  const unitIds = new Map(library.existing.map((u) => [u.code, u.id]));
  const text = (v: string | null | undefined) => v ?? '';
  const rows = await repo.upsertUnits(
    tx,
    scope,
    [...library.drafts.values()].map((u) => ({
      code: u.code,
      description: text(u.description),
      family: text(u.family),
      type: text(u.type),
      action: text(u.action),
      uom: text(u.uom),
      notes: text(u.notes),
      // null keeps the library's price: an unmapped or blank Price cell never wipes one.
      unit_price: u.unit_price ?? null,
    })),
  );
  for (const r of rows) unitIds.set(r.code, Number(r.id));
  counts.units += rows.length;
  return unitIds;
}

/**
 * Staged: the codes the library lacks, inserted bare (tasks need their ids); code → unit id of
 * the whole library. The fields of every library row are written at publication (writeLibrary).
 */
async function stageNewUnits(tx: DbOrTx, scope: ImportScope, library: Library): Promise<Map<string, number>> {
  const have = new Set(library.existing.map((u) => u.code));
  const missing = [...library.drafts.keys()].filter((code) => !have.has(code));
  if (missing.length === 0) return new Map(library.existing.map((u) => [u.code, u.id]));
  await repo.insertStagedUnits(tx, scope, missing);
  // Read back rather than RETURNING: a code another import added meanwhile is not returned.
  return new Map((await repo.unitsOfUtility(tx, scope)).map((u) => [u.code, u.id]));
}

type Place = Pick<ImportTicket, 'street_address' | 'geo_lat' | 'geo_lon'>;
/** Address and coordinates of `own`, each falling back to `other`'s: a pole's to its ticket's, a ticket's to its pole's. */
const placeOf = (own: Place, other: Place) => ({
  street_address: blankToNull(own.street_address ?? other.street_address),
  geo_lat: own.geo_lat ?? other.geo_lat ?? null,
  geo_lon: own.geo_lon ?? other.geo_lon ?? null,
});

/** A group's pole as a row of `poles` (its first draft's fields). */
function poleRecord(g: Group) {
  const p = g.first.pole;
  return {
    pole_name: g.poleName,
    line_name: g.lineName,
    pole_id: blankToNull(p.pole_id),
    line_id: blankToNull(p.line_id),
    ...placeOf(p, g.first),
    primary_voltage: blankToNull(p.primary_voltage),
    secondary_voltage: blankToNull(p.secondary_voltage),
    arc_rating: blankToNull(p.arc_rating),
    utility_spec: blankToNull(p.utility_spec),
    sub_curcuit: blankToNull(p.sub_curcuit),
    sap_curcuit: blankToNull(p.sap_curcuit),
  };
}

/** A group's ticket as a row of `tickets`, without its pole (its first draft's fields). */
function ticketRecord(g: Group) {
  const d = g.first;
  return {
    due_date: d.due_date ? toIsoDate(d.due_date) : null,
    ...placeOf(d, d.pole),
    description: blankToNull(d.description),
    ehasp: blankToNull(d.ehasp),
    ambulance_meetup: blankToNull(d.ambulance_meetup),
  };
}

/** What a continuation may change of a written group: its ticket's and its pole's fields. */
const fieldsOf = (g: Group) => JSON.stringify([ticketRecord(g), poleRecord(g)]);

/** The poles no one has yet (with `stagedFor`, marked as its import's); their ids join `poleIds`. */
async function writePoles(tx: DbOrTx, scope: ImportScope, groups: Map<string, Group>, poleIds: Map<string, number>, counts: ImportCounts, stagedFor?: number) {
  const newPoles = [...groups.entries()].filter(([k]) => !poleIds.has(k));
  const rows = await repo.insertPoles(
    tx,
    scope,
    newPoles.map(([, g]) => poleRecord(g)),
    stagedFor,
  );
  for (const r of rows) poleIds.set(poleKey(r.pole_name, r.line_name), Number(r.id));
  counts.poles += rows.length;
}

/** A ticket for every group whose pole is not ticketed in the job yet; their ids join `ticketOfPole`. */
async function writeTickets(
  tx: DbOrTx,
  scope: ImportScope,
  groups: Map<string, Group>,
  mergedKeys: Set<string>,
  poleIds: Map<string, number>,
  ticketOfPole: Map<number, number>,
  counts: ImportCounts,
) {
  const toCreate = [...groups.entries()].filter(([k]) => !mergedKeys.has(k));
  const rows = await repo.insertTickets(
    tx,
    scope,
    toCreate.map(([k, g]) => ({ pole_id: poleIds.get(k)!, ...ticketRecord(g) })),
  );
  for (const r of rows) ticketOfPole.set(Number(r.pole_id), Number(r.id));
  counts.tickets += rows.length;
}

/**
 * Work orders (no duplicate on a ticket, also against a merged ticket's own) and tasks. Returns
 * the tickets that were already in the job and receive something: their version moves on.
 */
async function writeWorkOrdersAndTasks(
  tx: DbOrTx,
  scope: ImportScope,
  groups: Map<string, Group>,
  planned: Planned,
  ticketOfGroup: (key: string) => number,
  unitIdOf: (code: string) => number,
  counts: ImportCounts,
): Promise<Set<number>> {
  const existingWo = new Map<number, Set<string>>();
  for (const r of await repo.workOrdersOfTickets(tx, scope, planned.mergedTicketIds)) {
    if (!existingWo.has(r.ticketId)) existingWo.set(r.ticketId, new Set());
    existingWo.get(r.ticketId)!.add(r.wo);
  }
  const touched = new Set<number>();
  const parts = [...groups].map(([k, g]) => {
    const ticketId = ticketOfGroup(k);
    const have = existingWo.get(ticketId);
    const part = { ticketId, workOrders: g.workOrders.filter((wo) => !have?.has(wo)), tasks: planned.tasksToCreate.get(k) ?? [] };
    if (planned.mergedKeys.has(k) && (part.workOrders.length || part.tasks.length)) touched.add(ticketId);
    return part;
  });
  await insertWorkOrdersAndTasks(tx, scope, parts, unitIdOf, counts);
  return touched;
}

/**
 * Work orders and tasks of tickets, each list in one chunked insert: every path that creates tasks
 * from drafts (a new job's staged import, an import into a job, whole or staged) ends here. A task
 * keeps its row's Description (DESIGN §7.5), null when blank: reads show the library's then.
 */
async function insertWorkOrdersAndTasks(
  tx: DbOrTx,
  scope: ImportScope,
  parts: readonly { ticketId: number; workOrders: readonly string[]; tasks: readonly ImportTask[] }[],
  unitIdOf: (code: string) => number,
  counts: ImportCounts,
) {
  const woRows: { ticket_id: number; work_order: string }[] = [];
  const taskRows: repo.TaskRecord[] = [];
  for (const [i, p] of parts.entries()) {
    if (i % BREATHE_EVERY === BREATHE_EVERY - 1) await repo.breathe();
    for (const wo of p.workOrders) woRows.push({ ticket_id: p.ticketId, work_order: wo });
    for (const t of p.tasks) {
      taskRows.push({ ticket_id: p.ticketId, unit_id: unitIdOf(t.code), init_qty: t.qty, additional_qty: t.additional_qty ?? 0, description: blankToNull(t.description) });
    }
  }
  await repo.insertWorkOrders(tx, scope, woRows);
  counts.workOrders += woRows.length;
  await repo.insertTasks(tx, scope, taskRows);
  counts.tasks += taskRows.length;
}
