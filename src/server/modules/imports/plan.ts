import { createHash } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import * as repo from './import.repository';
import { checkLibrary, groupDrafts, norm, poleKey, type Group, type GroupTask, type Library } from './drafts';
import type { ImportPlan, ImportScope, ImportTicket, ImportUnit } from './types';

/**
 * Steps 3 to 6 of an import (reimport.ts): the poles of the drafts and the job's tickets on them
 * found, then the plan (decision 018): what is new, what matches a task already there, which
 * quantities change, and the token a preview hands out. Reads only.
 */

/** Quantities are compared to a millionth: sums of decimals are not exact in binary. */
const sameQty = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;
const byKey = <V>([a]: [string, V], [b]: [string, V]) => (a < b ? -1 : a > b ? 1 : 0);

/** Steps 1 to 6 of an import: its drafts checked and grouped, its poles and the job's tickets found, its plan. */
export async function planDrafts(tx: DbOrTx, scope: ImportScope, drafts: readonly ImportTicket[], libraryDrafts: readonly ImportUnit[]) {
  const groups = await groupDrafts(drafts);
  const library = await checkLibrary(tx, scope, libraryDrafts, groups);
  const poleIds = await findPoles(tx, scope, groups);
  const ticketOfPole = await findJobTickets(tx, scope, poleIds);
  const planned = await planImport(tx, scope, groups, library.code, poleIds, ticketOfPole);
  return { groups, library, poleIds, ticketOfPole, planned };
}

/** 4. Poles: found by utility + pole + line (case-insensitive); group key → pole id. */
export async function findPoles(tx: DbOrTx, scope: ImportScope, groups: Map<string, Group>): Promise<Map<string, number>> {
  const poleIds = new Map<string, number>();
  const names = [...new Set([...groups.values()].map((g) => norm(g.poleName)))];
  for (const p of await repo.polesNamed(tx, scope, names)) {
    const k = poleKey(p.poleName, p.lineName);
    if (groups.has(k) && !poleIds.has(k)) poleIds.set(k, p.id);
  }
  return poleIds;
}

/** 5. Tickets: a pole already ticketed in this job receives the rows (merge); pole id → ticket id. */
export async function findJobTickets(tx: DbOrTx, scope: ImportScope, poleIds: Map<string, number>): Promise<Map<number, number>> {
  const ticketOfPole = new Map<number, number>();
  for (const t of await repo.ticketsOnPoles(tx, scope, [...new Set(poleIds.values())])) {
    if (t.poleId != null && !ticketOfPole.has(t.poleId)) ticketOfPole.set(t.poleId, t.id);
  }
  return ticketOfPole;
}

export interface Planned {
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
export async function planImport(
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
