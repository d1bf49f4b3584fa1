import { network } from '../api/network';
import type { QueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/constants';
import { ERROR_CODE, type ErrorCode } from '../../shared/error-codes';
import type { ImageCompleteReply, Ticket, TicketSaveReply } from '../../shared/tickets.schemas';
import { ApiError, apiFetch } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { getTicket } from '../api/ticket';
import { offlineDb } from './db';
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
 * The outbox (docs/product/field-mode.md §5): every change a crew makes in the field is written here first, in
 * IndexedDB, and sent from here, in order, when there is a network: on the `online` event, at
 * app start and on a timer with backoff (not the Background Sync API, which Safari and Firefox
 * lack). Each send carries the change's Idempotency-Key, so a change whose reply was lost is not
 * applied twice when it is sent again. The rules are in outboxLogic.ts; this file keeps the
 * entries, talks to the server and tells the page (useSyncExternalStore) what is waiting.
 *
 * One queue for every tab and window of the app (an open tab and the installed app share the
 * origin's IndexedDB; decision 037): every write reads the queue and writes it back in one
 * IndexedDB transaction, so two tabs never write over each other's changes; one tab at a time
 * sends (the Web Locks API), and takes each change out of the queue as it sends it; a
 * BroadcastChannel tells the other tabs that the queue changed, so every tab shows the same one.
 */

/** The lock held by the tab that is sending, and the channel that tells the others. */
const SENDER_LOCK = 'linecrew-outbox-sender';
const CHANNEL = 'linecrew-outbox';

type Message =
  /** The queue of this user changed; `sent`: a change reached the server. */
  | { type: 'changed'; userId: number; sent?: boolean }
  /** The server's copy of a ticket, as the sending tab just received it. */
  | { type: 'ticket'; ticket: Ticket };

/** What one transaction writes to the queue. */
interface Writes {
  put?: OutboxEntry[];
  add?: Omit<OutboxEntry, 'id'>;
  remove?: number[];
}

export interface OutboxState {
  /** This user's entries, oldest first. */
  entries: OutboxEntry[];
  online: boolean;
  syncing: boolean;
  /** Something was synced since the page opened (then "All changes synced" is worth saying). */
  synced: boolean;
}

type Outcome = 'done' | 'retry' | 'stop';

class Outbox {
  private state: OutboxState = { entries: [], online: network.isOnline(), syncing: false, synced: false };
  private listeners = new Set<() => void>();
  private userId: number | null = null;
  private qc: QueryClient | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private channel: BroadcastChannel | null = null;
  /**
   * The queue is shown as each read or write of it left it, in the order IndexedDB ran them:
   * a picture taken earlier never replaces one taken later (reads and writes run concurrently).
   */
  private taken = 0;
  private shown = 0;
  /** Jobs whose lists (the job page, My Work) are to be read again once the sending is over. */
  private changedJobs = new Set<number>();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.state;

  private publish(patch: Partial<OutboxState>) {
    this.state = { ...this.state, ...patch };
    this.listeners.forEach((l) => l());
  }

  /** Starts the outbox for the signed-in user (null: nobody; nothing is sent). */
  async start(userId: number | null, qc: QueryClient) {
    this.qc = qc;
    if (!this.channel && typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL);
      this.channel.onmessage = (ev: MessageEvent<Message>) => this.heard(ev.data);
    }
    if (userId === this.userId) return;
    this.userId = userId;
    await this.reload();
    if (userId !== null) void this.flush();
  }

  /** Another tab changed the queue or heard from the server. */
  private heard(m: Message) {
    if (m.type === 'ticket') {
      this.keepTicket(m.ticket, false);
      // The sending tab refreshes its lists when it is done; this one a moment after the last copy.
      if (this.refreshTimer) clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => this.refreshLists(), 500);
      return;
    }
    if (m.userId !== this.userId) return;
    void this.reload().then(() => {
      if (m.sent) this.publish({ synced: true });
      this.schedule();
    });
  }

  /**
   * The server's copy of a ticket, shown in this tab (and, when it came from here, in the others).
   * Its job's lists are read again once, after the sending (refreshLists), not after each change:
   * fifty notes would otherwise read the job and My Work fifty times while the queue empties.
   */
  private keepTicket(ticket: Ticket, tell: boolean) {
    const qc = this.qc;
    if (!qc) return;
    const shown = qc.getQueryData<Ticket>(queryKeys.ticket(ticket.id));
    if (!shown || shown.version <= ticket.version) qc.setQueryData(queryKeys.ticket(ticket.id), ticket);
    this.changedJobs.add(ticket.job_id);
    if (tell) this.channel?.postMessage({ type: 'ticket', ticket } satisfies Message);
  }

  /** The lists that show the tickets changed meanwhile: the jobs' pages and My Work. */
  private refreshLists() {
    const qc = this.qc;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    if (!qc || this.changedJobs.size === 0) return;
    for (const jobId of this.changedJobs) void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    this.changedJobs.clear();
    void qc.invalidateQueries({ queryKey: queryKeys.work });
  }

  setOnline(online: boolean) {
    this.publish({ online });
    if (!online || this.userId === null) return;
    // The network is back: whatever was waiting on a backoff timer goes now.
    void this.write(this.userId, (entries) => ({
      put: entries.filter((e) => e.state === 'pending' && e.nextAttemptAt > 0).map((e) => ({ ...e, nextAttemptAt: 0 })),
    })).then(() => this.flush());
  }

  private async reload() {
    if (this.userId === null) return this.publish({ entries: [] });
    const db = await offlineDb();
    const read = db.getAllFromIndex('outbox', 'byUser', this.userId);
    this.show(++this.taken, (await read).sort((a, b) => a.id - b.id));
  }

  /** Shows the queue as the read or write numbered `seq` left it, unless a later one is shown. */
  private show(seq: number, entries: OutboxEntry[], patch: Partial<OutboxState> = {}) {
    if (seq < this.shown) return Object.keys(patch).length ? this.publish(patch) : undefined;
    this.shown = seq;
    this.publish({ entries, ...patch });
  }

  /**
   * Reads the user's queue and writes what `decide` makes of it, in one IndexedDB transaction
   * (transactions on one store run one after the other, across tabs): a change is decided on the
   * queue as it is, never on this tab's picture of it. Then tells the other tabs, and shows the
   * queue as this transaction left it (read and written here: not read a second time). `sent`:
   * a change reached the server.
   */
  private async write(userId: number, decide: (entries: OutboxEntry[]) => Writes, sent = false): Promise<void> {
    const db = await offlineDb();
    const tx = db.transaction('outbox', 'readwrite');
    const seq = ++this.taken;
    const entries = (await tx.store.index('byUser').getAll(userId)).sort((a, b) => a.id - b.id);
    const w = decide(entries);
    const puts = w.put ?? [];
    const removed = new Set(w.remove ?? []);
    const writes: Promise<unknown>[] = [...puts.map((e) => tx.store.put(e)), ...[...removed].map((id) => tx.store.delete(id))];
    const added = w.add ? tx.store.add(w.add as OutboxEntry) : null;
    const [addedId] = await Promise.all([added, ...writes, tx.done]);
    const wrote = puts.length > 0 || removed.size > 0 || added !== null;
    if (wrote) this.channel?.postMessage({ type: 'changed', userId, sent } satisfies Message);
    if (userId !== this.userId) return;
    const now = new Map(entries.map((e) => [e.id, e]));
    for (const e of puts) now.set(e.id, e);
    for (const id of removed) now.delete(id);
    if (w.add && typeof addedId === 'number') now.set(addedId, { ...w.add, id: addedId } as OutboxEntry);
    this.show(seq, [...now.values()].sort((a, b) => a.id - b.id), sent ? { synced: true } : {});
  }

  /** Replaces one entry by what `next` makes of it as stored now (nothing when it was discarded meanwhile). */
  private patch(e: OutboxEntry, next: (stored: OutboxEntry) => OutboxEntry) {
    return this.write(e.userId, (entries) => {
      const stored = entries.find((x) => x.id === e.id);
      return stored ? { put: [next(stored)] } : {};
    });
  }

  /**
   * Queues a change; a ticket change joins the ticket's last unsent one when it can. `held`
   * keeps it on the phone unsent, as refused with that code (a photo over the ticket's 10).
   */
  async add(entry: NewEntry, held?: { code: ErrorCode; error: string }): Promise<void> {
    const fresh = (e: Omit<OutboxEntry, Fresh>, state: Pick<OutboxEntry, 'state'> & Partial<Pick<OutboxEntry, 'code' | 'error'>>) =>
      ({ ...e, owner: ownerOf(e.userId), idempotencyKey: newIdempotencyKey(), createdAt: Date.now(), attempts: 0, nextAttemptAt: 0, ...state }) as Omit<OutboxEntry, 'id'>;
    await this.write(entry.userId, (entries) => {
      const next = entry.kind === 'ticket' ? followQueue(entries, entry) : entry;
      if (held) return { add: fresh(next, { state: 'failed', ...held }) };
      // A change to a ticket known to be deleted joins its other held changes: it could never go.
      if (entries.some((x) => x.ticketId === entry.ticketId && x.state === 'gone')) return { add: fresh(next, { state: 'gone' }) };
      const joined = next.kind === 'ticket' ? coalesce(entries, next) : null;
      return joined ? { put: [joined] } : { add: fresh(next, { state: 'pending' }) };
    });
    void this.flush();
  }

  async discard(id: number) {
    if (this.userId === null) return;
    await this.write(this.userId, () => ({ remove: [id] }));
  }

  /** The user saved these held changes to the device: from now on they may be discarded. */
  async markSaved(ids: readonly number[]) {
    if (this.userId === null) return;
    const at = Date.now();
    await this.write(this.userId, (entries) => ({ put: entries.filter((e) => ids.includes(e.id)).map((e) => ({ ...e, savedAt: at })) }));
  }

  /**
   * A photo held at the ticket's limit takes the place of one of the ticket's photos: that one is
   * deleted on the server (needs a connection; throws ApiError if refused), then the held photo
   * is sent again.
   */
  async replacePhoto(entryId: number, imageId: number) {
    const e = this.state.entries.find((x) => x.id === entryId);
    if (!e || e.kind !== 'photo') return;
    try {
      await apiFetch(`/tickets/images/${imageId}`, { method: 'DELETE', headers: { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } });
    } catch (err) {
      // Already deleted (by a first tap whose answer was lost, or by the office): there is room.
      if (!(err instanceof ApiError && err.status === 404)) throw err;
    }
    await this.patch(e, (x) => (x.kind === 'photo' ? retried(x) : x));
    void this.qc?.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    await this.flush();
  }

  /** The user chose, per conflicting field, theirs or mine (the keys of conflictRows kept as mine). */
  async resolveConflict(id: number, keepMine: ReadonlySet<string>) {
    const e = this.state.entries.find((x) => x.id === id);
    if (!e || e.kind !== 'ticket' || !e.theirs) return;
    const next = resolve(e, e.theirs, keepMine);
    await this.write(e.userId, () => (next ? { put: [next] } : { remove: [id] }));
    void this.flush();
  }

  /**
   * Sends what can be sent now, oldest first: several tickets at once (at most SENDERS changes on
   * their way), each ticket's changes one after the other in the order they were made. One run
   * at a time per page, and one sender at a time across the tabs of the app: the Web Locks API
   * where the browser has it (every current browser on HTTPS or localhost). Without it each tab
   * sends, and what keeps a change from being applied twice is the claim below and its
   * Idempotency-Key.
   */
  flush(): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    // request() resolves with what the callback's promise resolves to (typed as the promise itself).
    this.running ??= (locks ? (locks.request(SENDER_LOCK, () => this.run()) as unknown as Promise<void>) : this.run()).finally(() => {
      this.running = null;
      this.schedule();
    });
    return this.running;
  }

  private async run() {
    // Known to be offline: nothing is tried (a try would count as an attempt, and a change
    // tried once is never merged with the next tap: its body may already be on the server).
    if (this.userId === null || !this.qc || !this.state.online) return;
    this.publish({ syncing: true });
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
      await this.reload();
      for (;;) {
        if (!stop && this.state.online) {
          for (const e of nextToSend(this.state.entries, Date.now(), new Set(sending.keys()), turns)) {
            turns.set(e.ticketId, ++started);
            const going = this.sendOne(e).then(
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
      this.publish({ syncing: false });
      this.refreshLists();
    }
    if (failure) throw failure;
  }

  /** Claims one change and sends it; 'done' when it was no longer there to send. */
  private async sendOne(e: OutboxEntry): Promise<Outcome> {
    const claimed = await this.claim(e);
    return claimed ? this.send(claimed) : 'done';
  }

  /**
   * Counts the attempt before sending, in the queue itself: from now on no tap joins this change
   * (its body may reach the server), and what is sent is the change as stored, with any tap that
   * joined it a moment ago. Null when it is no longer there or no longer its turn.
   */
  private async claim(e: OutboxEntry): Promise<OutboxEntry | null> {
    let claimed: OutboxEntry | null = null;
    await this.write(e.userId, (entries) => {
      const stored = entries.find((x) => x.id === e.id);
      if (!stored || !sendable(entries, Date.now()).some((x) => x.id === e.id)) return {};
      claimed = { ...stored, attempts: stored.attempts + 1 };
      return { put: [claimed] };
    });
    return claimed;
  }

  /** Wakes up for the earliest backoff. */
  private schedule() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const waits = this.state.entries.filter((e) => e.state === 'pending').map((e) => e.nextAttemptAt);
    if (waits.length === 0 || this.userId === null) return;
    const delay = Math.max(0, Math.min(...waits) - Date.now());
    this.timer = setTimeout(() => void this.flush(), Math.max(delay, 500));
  }

  /** One attempt at one change; its outcome decides what happens to it and to the run. */
  private async send(e: OutboxEntry): Promise<Outcome> {
    let reply: Ticket | null;
    try {
      reply = await this.deliver(e);
    } catch (err) {
      try {
        return await this.failed(e, err);
      } catch (bug) {
        // Whatever went wrong, the change stays, visible, and never blocks the queue.
        await this.patch(e, (x) => ({ ...x, state: 'failed', error: bug instanceof Error ? bug.message : String(bug) }));
        return 'done';
      }
    }
    // Done: out of the queue, and my later changes to this ticket follow it (rebase), at once.
    await this.write(e.userId, (entries) => ({ remove: [e.id], put: reply ? rebase(entries, e, e.baseVersion, reply.version) : [] }), true);
    return 'done';
  }

  /** Sends one change; the server's copy of the ticket when the reply carries it. */
  private async deliver(e: OutboxEntry): Promise<Ticket | null> {
    const qc = this.qc!;
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
        await this.patch(e, (x) => ({ ...x, uploadedUrl }));
      }
      await apiFetch<ImageCompleteReply>('/media_upload/s3-upload-complete', {
        method: 'POST',
        headers,
        body: { ticketId: e.ticketId, url, thumbUrl: url, isVideo: 'false', ...(e.takenAt ? { takenAt: e.takenAt } : {}), ...(e.lat != null && e.lon != null ? { lat: e.lat, lon: e.lon } : {}) },
      });
      await qc.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
      this.changedJobs.add(e.jobId);
      return null;
    }
    const current = qc.getQueryData<Ticket>(queryKeys.ticket(e.ticketId)) ?? (e.kind === 'ticket' && Object.keys(e.taskQty).length ? await getTicket(e.ticketId) : null);
    const { ticket } = await apiFetch<TicketSaveReply>('/tickets/', { method: 'PUT', headers, body: { ticket: ticketSaveOf(e, current) } });
    this.keepTicket(ticket, true);
    return ticket;
  }

  private async failed(e: OutboxEntry, err: unknown): Promise<Outcome> {
    // ApiError, or the upload's UploadError (read by its status, so upload.ts can load lazily).
    const status = err instanceof ApiError ? err.status : hasStatus(err) ? err.status : 0;
    const code = err instanceof ApiError ? err.code : undefined;
    const message = err instanceof Error ? err.message : String(err);
    // No answer, a server error or the same change still running: try again later, same key.
    if (status === 0 || status >= 500 || status === 408 || status === 429 || code === ERROR_CODE.idempotencyInProgress) {
      await this.patch(e, (x) => ({ ...x, nextAttemptAt: Date.now() + backoffMs(e.attempts) }));
      return 'stop';
    }
    // Signed out: the changes wait for the same user to sign in again.
    if (status === 401) return 'stop';
    if (status === 404) {
      // The ticket was deleted: everything of mine for it is held at once (saved from Review).
      await this.write(e.userId, (entries) => ({ put: markTicketGone(entries, e.ticketId) }));
      return 'done';
    }
    if (status === 409 && code === ERROR_CODE.staleVersion) return this.stale(e);
    // The server applied this change before but kept no copy of its (large) reply: it is done.
    if (status === 409 && code === ERROR_CODE.idempotencyReplyNotKept) {
      await this.discard(e.id);
      void this.qc!.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
      return 'done';
    }
    await this.patch(e, (x) => ({ ...x, state: 'failed', error: message, code }));
    // Refused at the 10: the office added photos, which the ticket should now show.
    if (code === ERROR_CODE.ticketPhotosFull) void this.qc!.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    return 'done';
  }

  /** Refused as stale: someone changed the ticket since my copy. */
  private async stale(e: OutboxEntry): Promise<Outcome> {
    let theirs: Ticket;
    try {
      theirs = await getTicket(e.ticketId);
    } catch (err) {
      return this.failed(e, err);
    }
    this.keepTicket(theirs, true);
    await this.write(e.userId, (entries) => {
      if (!entries.some((x) => x.id === e.id)) return {}; // discarded meanwhile
      const { next, absorbed } = afterStale(entries, e, theirs);
      return next ? { put: [next], remove: absorbed } : { remove: [e.id, ...absorbed] };
    });
    return 'done';
  }
}

/** The bookkeeping a new entry gets from the store. */
type Fresh = 'id' | 'idempotencyKey' | 'createdAt' | 'attempts' | 'nextAttemptAt' | 'state';

/** The page's one outbox. */
export const outbox = new Outbox();

function hasStatus(err: unknown): err is { status: number } {
  return typeof err === 'object' && err !== null && typeof (err as { status?: unknown }).status === 'number';
}
