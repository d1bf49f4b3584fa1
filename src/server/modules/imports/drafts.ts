import { toIsoDate } from '../../../shared/dates';
import { LIMITS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { normalizeCode } from '../../../shared/names';
import type { DbOrTx } from '../../db/client';
import { badRequest } from '../../errors';
import * as repo from './import.repository';
import type { ImportScope, ImportTask, ImportTicket, ImportUnit } from './types';

/**
 * Steps 1 and 2 of an import (reimport.ts): the drafts checked and grouped by pole + line, the
 * unit library they need checked. No writes.
 */

/** Drafts (or groups) handled between two breaths: a few milliseconds of work. */
export const BREATHE_EVERY = 250;

/** A pole or line name as imports match it: normalised (docs/product/sessions-and-safety.md), any letter case. */
export const norm = (s: string | null | undefined) => normalizeCode(s ?? '').toLowerCase();
export const poleKey = (pole: string, line: string) => `${norm(pole)}\u0000${norm(line)}`;
export const blankToNull = (s: string | null | undefined) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

export type GroupTask = ImportTask & { where: string };

/** The drafts of one pole + line: they become one ticket. */
export interface Group {
  label: string;
  first: ImportTicket;
  poleName: string;
  lineName: string;
  workOrders: string[];
  tasks: GroupTask[];
  /** A staged import's group already written: its ticket, and how much of it is written. */
  written?: { ticketId: number; poleId: number; ownPole: boolean; workOrders: number; tasks: number; fields: string };
}

export async function groupDrafts(drafts: readonly ImportTicket[]): Promise<Map<string, Group>> {
  const groups = new Map<string, Group>();
  for (const [i, d] of drafts.entries()) {
    if (i % BREATHE_EVERY === BREATHE_EVERY - 1) await repo.breathe();
    addDraft(groups, d, i);
  }
  return groups;
}

/** Draft `d` (the i-th, for its label) checked and added to the group of its pole + line. */
export function addDraft(groups: Map<string, Group>, d: ImportTicket, i: number): { group: Group; created: boolean } {
  const label = d.label ?? (d.row ? `Row ${d.row}` : `Ticket ${i + 1}`);
  // Stored as normalised (docs/product/sessions-and-safety.md), whatever path the draft came by (job save, workbook, CSV).
  const poleName = normalizeCode(d.pole?.pole_name ?? '');
  const lineName = normalizeCode(d.pole?.line_name ?? '');
  if (!poleName) throw badRequest(MSG.importTicketMissingPole(label));
  if (poleName.length > LIMITS.shortTextMax || lineName.length > LIMITS.shortTextMax) {
    throw badRequest(MSG.draftPoleTooLong(label, LIMITS.shortTextMax));
  }
  if (d.due_date != null && d.due_date !== '' && !toIsoDate(d.due_date)) {
    throw badRequest(MSG.draftDueDateInvalid(label, String(d.due_date)));
  }
  const key = poleKey(poleName, lineName);
  let group = groups.get(key);
  const created = !group;
  if (!group) groups.set(key, (group = { label, first: d, poleName, lineName, workOrders: [], tasks: [] }));
  addParts(group, d, label);
  return { group, created };
}

/** A draft's work orders (each once per ticket) and its tasks, checked, added to its group. */
export function addParts(g: Group, d: Pick<ImportTicket, 'work_orders' | 'tasks'>, label = g.label) {
  for (const wo of d.work_orders ?? []) {
    const w = wo.trim();
    if (w && !g.workOrders.includes(w)) g.workOrders.push(w);
  }
  for (const t of d.tasks ?? []) {
    const where = t.row ? `Row ${t.row}` : label;
    const code = normalizeCode(t.code ?? '');
    if (!code) throw badRequest(MSG.draftUnitMissing(where));
    const add = t.additional_qty ?? 0;
    if (!Number.isFinite(t.qty) || t.qty < 0 || !Number.isFinite(add) || t.qty + add < 0) throw badRequest(MSG.importBadQty(where));
    g.tasks.push({ ...t, code, where });
  }
}

export interface Library {
  /** The library drafts by code (the last row of a code wins). */
  drafts: Map<string, ImportUnit>;
  /** What the utility's library already has. */
  existing: { id: number; code: string }[];
  /** A task's code as the library spells it (exact, else case-insensitive), or undefined. */
  code: (code: string) => string | undefined;
}

/** 2. The unit library: the drafts and what the utility already has; every task's unit must be in it. */
export async function checkLibrary(tx: DbOrTx, scope: ImportScope, libraryDrafts: readonly ImportUnit[], groups: Map<string, Group>): Promise<Library> {
  const library = await libraryOf(tx, scope, libraryDrafts);
  for (const g of groups.values()) checkUnits(library, g.tasks);
  await repo.breathe();
  return library;
}

/** The library drafts (each must have a code) and what the utility's library already has. */
export async function libraryOf(tx: DbOrTx, scope: ImportScope, libraryDrafts: readonly ImportUnit[]): Promise<Library> {
  const drafts = new Map<string, ImportUnit>();
  for (const [i, u] of libraryDrafts.entries()) {
    const code = normalizeCode(u.code ?? '');
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
export function checkUnits(library: Library, tasks: readonly GroupTask[]) {
  for (const t of tasks) if (!library.code(t.code)) throw badRequest(MSG.importUnknownUnit(t.where, t.code));
}

