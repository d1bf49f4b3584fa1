import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../shared/tickets.schemas';
import {
  afterStale,
  backoffMs,
  coalesce,
  followQueue,
  conflictRows,
  heldPhotoName,
  heldSummary,
  heldText,
  isPhotoOverLimit,
  isSavable,
  markTicketGone,
  mayDiscard,
  newIdempotencyKey,
  photoRoom,
  rebase,
  resolve,
  retried,
  sendable,
  nextToSend,
  tasksInConflict,
  ticketSaveOf,
  withQueued,
  type NoteChange,
  type OutboxEntry,
  type PhotoChange,
  type TicketChange,
} from './outboxLogic';
import { isHeld, queueCounts, statusText } from './outboxStatus';
import { ERROR_CODE } from '../../shared/error-codes';

const task = (id: number, additional: number, code = `U${id}`) => ({
  ticket_task_id: id,
  task_id: 100 + id,
  code,
  description: '',
  family: '',
  type: '',
  uom: 'EA',
  action: '',
  date_completed: null,
  init_qty: 3,
  additional_qty: additional,
});

const ticket = (over: Partial<Ticket> = {}): Ticket =>
  ({
    id: 7,
    job_id: 1,
    version: 4,
    status: 'Pending',
    street_address: '1 Main St',
    description: null,
    geo_lat: null,
    geo_lon: null,
    due_date: null,
    assigned_to: null,
    ambulance_meetup: null,
    ehasp: null,
    tasks: [task(1, 0), task(2, 1)],
    notes: [],
    images: [],
    ...over,
  }) as Ticket;

let nextId = 1;
function change(over: Partial<TicketChange> = {}): TicketChange {
  return {
    kind: 'ticket',
    id: nextId++,
    userId: 1,
    ticketId: 7,
    jobId: 1,
    label: 'P1 · L1',
    baseVersion: 4,
    idempotencyKey: 'k',
    createdAt: 0,
    attempts: 0,
    nextAttemptAt: 0,
    state: 'pending',
    set: {},
    base: {},
    taskQty: {},
    ...over,
  };
}
const note = (over: Partial<NoteChange> = {}): NoteChange => ({ ...change(), kind: 'note', text: 'hi', ...over }) as NoteChange;
const photo = (over: Partial<PhotoChange> = {}): PhotoChange =>
  ({ ...change(), kind: 'photo', blob: new Blob(['x']), fileName: 'IMG_1.jpg', takenAt: null, lat: null, lon: null, ...over }) as PhotoChange;
const full = { state: 'failed' as const, code: ERROR_CODE.ticketPhotosFull, error: 'full' };

describe('backoff', () => {
  it('doubles from one second up to five minutes, with jitter of at most a fifth either way', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4, 10, 30].map((a) => backoffMs(a, mid))).toEqual([1000, 2000, 4000, 8000, 300_000, 300_000]);
    expect(backoffMs(1, () => 0)).toBe(800);
    expect(backoffMs(1, () => 0.999999)).toBe(1200);
  });
});

describe('sendable: the order of the queue', () => {
  it('sends oldest first, and a conflict or a deleted ticket holds back only the later changes of that ticket', () => {
    const a = change({ id: 1, ticketId: 7, state: 'conflict' });
    const b = note({ id: 2, ticketId: 7 });
    const c = note({ id: 3, ticketId: 8 });
    const d = note({ id: 4, ticketId: 9, state: 'gone' });
    const e = note({ id: 5, ticketId: 9 });
    expect(sendable([e, c, d, b, a], 0).map((x) => x.id)).toEqual([3]);
  });

  it('a refused change never blocks the rest of the queue, even of the same ticket', () => {
    const a = change({ id: 1, state: 'failed', error: 'Bad' });
    const b = note({ id: 2 });
    expect(sendable([a, b], 0).map((x) => x.id)).toEqual([2]);
  });

  it('waits out a backoff, and keeps the order of a ticket behind a change that is waiting', () => {
    const a = change({ id: 1, ticketId: 7, nextAttemptAt: 5000 });
    const b = note({ id: 2, ticketId: 7 });
    const c = note({ id: 3, ticketId: 8 });
    expect(sendable([a, b, c], 1000).map((x) => x.id)).toEqual([3]);
    expect(sendable([a, b, c], 5000).map((x) => x.id)).toEqual([1, 2, 3]);
  });
});

