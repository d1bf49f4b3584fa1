import { recordImportInParts } from '../history/history.service';
import type { TicketDraft } from '../../../shared/excel';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { mergeContinued } from './ticket-rows';
import * as repo from './import.repository';
import * as stagedRepo from './staged-import.repository';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { addDraft, addParts, BREATHE_EVERY, checkLibrary, checkUnits, groupDrafts, libraryOf, poleKey, type Group, type Library } from './drafts';
import { findPoles } from './plan';
import { fieldsOf, insertWorkOrdersAndTasks, poleRecord, stageNewUnits, ticketRecord, writeLibrary, writePoles, writeTickets } from './write';
import type { ImportBatch, ImportCounts, ImportScope, ImportTicket, ImportUnit } from './types';

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
  // A new job with its import is created (job.created) when it becomes visible: published.
  const publish = async (tx: DbOrTx) => {
    const jobNumber = await stagedRepo.publishStagedJob(tx, scope.companyId, scope.jobId);
    if (jobNumber === null) throw new Error(`job ${scope.jobId}: its staged import is gone`);
    await emitWebhookEvent(tx, scope.companyId, 'job.created', { job_id: scope.jobId, job_number: jobNumber, user_id: scope.userId });
  };
  // Its history: one entry per ticket it created (docs/product/records.md §1), written under the
  // hidden job just before the publication, a few hundred tickets a statement. In the publishing
  // transaction they were one statement of 110–135 ms for 2,500 tickets, and on PGlite no other
  // request's statement runs while a transaction is open (GET /health waited for it; docs/product/scale.md §3).
  const beforePublish = () => recordImportInParts(db, scope, repo.breathe);
  try {
    return await writeStagedImport(db, scope, batches, publish, beforePublish);
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
  /** Run after the last batch is written, before the publishing transaction (outside it). */
  beforePublish?: () => Promise<void>,
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
    return await run.publish(publish, beforePublish);
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

  /** `beforePublish`; then the library's fields (they change for everyone: with the publication, never before it) and `publish`. */
  async publish(publish: (tx: DbOrTx) => Promise<void>, beforePublish?: () => Promise<void>): Promise<ImportCounts> {
    if (!this.library) await this.write({ tickets: [] });
    await beforePublish?.();
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

