import type { HistoryAction, HistoryEntity, HistoryEntry, HistoryReply } from '../../../shared/history.schemas';
import type { DbOrTx } from '../../db/client';
import { isoInstant } from '../../db/sql';
import * as repo from './history.repository';

/**
 * The recorder of every change (docs/product/records.md §1, docs/decisions/044-history-recorded-with-each-change.md). Each service
 * that writes a job, a ticket, a crew member or an invoice calls it inside its own transaction
 * with its record before and after, as a flat "view" keyed by the API's field names; the diff
 * here turns them into entries. A change rolled back takes its entries with it.
 */

/** Who changes something (the signed-in user: CurrentUser fits). */
export interface Actor {
  id: number;
  companyId: number;
  /** The API token the user acts through (CurrentUser.apiToken): the entry names it too. */
  apiToken?: { id: number; name: string } | null;
}

/** Which record changed, and the ticket and job it belongs to (a job's history lists both). */
export interface Target {
  entity: HistoryEntity;
  entityId: number;
  ticketId?: number | null;
  jobId?: number | null;
}

/** One entry: what happened to which field (none for a whole record), from what to what. */
export interface Change {
  action: HistoryAction;
  field?: string | null;
  old?: unknown;
  new?: unknown;
}

/**
 * A record as history compares it: API field names to plain values. A list (tasks, notes…) is
 * a list of item texts: its entry holds the items removed (old) and added (new).
 */
export type HistoryView = Record<string, unknown>;

/** Writes the entries of one change. */
export const record = (db: DbOrTx, actor: Actor, target: Target, changes: readonly Change[]) => recordMany(db, actor, [{ target, changes }]);

/** Writes the entries of changes to several records (an invoice bills many tickets) in one statement. */
export async function recordMany(db: DbOrTx, actor: Actor, items: readonly { target: Target; changes: readonly Change[] }[]) {
  await repo.insertEntries(
    db,
    items.flatMap(({ target, changes }) => changes.map((c) => ({
      ...repo.actorColumns(actor.companyId, actor.id, actor.apiToken),
      action: c.action,
      entity: target.entity,
      entityId: target.entityId,
      ticketId: target.ticketId ?? null,
      jobId: target.jobId ?? null,
      field: c.field ?? null,
      old: c.old ?? null,
      new: c.new ?? null,
    }))),
  );
}

/** Items of `a` not matched in `b`, counting repeats (two equal tasks are two items). */
export function minus(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(JSON.stringify(x), (left.get(JSON.stringify(x)) ?? 0) + 1);
  return a.filter((x) => {
    const k = JSON.stringify(x);
    const n = left.get(k) ?? 0;
    if (n === 0) return true;
    left.set(k, n - 1);
    return false;
  });
}

/**
 * The field-by-field changes between two views: one 'update' per field that differs; a list
 * field's old and new are the items removed and added. A null `before` is a creation (one entry
 * holding the view), a null `after` a deletion (one entry holding what was deleted).
 */
export function diffViews(before: HistoryView | null, after: HistoryView | null): Change[] {
  if (!before && !after) return [];
  if (!before) return [{ action: 'create', new: after }];
  if (!after) return [{ action: 'delete', old: before }];
  const changes: Change[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const o = before[field] ?? null;
    const n = after[field] ?? null;
    if (JSON.stringify(o) === JSON.stringify(n)) continue;
    if (Array.isArray(o) && Array.isArray(n)) {
      const removed = minus(o, n);
      const added = minus(n, o);
      if (removed.length || added.length) changes.push({ action: 'update', field, old: removed, new: added });
    } else {
      changes.push({ action: 'update', field, old: o, new: n });
    }
  }
  return changes;
}

/** Records the difference between a record's view before and after a change (see diffViews). */
export async function recordDiff(db: DbOrTx, actor: Actor, target: Target, before: HistoryView | null, after: HistoryView | null) {
  await record(db, actor, target, diffViews(before, after));
}

/** An import's entries, one per ticket written (history.repository insertImportEntries). */
export const recordImport = repo.insertImportEntries;

/**
 * Tickets per statement of recordImportInParts: ~15 ms of PGlite on an idle machine. The entries
 * of 2,500 tickets in one statement took 110–135 ms, all of it on the server's thread, and GET
 * /health waited for it (its budget, 100 ms: docs/product/scale.md §3).
 */
const IMPORT_ENTRIES_PER_STATEMENT = 250;

/**
 * The entries of a staged import that is not yet published, for the tickets under its hidden job
 * `a.jobId`: the same entries as recordImport(db, a, { fromJobId: a.jobId }), in statements of a
 * few hundred tickets, outside any transaction, with `pause` between two (PGlite runs each
 * statement on the server's thread: other requests get in there). They stay as hidden as the job
 * until it is published, and go with it when it is discarded (discardHistoryOfJob).
 */
export async function recordImportInParts(db: DbOrTx, a: Parameters<typeof repo.insertImportEntries>[1], pause: () => Promise<void>) {
  const ids = await repo.ticketIdsOfJob(db, a.companyId, a.jobId);
  for (let i = 0; i < ids.length; i += IMPORT_ENTRIES_PER_STATEMENT) {
    await pause();
    await repo.insertImportEntries(db, a, { ids: ids.slice(i, i + IMPORT_ENTRIES_PER_STATEMENT), before: new Map() });
  }
}
/** The task counts an import's entries start from. */
export const importTaskCounts = repo.taskCounts;
/** The entries of a staged import that is discarded (it never became visible). */
export const discardHistoryOfJob = repo.deleteEntriesOfJob;

/**
 * A page of a ticket's or a job's history, newest first (GET /tickets/{id}/history,
 * GET /jobs/{id}/history). The caller has checked that the ticket or job is the caller's to read.
 */
export async function historyPage(db: DbOrTx, companyId: number, of: { ticketId: number } | { jobId: number }, limit: number, cursor?: number): Promise<HistoryReply> {
  // One more than asked tells whether another page follows, without a count.
  const rows = await repo.selectEntries(db, companyId, of, limit + 1, cursor);
  const page = rows.slice(0, limit);
  const entries = page.map(
    (r): HistoryEntry => ({
      id: r.id,
      at: isoInstant(r.at) ?? '',
      user: { id: r.userId, name: r.firstName == null ? '' : `${r.firstName} ${r.lastName}`.trim() },
      api_token: r.apiTokenName == null ? null : { id: r.apiTokenId, name: r.apiTokenName },
      action: r.action as HistoryEntry['action'],
      entity: r.entity as HistoryEntry['entity'],
      entity_id: r.entityId,
      ticket_id: r.ticketId,
      field: r.field,
      old: r.old,
      new: r.new,
    }),
  );
  return { entries, next_cursor: rows.length > limit ? page[page.length - 1].id : null };
}
