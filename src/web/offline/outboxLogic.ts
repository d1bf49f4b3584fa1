import { LIMITS } from '../../shared/constants';
import { ERROR_CODE, type ErrorCode } from '../../shared/error-codes';
import type { CompletionPosition } from '../../shared/evidence';
import { actualQty, clampAdditionalQty } from '../../shared/tasks';
import type { TaskSave, Ticket, TicketSave } from '../../shared/tickets.schemas';
import { isHeld } from './outboxStatus';

/**
 * The outbox's rules, pure (no IndexedDB, no network), so that each is unit-tested: what a queued
 * change sends, in which order, when it is tried again, how a later change follows an earlier
 * one of ours, and how a change refused as stale is merged with what the office did meanwhile.
 * docs/product/field-mode.md §5 "outbox", "conflicts"; outbox.ts reads the queue, outboxSend.ts
 * changes and sends it. What the status line says is in outboxStatus.ts: every page shows it, and this
 * file is loaded only by what queues, sends or shows a change (decision 037).
 */

/** Ticket fields a crew may change offline (the phone's ticket view and the ticket window). */
export const QUEUED_FIELDS = ['status', 'street_address', 'description', 'geo_lat', 'geo_lon', 'due_date', 'assigned_to', 'ambulance_meetup', 'ehasp'] as const;
export type QueuedField = (typeof QUEUED_FIELDS)[number];
export type FieldValues = Partial<Pick<Ticket, QueuedField>>;

interface EntryBase {
  /** IndexedDB key: increasing, so the order the changes were made in. */
  id: number;
  /** Whose change: replayed only while the same user is signed in. */
  userId: number;
  /**
   * Their name, kept with the change (docs/product/sessions-and-safety.md): the sign-in page and another user signed in
   * on a shared device say whose changes wait here. Absent on changes queued by older versions.
   */
  owner?: { firstName: string; lastName: string };
  ticketId: number;
  jobId: number;
  /** Pole · line, so the queue and the conflict screen can name the ticket offline. */
  label: string;
  /** The ticket version the change was made on (the copy the user saw). */
  baseVersion: number;
  /** Sent as the Idempotency-Key header: a replay of a change that did arrive is not applied twice. */
  idempotencyKey: string;
  createdAt: number;
  attempts: number;
  /** Not tried before this time (ms since epoch): backoff after a failed attempt. */
  nextAttemptAt: number;
  /**
   * pending: waiting to be sent; conflict: refused as stale, waiting for the user's choice;
   * failed: refused (a 4xx other than 409), shown with the server's message and a Discard button;
   * gone: the ticket was deleted meanwhile, kept so its notes and photos can be saved elsewhere.
   */
  state: 'pending' | 'conflict' | 'failed' | 'gone';
  /** The server's message when failed or gone. */
  error?: string;
  /** The server's refusal code when failed (ticket_photos_full: a photo over the 10, kept to save or swap). */
  code?: ErrorCode;
  /** When the user saved it to this device (ms): a held note or photo may be discarded only after. */
  savedAt?: number;
  /** The server's copy when state is 'conflict' (what "theirs" shows). */
  theirs?: Ticket;
}

/** A task quantity I changed: additional_qty mine and as it was on the copy I changed. */
export interface TaskQty {
  mine: number;
  base: number;
  /**
   * The bid (init_qty) on the copy I changed: the phone showed init + mine, the number a crew
   * remembers and the one the conflict screen compares. Absent in changes queued before it was kept.
   */
  init?: number;
}

/** Ticket fields and task quantities: sent with the version, so a stale change is refused (409). */
export interface TicketChange extends EntryBase {
  kind: 'ticket';
  /** The changed fields, mine. */
  set: FieldValues;
  /** The same fields as they were on the copy I changed: tells their change from mine. */
  base: FieldValues;
  /** Task quantities I changed, by ticket_task_id. */
  taskQty: Record<string, TaskQty>;
  /**
   * Where the phone was when the crew tapped Mark complete (docs/product/records.md §6): sent with
   * the save whenever it goes, so the record says where the tap was, not where the queue was sent.
   */
  position?: CompletionPosition;
}

/** A note: notes are append-only, so a stale version is no conflict (sent again on the new one). */
export interface NoteChange extends EntryBase {
  kind: 'note';
  text: string;
}

