import { toIsoDate } from '../../../shared/dates';
import type { DbOrTx } from '../../db/client';
import * as repo from './import.repository';
import { BREATHE_EVERY, blankToNull, poleKey, type Group, type Library } from './drafts';
import type { Planned } from './plan';
import type { ImportCounts, ImportScope, ImportTask, ImportTicket } from './types';

/**
 * Step 7 of an import (reimport.ts): the writes, in multi-row statements whose lists travel as
 * one JSON parameter. Shared by the import in one transaction, the staged import of a new job
 * (staged-write.ts) and the staged import into a job (import-into-job.ts).
 */

/** The library rows (a blank cell keeps what the library already says); code → unit id. */
export async function writeLibrary(tx: DbOrTx, scope: ImportScope, library: Library, counts: ImportCounts): Promise<Map<string, number>> {
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
export async function stageNewUnits(tx: DbOrTx, scope: ImportScope, library: Library): Promise<Map<string, number>> {
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
export function poleRecord(g: Group) {
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
export function ticketRecord(g: Group) {
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
export const fieldsOf = (g: Group) => JSON.stringify([ticketRecord(g), poleRecord(g)]);

/** The poles no one has yet (with `stagedFor`, marked as its import's); their ids join `poleIds`. */
export async function writePoles(tx: DbOrTx, scope: ImportScope, groups: Map<string, Group>, poleIds: Map<string, number>, counts: ImportCounts, stagedFor?: number) {
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
export async function writeTickets(
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
export async function writeWorkOrdersAndTasks(
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
 * keeps its row's Description (docs/product/imports.md), null when blank: reads show the library's then.
 */
export async function insertWorkOrdersAndTasks(
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