describe('nextToSend: several tickets at once, one change of a ticket at a time', () => {
  it("starts the oldest change of each ticket, oldest first, never a ticket's second change beside its first", () => {
    const q = [note({ id: 1, ticketId: 7 }), note({ id: 2, ticketId: 7 }), note({ id: 3, ticketId: 8 }), change({ id: 4, ticketId: 9 }), note({ id: 5, ticketId: 8 })];
    expect(nextToSend(q, 0, new Set()).map((x) => x.id)).toEqual([1, 3, 4]);
    // Ticket 7's first change is on its way (still in the queue, claimed): its second waits.
    expect(nextToSend(q, 0, new Set([7])).map((x) => x.id)).toEqual([3, 4]);
    expect(nextToSend(q, 0, new Set([7, 8, 9])).map((x) => x.id)).toEqual([]);
  });

  it('keeps at most `max` on their way, those already going included', () => {
    const q = [10, 11, 12, 13, 14, 15].map((t, i) => note({ id: i + 1, ticketId: t }));
    expect(nextToSend(q, 0, new Set()).map((x) => x.id)).toEqual([1, 2, 3, 4]);
    expect(nextToSend(q, 0, new Set([10, 11, 12]), new Map(), 4).map((x) => x.id)).toEqual([4]);
    expect(nextToSend(q, 0, new Set([10, 11]), new Map(), 2)).toEqual([]);
  });

  it('tickets take turns: one that had no change started yet goes first, then the one that waited longest', () => {
    const q = [note({ id: 1, ticketId: 7 }), note({ id: 2, ticketId: 7 }), note({ id: 3, ticketId: 8 }), note({ id: 4, ticketId: 9 }), note({ id: 5, ticketId: 8 })];
    // Ticket 7 had a change started just now (turn 3), 8 before it (turn 1); 9 never had one.
    expect(nextToSend(q, 0, new Set(), new Map([[7, 3], [8, 1]]), 2).map((x) => x.id)).toEqual([4, 3]);
    expect(nextToSend(q, 0, new Set(), new Map([[7, 1], [8, 3], [9, 2]])).map((x) => x.id)).toEqual([1, 4, 3]);
  });

  it('follows sendable: a conflict, a deleted ticket or a backoff holds back that ticket only', () => {
    const q = [change({ id: 1, ticketId: 7, state: 'conflict' }), note({ id: 2, ticketId: 7 }), note({ id: 3, ticketId: 8, nextAttemptAt: 5000 }), note({ id: 4, ticketId: 8 }), note({ id: 5, ticketId: 9 })];
    expect(nextToSend(q, 1000, new Set()).map((x) => x.id)).toEqual([5]);
  });
});

describe('rebase: my later changes follow my earlier one', () => {
  it('moves my later changes of the same ticket to the new version, each keeping its key (the same change: a replay is recognised)', () => {
    const first = change({ id: 1, baseVersion: 4 });
    const later = note({ id: 2, baseVersion: 4, idempotencyKey: 'kept' });
    const other = note({ id: 3, ticketId: 8, baseVersion: 4 });
    const out = rebase([first, later, other], first, 4, 5);
    expect(out).toEqual([{ ...later, baseVersion: 5, idempotencyKey: 'kept' }]);
  });

  it('leaves a change made on a copy I did not change (a later read) alone', () => {
    const first = change({ id: 1, baseVersion: 4 });
    const later = note({ id: 2, baseVersion: 9 });
    expect(rebase([first, later], first, 4, 5)).toEqual([]);
  });
});