/** A photo: uploaded, then recorded on the ticket with its capture time and place. */
export interface PhotoChange extends EntryBase {
  kind: 'photo';
  blob: Blob;
  fileName: string;
  takenAt: string | null;
  lat: number | null;
  lon: number | null;
  /** Set once the bytes are stored: a retry then only records the photo on the ticket. */
  uploadedUrl?: string;
}

export type OutboxEntry = TicketChange | NoteChange | PhotoChange;
/** What a caller gives; the store adds id, key, times and state. */
export type NewEntry = NewTicketChange | Omit<NoteChange, keyof Bookkeeping> | Omit<PhotoChange, keyof Bookkeeping>;
/**
 * A new ticket change. A tap on − / + also says `seen`, the additional_qty the screen showed
 * before the tap: the tap is a step from there, applied on top of what the queue holds when it
 * is written (another tab of the phone may have queued a tap this one has not shown yet).
 */
export type NewTicketChange = Omit<TicketChange, keyof Bookkeeping | 'taskQty'> & { taskQty: Record<string, TaskQty & { seen?: number }> };
type Bookkeeping = Pick<EntryBase, 'id' | 'idempotencyKey' | 'createdAt' | 'attempts' | 'nextAttemptAt' | 'state' | 'error' | 'code' | 'savedAt' | 'theirs'>;

// ---------------------------------------------------------------------------------------------
// Order and retries

/**
 * A fresh Idempotency-Key (docs/product/field-mode.md §6), one per change. A change keeps its key for life: while
 * the outcome of a send is unknown (the connection dropped: the server may have applied it) and
 * when it is re-based on a newer version (after my earlier change, or after a stale refusal,
 * which frees the key on the server; the server's request hash leaves the version out, so a copy
 * of the change still on the old version is recognised as the same change: decision 037).
 * Only the user's choice in a conflict makes a new change, with a new key. getRandomValues, not
 * randomUUID: the latter exists only on HTTPS pages, and a crew's tablet may reach the app over
 * plain HTTP on a site network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** 1 s, 2 s, 4 s … up to 5 minutes, with ±20 % jitter so a crew's phones do not retry in step. */
