import { IDEMPOTENCY_KEY_HEADER } from '../../shared/constants';
import { ERROR_CODE, type ErrorCode } from '../../shared/error-codes';
import type { ImageCompleteReply, Ticket, TicketSaveReply } from '../../shared/tickets.schemas';
import { ApiError, apiFetch } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { getTicket } from '../api/ticket';
import { offlineDb } from './db';
import type { Queue } from './outbox';
import { ownerOf } from './waiting';
import {
  afterStale,
  backoffMs,
  coalesce,
  followQueue,
  markTicketGone,
  newIdempotencyKey,
  nextToSend,
  rebase,
  resolve,
  retried,
  sendable,
  ticketSaveOf,
  type NewEntry,
  type OutboxEntry,
} from './outboxLogic';

/**
 * The outbox's sending and changing (docs/product/field-mode.md §5, decision 037): queuing a
 * change, sending the queue, and what each reply does to it. Loaded by outbox.ts the first time
 * there is something to queue or send, so My Work's first load carries only the queue as stored
 * (its count, the status line) and not this file with the rules it needs (outboxLogic.ts).
 */

type Outcome = 'done' | 'retry' | 'stop';

/** What one transaction writes to the queue. */
interface Writes {
  put?: OutboxEntry[];
  add?: Omit<OutboxEntry, 'id'>;
  remove?: number[];
}

/**
 * Reads the user's queue and writes what `decide` makes of it, in one IndexedDB transaction
 * (transactions on one store run one after the other, across tabs): a change is decided on the
 * queue as it is, never on this tab's picture of it. Then tells the other tabs, and shows the
 * queue as this transaction left it (read and written here: not read a second time). `sent`:
 * a change reached the server.
 */
async function write(q: Queue, userId: number, decide: (entries: OutboxEntry[]) => Writes, sent = false): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction('outbox', 'readwrite');
  const seq = q.nextSeq();
  const entries = (await tx.store.index('byUser').getAll(userId)).sort((a, b) => a.id - b.id);
  const w = decide(entries);
  const puts = w.put ?? [];
  const removed = new Set(w.remove ?? []);
  const writes: Promise<unknown>[] = [...puts.map((e) => tx.store.put(e)), ...[...removed].map((id) => tx.store.delete(id))];
  const added = w.add ? tx.store.add(w.add as OutboxEntry) : null;
  const [addedId] = await Promise.all([added, ...writes, tx.done]);
  const wrote = puts.length > 0 || removed.size > 0 || added !== null;
  if (wrote) q.tellChanged(userId, sent);
  if (userId !== q.userId) return;
  const now = new Map(entries.map((e) => [e.id, e]));
  for (const e of puts) now.set(e.id, e);
  for (const id of removed) now.delete(id);
  if (w.add && typeof addedId === 'number') now.set(addedId, { ...w.add, id: addedId } as OutboxEntry);
  q.show(seq, [...now.values()].sort((a, b) => a.id - b.id), sent ? { synced: true } : {});
}

/** Replaces one entry by what `next` makes of it as stored now (nothing when it was discarded meanwhile). */
function patch(q: Queue, e: OutboxEntry, next: (stored: OutboxEntry) => OutboxEntry) {
  return write(q, e.userId, (entries) => {
    const stored = entries.find((x) => x.id === e.id);
    return stored ? { put: [next(stored)] } : {};
  });
}

/** The bookkeeping a new entry gets from the store. */
type Fresh = 'id' | 'idempotencyKey' | 'createdAt' | 'attempts' | 'nextAttemptAt' | 'state';

/**
 * Queues a change; a ticket change joins the ticket's last unsent one when it can. `held`
 * keeps it on the phone unsent, as refused with that code (a photo over the ticket's 10).
 */
export async function add(q: Queue, entry: NewEntry, held?: { code: ErrorCode; error: string }): Promise<void> {
  const fresh = (e: Omit<OutboxEntry, Fresh>, state: Pick<OutboxEntry, 'state'> & Partial<Pick<OutboxEntry, 'code' | 'error'>>) =>
    ({ ...e, owner: ownerOf(e.userId), idempotencyKey: newIdempotencyKey(), createdAt: Date.now(), attempts: 0, nextAttemptAt: 0, ...state }) as Omit<OutboxEntry, 'id'>;
  await write(q, entry.userId, (entries) => {
    const next = entry.kind === 'ticket' ? followQueue(entries, entry) : entry;
    if (held) return { add: fresh(next, { state: 'failed', ...held }) };
    // A change to a ticket known to be deleted joins its other held changes: it could never go.
    if (entries.some((x) => x.ticketId === entry.ticketId && x.state === 'gone')) return { add: fresh(next, { state: 'gone' }) };
    const joined = next.kind === 'ticket' ? coalesce(entries, next) : null;
    return joined ? { put: [joined] } : { add: fresh(next, { state: 'pending' }) };
  });
  void q.flush();
}

