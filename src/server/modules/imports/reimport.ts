import { importTaskCounts, recordImport } from '../history/history.service';
import { MSG } from '../../../shared/messages';
import type { DbOrTx } from '../../db/client';
import { ERROR_CODE } from '../../../shared/error-codes';
import { AppError, badRequest } from '../../errors';
import * as repo from './import.repository';
import { planDrafts } from './plan';
import { writeLibrary, writePoles, writeTickets, writeWorkOrdersAndTasks } from './write';
import { StalePreviewError, type ImportCounts, type ImportOptions, type ImportScope, type ImportTicket, type ImportUnit, type ReimportResult } from './types';


/**
 * Ticket import (docs/product/imports.md §12 Excel workbook, Atomicity): ticket drafts (from a workbook through
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

  // A billed ticket's tasks are locked until unlocked (docs/product/billing.md §5): rows adding tasks to one, or
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

  // History (docs/product/records.md §1): one entry per ticket the import writes, from its tasks before.
  const landsOn = [...planned.mergedKeys].map((k) => ticketOfPole.get(poleIds.get(k)!)!);
  const before = await importTaskCounts(tx, scope.companyId, landsOn);

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
  const created = [...groups.keys()].filter((k) => !planned.mergedKeys.has(k)).map((k) => ticketOfPole.get(poleIds.get(k)!)!);
  await recordImport(tx, scope, { ids: [...created, ...touched], before });
  return { counts, updated, plan };
}