export function backoffMs(attempts: number, random = Math.random): number {
  const base = Math.min(300_000, 1000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * The entries to send now, in the order they were made. A ticket waiting on a conflict (or
 * deleted) holds back its later changes, which were made on top of the refused one; a refused
 * (failed) change does not: it never blocks the rest of the queue.
 */
export function sendable(entries: readonly OutboxEntry[], now: number): OutboxEntry[] {
  const held = new Set<number>();
  const out: OutboxEntry[] = [];
  for (const e of [...entries].sort((a, b) => a.id - b.id)) {
    if (e.state === 'conflict' || e.state === 'gone') held.add(e.ticketId);
    else if (e.state === 'pending' && !held.has(e.ticketId) && e.nextAttemptAt <= now) out.push(e);
    else if (e.state === 'pending' && e.nextAttemptAt > now) held.add(e.ticketId); // keep the order per ticket
  }
  return out;
}

/** At most this many changes on their way to the server at once, each of a different ticket. */
export const SENDERS = 4;

/**
 * The changes to start sending now, beside those on their way (`sending`: their tickets): the
 * oldest sendable change of each ticket that has none on its way, until `max` are on their way in
 * all. A ticket's changes go one after the other, in the order they were made (a later one was
 * made on top of the earlier: rebase); changes of different tickets do not wait for each other
 * (decision 037, "several tickets at once"). Tickets take turns: `turns` says when each last had a
 * change started (a larger number is later); one that has had none goes first, then the one that
 * waited longest, so a ticket with many changes never holds back the others until it is done.
 * Between tickets that never had a turn, the oldest change first.
 */
export function nextToSend(
  entries: readonly OutboxEntry[],
  now: number,
  sending: ReadonlySet<number>,
  turns: ReadonlyMap<number, number> = new Map(),
  max: number = SENDERS,
): OutboxEntry[] {
  const firsts: OutboxEntry[] = [];
  const seen = new Set(sending);
  for (const e of sendable(entries, now)) {
    if (seen.has(e.ticketId)) continue;
    seen.add(e.ticketId);
    firsts.push(e);
  }
  const turn = (e: OutboxEntry) => turns.get(e.ticketId) ?? -Infinity;
  // A stable sort: equal turns keep the order the changes were made in.
  return firsts.sort((a, b) => turn(a) - turn(b) || a.id - b.id).slice(0, Math.max(0, max - sending.size));
}

/**
 * After one of my changes to a ticket was applied (version `sent` became `reply`), my later
 * changes to that ticket that were made on the same copy now apply on top of it: they move to
 * the new version instead of being refused as stale by my own earlier change. Each keeps its
 * key: it is the same change (a second sender with the old copy is then answered as a replay).
 */
export function rebase(entries: readonly OutboxEntry[], done: OutboxEntry, sent: number, reply: number): OutboxEntry[] {
  const changed: OutboxEntry[] = [];
  for (const e of entries) {
    if (e.id <= done.id || e.ticketId !== done.ticketId) continue;
    if (e.baseVersion === done.baseVersion || e.baseVersion === sent) changed.push({ ...e, baseVersion: reply });
  }
  return changed;
}

// ---------------------------------------------------------------------------------------------
// What is sent

/** Task list for the save: the server replaces the list, so every task goes, mine with my quantity. */
function tasksWithMine(tasks: Ticket['tasks'], taskQty: TicketChange['taskQty']): TaskSave[] {
  return tasks.map((t) => ({
    ticket_task_id: t.ticket_task_id,
    task_id: t.task_id,
    init_qty: t.init_qty,
    additional_qty: taskQty[String(t.ticket_task_id)]?.mine ?? t.additional_qty,
  }));
}

/** The PUT /tickets/ body of a queued change, on the ticket copy `current` (for its task list). */
export function ticketSaveOf(e: OutboxEntry, current: Pick<Ticket, 'tasks'> | null): TicketSave {
  const head = { id: e.ticketId, job_id: e.jobId, version: e.baseVersion };
  if (e.kind === 'note') return { ...head, notes: [{ note_text: e.text }] };
  if (e.kind === 'photo') throw new Error('A photo is not sent as a ticket save');
  const body: TicketSave = { ...head, ...e.set, ...(e.set.status === 'Complete' && e.position ? e.position : {}) } as TicketSave;
  if (Object.keys(e.taskQty).length > 0 && current) body.tasks = tasksWithMine(current.tasks, e.taskQty);
  return body;
}

// ---------------------------------------------------------------------------------------------
// What the phone shows before the queue is empty

/**
 * The ticket as the crew left it: the server's copy with my queued changes on top. Notes and
 * photos that will still be sent are `queued` ("waiting to sync"); those that will not (refused,
 * or their ticket deleted) are `held`: kept on the phone to save, never shown as waiting.
 */
export function withQueued(
  ticket: Ticket,
  entries: readonly OutboxEntry[],
): Ticket & { queuedNotes: string[]; queuedPhotos: PhotoChange[]; heldNotes: NoteChange[]; heldPhotos: PhotoChange[] } {
  let t: Ticket = ticket;
  const queuedNotes: NoteChange[] = [];
  const queuedPhotos: PhotoChange[] = [];
  const heldNotes: NoteChange[] = [];
  const heldPhotos: PhotoChange[] = [];
  for (const e of [...entries].sort((a, b) => a.id - b.id)) {
    if (e.ticketId !== ticket.id) continue;
    if (e.kind === 'note') (isHeld(e) ? heldNotes : queuedNotes).push(e);
    else if (e.kind === 'photo') (isHeld(e) ? heldPhotos : queuedPhotos).push(e);
    else if (e.state !== 'gone') {
      t = {
        ...t,
        ...e.set,
        tasks: t.tasks.map((task) => {
          const q = e.taskQty[String(task.ticket_task_id)];
          return q ? { ...task, additional_qty: q.mine } : task;
        }),
      };
    }
  }
  return { ...t, queuedNotes: queuedNotes.map((n) => n.text), queuedPhotos, heldNotes, heldPhotos };
}

/**
 * A new ticket change as written to the queue `entries` (read in the same transaction): a tap
 * that says what it saw (`seen`) is a step from there, so when the queue already holds another
 * quantity for that task (another tab's tap, not shown here yet) the step goes on top of it.
 * Two tabs each tapping + once count twice, never once.
 */
export function followQueue(entries: readonly OutboxEntry[], next: NewTicketChange): Omit<TicketChange, keyof Bookkeeping> {
  const queued = entries.filter((e): e is TicketChange => e.kind === 'ticket' && e.ticketId === next.ticketId && e.state !== 'gone').sort((a, b) => b.id - a.id);
  const taskQty: TicketChange['taskQty'] = {};
  for (const [id, { seen, ...q }] of Object.entries(next.taskQty)) {
    const now = queued.find((e) => e.taskQty[id])?.taskQty[id].mine;
    const mine = seen === undefined || now === undefined || now === seen ? q.mine : now + (q.mine - seen);
    taskQty[id] = { ...q, mine: q.init === undefined ? mine : clampAdditionalQty(q.init, mine) };
  }
  return { ...next, taskQty };
}

/**
 * Adds a change to the queue's last pending change of the same ticket when nothing else of that
 * ticket came after it: three taps on + are one change, sent once. Never into a change already
 * tried (its key and body may be on the server; the sender marks it before sending). Returns the
 * merged entry, or null when the change must be queued on its own.
 */
export function coalesce(entries: readonly OutboxEntry[], next: Omit<TicketChange, keyof Bookkeeping>): TicketChange | null {
  const sameTicket = entries.filter((e) => e.ticketId === next.ticketId).sort((a, b) => a.id - b.id);
  const last = sameTicket[sameTicket.length - 1];
  if (!last || last.kind !== 'ticket' || last.state !== 'pending' || last.attempts > 0) return null;
  return join(last, next);
}

/** `next` made on top of `first`: its values win, the first base of each field and task stays. */
function join(first: TicketChange, next: Pick<TicketChange, 'set' | 'base' | 'taskQty' | 'position'>): TicketChange {
  const base = { ...next.base, ...first.base };
  const taskQty = { ...first.taskQty };
  for (const [id, q] of Object.entries(next.taskQty)) taskQty[id] = first.taskQty[id] ? { ...first.taskQty[id], mine: q.mine } : q;
  const position = 'position' in next && next.position ? next.position : first.position;
  return { ...first, set: { ...first.set, ...next.set }, base, taskQty, ...(position ? { position } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Conflicts

export interface ConflictRow {
  /** A field name, or `task:<ticket_task_id>` for a task's quantity. */
  key: string;
  label: string;
  /** For a task, the actual quantity (bid + change): the number the phone shows. */
  theirs: unknown;
  mine: unknown;
  /** Who set their value and when (ISO), where the server says (task quantities). */
  changedBy?: string | null;
  changedAt?: string | null;
}

const FIELD_LABELS: Record<QueuedField, string> = {
  status: 'Status',
  street_address: 'Street',
  description: 'Description',
  geo_lat: 'Latitude',
  geo_lon: 'Longitude',
  due_date: 'Due date',
  assigned_to: 'Assigned to',
  ambulance_meetup: 'Ambulance meetup',
  ehasp: 'EHASP',
};

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** A task's actual quantity in my change: what the phone showed (my bid copy + my change). */
const mineActual = (q: TaskQty, task: { init_qty: number }) => actualQty(q.init ?? task.init_qty, q.mine);

/**
 * Field by field, what the office changed that I changed too. A field only I changed, or that we
 * both set to the same value, is no conflict: mine is kept without asking. Quantities are
 * compared as the phone shows them, actual (bid + change), never the change alone. A task the
 * office removed is a conflict whose "theirs" is null (keeping mine is then impossible: it is gone).
 */
export function conflictRows(e: TicketChange, theirs: Ticket): ConflictRow[] {
  const rows: ConflictRow[] = [];
  for (const f of Object.keys(e.set) as QueuedField[]) {
    const mine = e.set[f];
    const now = theirs[f];
    if (same(now, e.base[f]) || same(now, mine)) continue;
    rows.push({ key: f, label: FIELD_LABELS[f] ?? f, theirs: now, mine });
  }
  for (const [id, q] of Object.entries(e.taskQty)) {
    const task = theirs.tasks.find((t) => String(t.ticket_task_id) === id);
    const label = `Quantity of ${task?.code ?? 'a removed task'}`;
    if (!task) {
      rows.push({ key: `task:${id}`, label, theirs: null, mine: q.mine });
      continue;
    }
    const theirsNow = actualQty(task.init_qty, task.additional_qty);
    const mine = mineActual(q, task);
    if (same(theirsNow, actualQty(q.init ?? task.init_qty, q.base)) || same(theirsNow, mine)) continue;
    rows.push({ key: `task:${id}`, label, theirs: theirsNow, mine, changedBy: task.qty_changed_by_name ?? null, changedAt: task.qty_changed_at ?? null });
  }
  return rows;
}

/** The tasks of a ticket whose quantity waits on the user's choice, by ticket_task_id. */
export function tasksInConflict(entries: readonly OutboxEntry[], ticketId: number): Map<number, { entry: TicketChange; row: ConflictRow }> {
  const out = new Map<number, { entry: TicketChange; row: ConflictRow }>();
  for (const e of entries) {
    if (e.kind !== 'ticket' || e.ticketId !== ticketId || e.state !== 'conflict' || !e.theirs) continue;
    for (const row of conflictRows(e, e.theirs)) if (row.key.startsWith('task:')) out.set(Number(row.key.slice(5)), { entry: e, row });
  }
  return out;
}

/**
 * The change to send after the user chose, per conflicting field, theirs or mine: on the
 * server's version, with their value where they won (the field is then left out) and mine
 * elsewhere. Null when nothing of mine is left to send.
 */
export function resolve(e: TicketChange, theirs: Ticket, keepMine: ReadonlySet<string>): TicketChange | null {
  const rows = new Set(conflictRows(e, theirs).map((r) => r.key));
  const set: FieldValues = {};
  const base: FieldValues = {};
  for (const f of Object.keys(e.set) as QueuedField[]) {
    if (rows.has(f) && !keepMine.has(f)) continue;
    (set as Record<string, unknown>)[f] = e.set[f];
    (base as Record<string, unknown>)[f] = theirs[f];
  }
  const taskQty: TicketChange['taskQty'] = {};
  for (const [id, q] of Object.entries(e.taskQty)) {
    const task = theirs.tasks.find((t) => String(t.ticket_task_id) === id);
    if (!task) continue; // removed by the office: there is nothing to set a quantity on
    if (rows.has(`task:${id}`) && !keepMine.has(`task:${id}`)) continue;
    // Mine is the actual quantity the phone showed, kept whatever the office did to the bid.
    taskQty[id] = { mine: clampAdditionalQty(task.init_qty, mineActual(q, task) - task.init_qty), base: task.additional_qty, init: task.init_qty };
  }
  if (Object.keys(set).length === 0 && Object.keys(taskQty).length === 0) return null;
  return {
    ...e,
    set,
    base,
    taskQty,
    baseVersion: theirs.version,
    idempotencyKey: newIdempotencyKey(),
    state: 'pending',
    theirs: undefined,
    attempts: 0,
    nextAttemptAt: 0,
  };
}

/**
 * A change refused as stale (409), against the server's newer copy `theirs` and the queue
 * `entries`. A ticket change first takes in my later, never-sent changes of the same ticket (made
 * on top of it, and held behind it): what is compared is the ticket as my phone shows it, and
 * the crew chooses once. Then: re-based on their version with the same key (a note cannot
 * conflict; fields only one side changed merge without asking), dropped (`next` null: every task
 * I changed was removed, nothing of mine is left), or a conflict for the user.
 */
export function afterStale(entries: readonly OutboxEntry[], e: OutboxEntry, theirs: Ticket): { next: OutboxEntry | null; absorbed: number[] } {
  if (e.kind !== 'ticket') return { next: { ...e, baseVersion: theirs.version }, absorbed: [] };
  const later = entries
    .filter((x): x is TicketChange => x.kind === 'ticket' && x.ticketId === e.ticketId && x.id > e.id && x.state === 'pending' && x.attempts === 0)
    .sort((a, b) => a.id - b.id);
  const whole = later.reduce(join, e);
  const absorbed = later.map((x) => x.id);
  if (conflictRows(whole, theirs).length > 0) return { next: { ...whole, state: 'conflict', theirs }, absorbed };
  const mine = resolve(whole, theirs, new Set());
  return { next: mine ? { ...mine, idempotencyKey: e.idempotencyKey, attempts: e.attempts } : null, absorbed };
}

// ---------------------------------------------------------------------------------------------
// Held: what will not sync, kept on the phone (decision 038)

/** A photo refused because its ticket already holds its 10 (the office added some meanwhile). */
export function isPhotoOverLimit(e: OutboxEntry): boolean {
  return e.kind === 'photo' && e.state === 'failed' && e.code === ERROR_CODE.ticketPhotosFull;
}

/**
 * Held work a person made and may want to keep: a note or photo that will not sync, and every
 * change of a deleted ticket (written into its text file). Discard is offered only once saved.
 */
export function isSavable(e: OutboxEntry): boolean {
  return e.state === 'gone' || (e.state === 'failed' && e.kind !== 'ticket');
}

export function mayDiscard(e: OutboxEntry): boolean {
  return !isSavable(e) || e.savedAt != null;
}

/**
 * The ticket was deleted (a send answered 404): every change of mine to it is gone at once, so
 * the queue shows them all together (not one after the other as each is tried).
 */
export function markTicketGone(entries: readonly OutboxEntry[], ticketId: number): OutboxEntry[] {
  return entries.filter((e) => e.ticketId === ticketId && e.state !== 'gone').map((e) => ({ ...e, state: 'gone' as const, error: undefined, code: undefined }));
}

/** A held photo sent again (a photo of the ticket was removed to make room): new key, uploaded anew. */
export function retried(e: PhotoChange): PhotoChange {
  // The server removed the bytes of the refused photo, and stored its refusal under the old key.
  return { ...e, state: 'pending', error: undefined, code: undefined, uploadedUrl: undefined, attempts: 0, nextAttemptAt: 0, idempotencyKey: newIdempotencyKey() };
}

/**
 * Photos as the ticket shows them, never past the limit: the server's, then my waiting ones while
 * there is room; a waiting photo beyond the room left (the office filled the ticket) will be
 * refused, so it is shown with the held ones, not as waiting.
 */
export function photoRoom(onServer: number, waiting: readonly PhotoChange[], limit: number = LIMITS.imagesPerTicket) {
  const room = Math.max(0, limit - onServer);
  const fitting = waiting.slice(0, room);
  return { count: Math.min(limit, onServer) + fitting.length, fitting, over: waiting.slice(room), full: onServer + fitting.length >= limit };
}

const plural = (n: number, one: string, many: string) => (n === 1 ? one : `${n} ${many}`);

/** "Your note and photo are still on this phone." for a deleted ticket's held notes and photos. */
export function heldSummary(notes: number, photos: number): string {
  const parts = [notes ? plural(notes, 'note', 'notes') : '', photos ? plural(photos, 'photo', 'photos') : ''].filter(Boolean);
  if (parts.length === 0) return '';
  return `Your ${parts.join(' and ')} ${notes + photos === 1 ? 'is' : 'are'} still on this phone.`;
}

/** A file name a person recognises: `Pole-12-Line-L7-photo-3.jpg`. */
export function heldPhotoName(e: PhotoChange): string {
  const pole = e.label.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || `ticket-${e.ticketId}`;
  const ext = /\.(jpe?g|png|gif|webp|avif|heic)$/i.exec(e.fileName)?.[0] ?? '.jpg';
  return `${pole}-photo-${e.id}${ext.toLowerCase()}`;
}

/**
 * The text file "Save all to this device" writes per ticket: its notes word for word and the
 * other changes in words, each with when it was made. `describe` names a ticket change.
 */
export function heldText(entries: readonly OutboxEntry[], describe: (e: TicketChange) => string, when: (ms: number) => string): string {
  const sorted = [...entries].sort((a, b) => a.id - b.id);
  const lines = [sorted[0]?.label ?? '', ''];
  for (const e of sorted) {
    if (e.kind === 'note') lines.push(`Note, ${when(e.createdAt)}:`, e.text, '');
    else if (e.kind === 'photo') lines.push(`Photo ${e.fileName}, ${when(e.createdAt)}: saved beside this file as ${heldPhotoName(e)}`, '');
    else lines.push(`Change, ${when(e.createdAt)}: ${describe(e)}`, '');
  }
  return lines.join('\n');
}