/**
 * A photo held at the ticket's limit takes the place of one of the ticket's photos: that one is
 * deleted on the server (needs a connection; throws ApiError if refused), then the held photo
 * is sent again.
 */
export async function replacePhoto(q: Queue, entryId: number, imageId: number) {
  const e = q.getSnapshot().entries.find((x) => x.id === entryId);
  if (!e || e.kind !== 'photo') return;
  try {
    await apiFetch(`/tickets/images/${imageId}`, { method: 'DELETE', headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } });
  } catch (err) {
    // Already deleted (by a first tap whose answer was lost, or by the office): there is room.
    if (!(err instanceof ApiError && err.status === 404)) throw err;
  }
  await patch(q, e, (x) => (x.kind === 'photo' ? retried(x) : x));
  void q.qc?.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
  await q.flush();
}

/** The user chose, per conflicting field, theirs or mine (the keys of conflictRows kept as mine). */
export async function resolveConflict(q: Queue, id: number, keepMine: ReadonlySet<string>) {
  const e = q.getSnapshot().entries.find((x) => x.id === id);
  if (!e || e.kind !== 'ticket' || !e.theirs) return;
  const next = resolve(e, e.theirs, keepMine);
  await write(q, e.userId, () => (next ? { put: [next] } : { remove: [id] }));
  void q.flush();
}

/** Takes a change out of the queue. */
export async function discard(q: Queue, id: number) {
  if (q.userId === null) return;
  await write(q, q.userId, () => ({ remove: [id] }));
}

/** The user saved these held changes to the device: from now on they may be discarded. */
export async function markSaved(q: Queue, ids: readonly number[]) {
  if (q.userId === null) return;
  const at = Date.now();
  await write(q, q.userId, (entries) => ({ put: entries.filter((e) => ids.includes(e.id)).map((e) => ({ ...e, savedAt: at })) }));
}

/** The network is back: whatever was waiting on a backoff timer goes now. */
export async function sendNow(q: Queue) {
  if (q.userId === null) return;
  await write(q, q.userId, (entries) => ({
    put: entries.filter((e) => e.state === 'pending' && e.nextAttemptAt > 0).map((e) => ({ ...e, nextAttemptAt: 0 })),
  }));
  await q.flush();
}

/**
 * One run of the sender (outbox.ts `flush` holds the lock around it): sends what can be sent
 * now, oldest first, several tickets at once (at most SENDERS changes on their way), each
 * ticket's changes one after the other in the order they were made.
 */
export async function run(q: Queue) {
  // Known to be offline: nothing is tried (a try would count as an attempt, and a change
  // tried once is never merged with the next tap: its body may already be on the server).
  if (q.userId === null || !q.qc || !q.getSnapshot().online) return;
  q.publish({ syncing: true });
  /** The changes on their way, by ticket. */
  const sending = new Map<number, Promise<void>>();
  /** When each ticket last had a change started (nextToSend: tickets take turns). */
  const turns = new Map<number, number>();
  let started = 0;
  let stop = false;
  let failure: unknown = null;
  try {
    // The queue as it is now: another tab may have sent, added or discarded changes. From here
    // on this tab's writes show the queue as they leave it, and the other tabs' reach it by the
    // channel; each claim checks the change against the queue as stored.
    await q.reload();
    for (;;) {
      if (!stop && q.getSnapshot().online) {
        for (const e of nextToSend(q.getSnapshot().entries, Date.now(), new Set(sending.keys()), turns)) {
          turns.set(e.ticketId, ++started);
          const going = sendOne(q, e).then(
            (outcome) => {
              if (outcome === 'stop') stop = true;
            },
            (err: unknown) => {
              // Not a refusal (send() keeps those on the change): the queue itself failed.
              stop = true;
              failure ??= err;
            },
          );
          sending.set(e.ticketId, going.finally(() => sending.delete(e.ticketId)));
        }
      }
      if (sending.size === 0) break;
      // One change done (or refused, or failed): the next of its ticket, or of another, may go.
      await Promise.race(sending.values());
    }
  } finally {
    q.publish({ syncing: false });
    q.refreshLists();
  }
  if (failure) throw failure;
}

/** Claims one change and sends it; 'done' when it was no longer there to send. */
async function sendOne(q: Queue, e: OutboxEntry): Promise<Outcome> {
  const claimed = await claim(q, e);
  return claimed ? send(q, claimed) : 'done';
}

/**
 * Counts the attempt before sending, in the queue itself: from now on no tap joins this change
 * (its body may reach the server), and what is sent is the change as stored, with any tap that
 * joined it a moment ago. Null when it is no longer there or no longer its turn.
 */
async function claim(q: Queue, e: OutboxEntry): Promise<OutboxEntry | null> {
  let claimed: OutboxEntry | null = null;
  await write(q, e.userId, (entries) => {
    const stored = entries.find((x) => x.id === e.id);
    if (!stored || !sendable(entries, Date.now()).some((x) => x.id === e.id)) return {};
    claimed = { ...stored, attempts: stored.attempts + 1 };
    return { put: [claimed] };
  });
  return claimed;
}