describe('what is sent', () => {
  it('a task quantity sends every task (the server replaces the list), mine with my quantity, and the version', () => {
    const e = change({ taskQty: { '2': { mine: 4, base: 1 } }, set: { status: 'Complete' } });
    expect(ticketSaveOf(e, ticket())).toEqual({
      id: 7,
      job_id: 1,
      version: 4,
      status: 'Complete',
      tasks: [
        { ticket_task_id: 1, task_id: 101, init_qty: 3, additional_qty: 0 },
        { ticket_task_id: 2, task_id: 102, init_qty: 3, additional_qty: 4 },
      ],
    });
  });

  it('Mark complete sends the position taken at the tap with the save, and keeps it when later taps join the change (docs/product/records.md §6)', () => {
    const position = { completed_lat: 42.1, completed_lon: -72.6, completed_accuracy_m: 12 };
    const e = change({ set: { status: 'Complete' }, position });
    expect(ticketSaveOf(e, ticket())).toEqual({ id: 7, job_id: 1, version: 4, status: 'Complete', ...position });
    const joined = coalesce([e], { ...e, set: { description: 'later' }, base: {}, taskQty: {}, position: undefined });
    expect(ticketSaveOf(joined!, ticket())).toMatchObject(position);
    // Reopened before it was sent: no position goes with a Pending save.
    expect(ticketSaveOf(change({ set: { status: 'Pending' }, position }), ticket())).toEqual({ id: 7, job_id: 1, version: 4, status: 'Pending' });
  });

  it('a note sends only the note (notes are appended)', () => {
    expect(ticketSaveOf(note({ text: 'Pole leaning' }), null)).toEqual({ id: 7, job_id: 1, version: 4, notes: [{ note_text: 'Pole leaning' }] });
  });

  it('the phone shows the ticket with my queued changes on top', () => {
    const shown = withQueued(ticket(), [change({ id: 1, set: { status: 'Complete' }, taskQty: { '1': { mine: 2, base: 0 } } }), note({ id: 2, text: 'n1' }), note({ id: 3, ticketId: 8 })]);
    expect(shown.status).toBe('Complete');
    expect(shown.tasks.map((t) => t.additional_qty)).toEqual([2, 1]);
    expect(shown.queuedNotes).toEqual(['n1']);
  });

  it('three taps on + are one change: a ticket change joins the last unsent one of that ticket, keeping the first base', () => {
    const first = change({ id: 1, taskQty: { '1': { mine: 1, base: 0 } } });
    const merged = coalesce([first], { ...change({ taskQty: { '1': { mine: 2, base: 1 } }, set: { status: 'Complete' }, base: { status: 'Pending' } }) });
    expect(merged).toMatchObject({ id: 1, taskQty: { '1': { mine: 2, base: 0 } }, set: { status: 'Complete' }, base: { status: 'Pending' } });
    // Not after a note of the same ticket (order), nor onto a change already tried (its key is in use).
    expect(coalesce([first, note({ id: 2 })], change())).toBeNull();
    expect(coalesce([change({ id: 3, attempts: 1 })], change())).toBeNull();
  });

  it('keys are 32 hex characters and differ', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

describe('two tabs, one queue: a tap counts on top of what the queue holds', () => {
  const tap = (seen: number, over: Partial<TicketChange> = {}) => ({ ...change(over), taskQty: { '1': { mine: seen + 1, base: 0, init: 3, seen } } });

  it('a + from a tab that has not shown the other tab\'s + yet still counts: both taps are in the queue', () => {
    // Tab one tapped + (0 → 1) and then wrote a note; tab two, still showing 0, taps +.
    const queued = [change({ id: 1, taskQty: { '1': { mine: 1, base: 0, init: 3 } } }), note({ id: 2 })];
    const next = followQueue(queued, tap(0));
    expect(next.taskQty).toEqual({ '1': { mine: 2, base: 0, init: 3 } });
    // Written after the note, it is a change of its own (order); after a tap it joins it.
    expect(coalesce(queued, next)).toBeNull();
    expect(coalesce([queued[0]], followQueue([queued[0]], tap(0)))!.taskQty).toEqual({ '1': { mine: 2, base: 0, init: 3 } });
  });

  it('a tap from a tab that shows the queue as it is, or a typed value (no `seen`), is taken as it is', () => {
    const queued = [change({ id: 1, taskQty: { '1': { mine: 1, base: 0, init: 3 } } })];
    expect(followQueue(queued, tap(1)).taskQty['1'].mine).toBe(2);
    expect(followQueue(queued, { ...change(), taskQty: { '1': { mine: 7, base: 0 } } }).taskQty['1'].mine).toBe(7);
    // Nothing queued for the task: the tab's number is the server's.
    expect(followQueue([], tap(0)).taskQty['1'].mine).toBe(1);
  });

  it('a − never takes the actual quantity below zero, even on top of another tab\'s −', () => {
    const queued = [change({ id: 1, taskQty: { '1': { mine: -3, base: 0, init: 3 } } })];
    const minus = { ...change(), taskQty: { '1': { mine: -1, base: 0, init: 3, seen: 0 } } };
    expect(followQueue(queued, minus).taskQty['1'].mine).toBe(-3);
  });

  it('a note refused as stale is re-based on the new version with the same key; a ticket change with nothing in conflict too', () => {
    const n = note({ idempotencyKey: 'note-key', baseVersion: 4, attempts: 1 });
    expect(afterStale([n], n, ticket({ version: 6 }))).toEqual({ next: { ...n, baseVersion: 6 }, absorbed: [] });
    const c = change({ idempotencyKey: 'change-key', attempts: 1, taskQty: { '1': { mine: 2, base: 0, init: 3 } } });
    expect(afterStale([c], c, ticket({ version: 6, description: 'office' })).next).toMatchObject({
      state: 'pending',
      idempotencyKey: 'change-key',
      baseVersion: 6,
      taskQty: { '1': { mine: 2, base: 0, init: 3 } },
    });
    expect(afterStale([c], c, ticket({ version: 6, tasks: [task(1, 4)] })).next).toMatchObject({ state: 'conflict', idempotencyKey: 'change-key' });
    expect(afterStale([c], c, ticket({ version: 6, tasks: [task(2, 1)] })).next).toMatchObject({ state: 'conflict' });
  });

  it('refused as stale, a change takes in my later unsent taps of the ticket: the conflict shows what the phone shows, asked once', () => {
    // + tried once (no signal), then + + queued behind it: the phone shows bid 3 + 3.
    const tried = change({ id: 1, attempts: 1, taskQty: { '1': { mine: 1, base: 0, init: 3 } } });
    const n = note({ id: 2 });
    const later = change({ id: 3, taskQty: { '1': { mine: 3, base: 0, init: 3 } }, set: { status: 'Complete' }, base: { status: 'Pending' } });
    const other = change({ id: 4, ticketId: 8, taskQty: { '1': { mine: 9, base: 0 } } });
    const { next, absorbed } = afterStale([tried, n, later, other], tried, ticket({ version: 6, tasks: [task(1, 2)] }));
    expect(absorbed).toEqual([3]);
    expect(next).toMatchObject({ id: 1, state: 'conflict', set: { status: 'Complete' }, taskQty: { '1': { mine: 3, base: 0, init: 3 } } });
    expect(conflictRows(next as TicketChange, ticket({ tasks: [task(1, 2)] })).map((r) => [r.theirs, r.mine])).toEqual([[5, 6]]);
  });
});

describe('conflicts: theirs and mine, field by field', () => {
  const mine = change({
    set: { status: 'Complete', street_address: '2 Oak St' },
    base: { status: 'Pending', street_address: '1 Main St' },
    taskQty: { '1': { mine: 2, base: 0 }, '2': { mine: 5, base: 1 } },
  });

  it('only fields both of us changed to different values are asked about', () => {
    // They changed the street (I did too), task 2 (I did too) and the description (I did not).
    const theirs = ticket({ version: 6, street_address: '9 Elm St', description: 'office', tasks: [task(1, 0), task(2, 3)] });
    // Quantities as the phone shows them: bid 3 + change (theirs 3, mine 5), never the change alone.
    expect(conflictRows(mine, theirs)).toEqual([
      { key: 'street_address', label: 'Street', theirs: '9 Elm St', mine: '2 Oak St' },
      { key: 'task:2', label: 'Quantity of U2', theirs: 6, mine: 8, changedBy: null, changedAt: null },
    ]);
  });

  it('a quantity row says who set theirs and when, and compares the actual quantities even when the office changed the bid', () => {
    const e = change({ taskQty: { '1': { mine: 1, base: 0, init: 3 } } }); // the phone showed 3 → 4
    const stamped = { qty_changed_by_name: 'Olivia Office', qty_changed_at: '2026-11-23T15:42:00.000Z' };
    // The office raised the bid to 4 and left the change: actual 4, the same as mine: nothing to ask.
    expect(conflictRows(e, ticket({ tasks: [{ ...task(1, 0), init_qty: 4, ...stamped }] }))).toEqual([]);
    // The office set the bid to 2 and the change to 3: actual 5 against my 4.
    expect(conflictRows(e, ticket({ tasks: [{ ...task(1, 3), init_qty: 2, ...stamped }] }))).toEqual([
      { key: 'task:1', label: 'Quantity of U1', theirs: 5, mine: 4, changedBy: 'Olivia Office', changedAt: '2026-11-23T15:42:00.000Z' },
    ]);
    // Keeping mine keeps the actual quantity I set (4 on a bid of 2: a change of 2).
    const kept = resolve(e, ticket({ version: 6, tasks: [{ ...task(1, 3), init_qty: 2 }] }), new Set(['task:1']))!;
    expect(kept.taskQty).toEqual({ '1': { mine: 2, base: 3, init: 2 } });
  });

  it('the phone marks the tasks that wait on a choice', () => {
    const theirs = ticket({ version: 6, street_address: '9 Elm St', tasks: [task(1, 0), task(2, 3)] });
    const marked = tasksInConflict([{ ...mine, state: 'conflict', theirs }, note({ ticketId: 7 })], 7);
    expect([...marked.keys()]).toEqual([2]);
    expect(marked.get(2)!.row).toMatchObject({ theirs: 6, mine: 8 });
    expect(tasksInConflict([{ ...mine, state: 'conflict', theirs }], 8).size).toBe(0);
    expect(tasksInConflict([mine], 7).size).toBe(0);
  });

  it('a task the office removed is a conflict with nothing on their side', () => {
    const theirs = ticket({ version: 6, tasks: [task(2, 1)] });
    expect(conflictRows(mine, theirs)).toEqual([{ key: 'task:1', label: 'Quantity of a removed task', theirs: null, mine: 2 }]);
  });

  it('resolving keeps mine where chosen, theirs elsewhere, on their version with a new key', () => {
    const theirs = ticket({ version: 6, street_address: '9 Elm St', tasks: [task(1, 0), task(2, 3)] });
    const out = resolve(mine, theirs, new Set(['task:2']))!;
    expect(out).toMatchObject({ baseVersion: 6, state: 'pending', attempts: 0 });
    expect(out.idempotencyKey).not.toBe(mine.idempotencyKey);
    // Street: theirs won, so it is not sent; status had no conflict: mine.
    expect(out.set).toEqual({ status: 'Complete' });
    expect(out.taskQty).toEqual({ '1': { mine: 2, base: 0, init: 3 }, '2': { mine: 5, base: 3, init: 3 } });
    expect(ticketSaveOf(out, theirs).tasks!.map((t) => t.additional_qty)).toEqual([2, 5]);
  });

  it('choosing theirs everywhere leaves nothing to send when every field was in conflict', () => {
    const e = change({ set: { street_address: 'A' }, base: { street_address: 'B' } });
    expect(resolve(e, ticket({ street_address: 'C' }), new Set())).toBeNull();
  });

  it('ordering, conflict and resolve together: the held-back note goes once the conflict is resolved', () => {
    const c = change({ ...mine, id: 1, state: 'conflict' });
    const n = note({ id: 2 });
    const entries: OutboxEntry[] = [c, n];
    expect(sendable(entries, 0)).toEqual([]);
    const theirs = ticket({ version: 6, street_address: '9 Elm St', tasks: [task(1, 0), task(2, 3)] });
    const resolved = resolve(c as TicketChange, theirs, new Set())!;
    expect(sendable([resolved, n], 0).map((e) => e.id)).toEqual([1, 2]);
  });
});

describe('the status line', () => {
  it('says offline, what is waiting, both, or that everything went', () => {
    expect(statusText({ online: false, waiting: 0, synced: false })).toBe('Offline');
    expect(statusText({ online: false, waiting: 3, synced: false })).toBe('Offline · 3 changes waiting to sync');
    expect(statusText({ online: true, waiting: 1, synced: true })).toBe('1 change waiting to sync');
    expect(statusText({ online: true, waiting: 0, synced: true })).toBe('All changes synced');
    expect(statusText({ online: true, waiting: 0, synced: false })).toBe('');
  });
});

describe('held: what will not sync is kept on the phone, never counted as waiting', () => {
  it('a refused or deleted change is held; waiting counts the rest, a conflict included', () => {
    const entries: OutboxEntry[] = [note({ state: 'pending' }), change({ state: 'conflict' }), photo(full), note({ state: 'gone' })];
    expect(entries.map(isHeld)).toEqual([false, false, true, true]);
    expect(queueCounts(entries)).toEqual({ waiting: 2, needsYou: 3 });
  });

  it('the status line names held changes as needing you, never as waiting', () => {
    expect(statusText({ online: true, waiting: 0, needsYou: 2, synced: true })).toBe('2 changes need you');
    expect(statusText({ online: true, waiting: 0, needsYou: 1, synced: false })).toBe('1 change needs you');
    expect(statusText({ online: true, waiting: 1, needsYou: 1, synced: false })).toBe('1 change waiting to sync · 1 needs you');
    expect(statusText({ online: false, waiting: 1, needsYou: 2, synced: false })).toBe('Offline · 1 change waiting to sync · 2 need you');
    expect(statusText({ online: false, waiting: 0, needsYou: 1, synced: false })).toBe('Offline · 1 change needs you');
  });

  it('the ticket shows held notes and photos apart from those waiting to sync', () => {
    const shown = withQueued(ticket(), [note({ id: 1, text: 'sent later' }), note({ id: 2, text: 'kept', state: 'gone' }), photo({ id: 3 }), photo({ id: 4, ...full })]);
    expect(shown.queuedNotes).toEqual(['sent later']);
    expect(shown.heldNotes.map((n) => n.text)).toEqual(['kept']);
    expect(shown.queuedPhotos.map((p) => p.id)).toEqual([3]);
    expect(shown.heldPhotos.map((p) => p.id)).toEqual([4]);
  });

  it('only a photo refused for the limit is over the limit', () => {
    expect(isPhotoOverLimit(photo(full))).toBe(true);
    expect(isPhotoOverLimit(photo({ state: 'failed', error: 'not an image' }))).toBe(false);
    expect(isPhotoOverLimit(note({ ...full }))).toBe(false);
  });

  it("held notes and photos, and a deleted ticket's changes, may be discarded only once saved", () => {
    expect(isSavable(photo(full))).toBe(true);
    expect(isSavable(note({ state: 'gone' }))).toBe(true);
    expect(isSavable(change({ state: 'gone' }))).toBe(true);
    expect(isSavable(change({ state: 'failed' }))).toBe(false);
    expect(isSavable(note())).toBe(false);
    expect(mayDiscard(photo(full))).toBe(false);
    expect(mayDiscard(photo({ ...full, savedAt: 5 }))).toBe(true);
    expect(mayDiscard(note())).toBe(true);
    expect(mayDiscard(change({ state: 'conflict' }))).toBe(true);
  });

  it('a deleted ticket holds every change of mine to it at once, and no other', () => {
    const entries: OutboxEntry[] = [note({ id: 1, ticketId: 7, state: 'gone', error: 'That ticket does not exist, or it belongs to another company.' }), photo({ id: 2, ticketId: 7 }), change({ id: 3, ticketId: 7 }), note({ id: 4, ticketId: 8 })];
    const gone = markTicketGone(entries, 7);
    expect(gone.map((e) => [e.id, e.state])).toEqual([
      [2, 'gone'],
      [3, 'gone'],
    ]);
    expect(gone.every((e) => e.error === undefined)).toBe(true);
  });

  it('a photo sent again after a photo of the ticket was removed: pending, a new key, uploaded anew', () => {
    const held = photo({ ...full, idempotencyKey: 'old', uploadedUrl: '/files/x.jpg', attempts: 2, nextAttemptAt: 9 });
    const again = retried(held);
    expect(again).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: 0 });
    expect([again.code, again.error, again.uploadedUrl]).toEqual([undefined, undefined, undefined]);
    expect(again.idempotencyKey).not.toBe('old');
  });
});

describe('photo room: never past 10', () => {
  const waiting = (n: number) => Array.from({ length: n }, (_, i) => photo({ id: 100 + i }));

  it('my waiting photos count while there is room', () => {
    const r = photoRoom(8, waiting(2));
    expect([r.count, r.fitting.length, r.over.length, r.full]).toEqual([10, 2, 0, true]);
    expect(photoRoom(3, waiting(1))).toMatchObject({ count: 4, full: false });
  });

  it('waiting photos beyond the room left are over, and the count stops at 10', () => {
    const r = photoRoom(10, waiting(3));
    expect([r.count, r.fitting.length, r.over.map((p) => p.id), r.full]).toEqual([10, 0, [100, 101, 102], true]);
    expect(photoRoom(9, waiting(3)).over.map((p) => p.id)).toEqual([101, 102]);
  });
});

describe('saving held work to the phone', () => {
  it('says what is still on the phone in field words', () => {
    expect(heldSummary(1, 1)).toBe('Your note and photo are still on this phone.');
    expect(heldSummary(1, 0)).toBe('Your note is still on this phone.');
    expect(heldSummary(2, 3)).toBe('Your 2 notes and 3 photos are still on this phone.');
    expect(heldSummary(0, 2)).toBe('Your 2 photos are still on this phone.');
    expect(heldSummary(0, 0)).toBe('');
  });

  it('names a photo after its pole', () => {
    expect(heldPhotoName(photo({ id: 12, label: 'Pole P-12 · Line L7', fileName: 'IMG_1.JPG' }))).toBe('Pole-P-12-Line-L7-photo-12.jpg');
    expect(heldPhotoName(photo({ id: 3, label: '··', ticketId: 9, fileName: 'blob' }))).toBe('ticket-9-photo-3.jpg');
  });

  it('writes the notes word for word and the other changes in words, oldest first', () => {
    const text = heldText(
      [note({ id: 2, label: 'Pole P1 · Line L1', text: 'Crossarm cracked\nsecond line', createdAt: 2 }), change({ id: 1, createdAt: 1 }), photo({ id: 3, label: 'Pole P1 · Line L1', createdAt: 3 })],
      () => 'Mark complete',
      (ms) => `t${ms}`,
    );
    expect(text).toBe(
      ['P1 · L1', '', 'Change, t1: Mark complete', '', 'Note, t2:', 'Crossarm cracked\nsecond line', '', 'Photo IMG_1.jpg, t3: saved beside this file as Pole-P1-Line-L1-photo-3.jpg', ''].join('\n'),
    );
  });
});