/** One attempt at one change; its outcome decides what happens to it and to the run. */
async function send(q: Queue, e: OutboxEntry): Promise<Outcome> {
  let reply: Ticket | null;
  try {
    reply = await deliver(q, e);
  } catch (err) {
    try {
      return await failed(q, e, err);
    } catch (bug) {
      // Whatever went wrong, the change stays, visible, and never blocks the queue.
      await patch(q, e, (x) => ({ ...x, state: 'failed', error: bug instanceof Error ? bug.message : String(bug) }));
      return 'done';
    }
  }
  // Done: out of the queue, and my later changes to this ticket follow it (rebase), at once.
  await write(q, e.userId, (entries) => ({ remove: [e.id], put: reply ? rebase(entries, e, e.baseVersion, reply.version) : [] }), true);
  return 'done';
}

/** Sends one change; the server's copy of the ticket when the reply carries it. */
async function deliver(q: Queue, e: OutboxEntry): Promise<Ticket | null> {
  const qc = q.qc!;
  const headers = { [IDEMPOTENCY_KEY_HEADER]: e.idempotencyKey };
  if (e.kind === 'photo') {
    let url = e.uploadedUrl;
    if (!url) {
      const file = new File([e.blob], e.fileName, { type: e.blob.type || 'image/jpeg' });
      // Loaded when a photo is first sent: the upload code is not part of My Work's first load.
      const { uploadFile } = await import('../api/upload');
      url = (await uploadFile('media', file)).url;
      // The bytes are stored: a retry only records them, it does not upload them again.
      const uploadedUrl = url;
      await patch(q, e, (x) => ({ ...x, uploadedUrl }));
    }
    await apiFetch<ImageCompleteReply>('/media_upload/s3-upload-complete', {
      method: 'POST',
      headers,
      body: { ticketId: e.ticketId, url, thumbUrl: url, isVideo: 'false', ...(e.takenAt ? { takenAt: e.takenAt } : {}), ...(e.lat != null && e.lon != null ? { lat: e.lat, lon: e.lon } : {}) },
    });
    await qc.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    q.changedJobs.add(e.jobId);
    return null;
  }
  const current = qc.getQueryData<Ticket>(queryKeys.ticket(e.ticketId)) ?? (e.kind === 'ticket' && Object.keys(e.taskQty).length ? await getTicket(e.ticketId) : null);
  const { ticket } = await apiFetch<TicketSaveReply>('/tickets/', { method: 'PUT', headers, body: { ticket: ticketSaveOf(e, current) } });
  q.keepTicket(ticket, true);
  return ticket;
}

async function failed(q: Queue, e: OutboxEntry, err: unknown): Promise<Outcome> {
  // ApiError, or the upload's UploadError (read by its status, so upload.ts can load lazily).
  const status = err instanceof ApiError ? err.status : hasStatus(err) ? err.status : 0;
  const code = err instanceof ApiError ? err.code : undefined;
  const message = err instanceof Error ? err.message : String(err);
  // No answer, a server error or the same change still running: try again later, same key.
  if (status === 0 || status >= 500 || status === 408 || status === 429 || code === ERROR_CODE.idempotencyInProgress) {
    await patch(q, e, (x) => ({ ...x, nextAttemptAt: Date.now() + backoffMs(e.attempts) }));
    return 'stop';
  }
  // Signed out: the changes wait for the same user to sign in again.
  if (status === 401) return 'stop';
  if (status === 404) {
    // The ticket was deleted: everything of mine for it is held at once (saved from Review).
    await write(q, e.userId, (entries) => ({ put: markTicketGone(entries, e.ticketId) }));
    return 'done';
  }
  if (status === 409 && code === ERROR_CODE.staleVersion) return stale(q, e);
  // The server applied this change before but kept no copy of its (large) reply: it is done.
  if (status === 409 && code === ERROR_CODE.idempotencyReplyNotKept) {
    await discard(q, e.id);
    void q.qc!.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    return 'done';
  }
  await patch(q, e, (x) => ({ ...x, state: 'failed', error: message, code }));
  // Refused at the 10: the office added photos, which the ticket should now show.
  if (code === ERROR_CODE.ticketPhotosFull) void q.qc!.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
  return 'done';
}

/** Refused as stale: someone changed the ticket since my copy. */
async function stale(q: Queue, e: OutboxEntry): Promise<Outcome> {
  let theirs: Ticket;
  try {
    theirs = await getTicket(e.ticketId);
  } catch (err) {
    return failed(q, e, err);
  }
  q.keepTicket(theirs, true);
  await write(q, e.userId, (entries) => {
    if (!entries.some((x) => x.id === e.id)) return {}; // discarded meanwhile
    const { next, absorbed } = afterStale(entries, e, theirs);
    return next ? { put: [next], remove: absorbed } : { remove: [e.id, ...absorbed] };
  });
  return 'done';
}

function hasStatus(err: unknown): err is { status: number } {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}
