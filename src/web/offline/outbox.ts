import { network } from '../api/network';
import type { QueryClient } from '@tanstack/react-query';
import type { ErrorCode } from '../../shared/error-codes';
import type { Ticket } from '../../shared/tickets.schemas';
import { queryKeys } from '../api/queryKeys';
import { offlineDb } from './db';
import type { NewEntry, OutboxEntry } from './outboxLogic';

/**
 * The outbox (docs/product/field-mode.md §5): every change a crew makes in the field is written here first, in
 * IndexedDB, and sent from here, in order, when there is a network: on the `online` event, at
 * app start and on a timer with backoff (not the Background Sync API, which Safari and Firefox
 * lack). Each send carries the change's Idempotency-Key, so a change whose reply was lost is not
 * applied twice when it is sent again. The rules are in outboxLogic.ts. This file reads the
 * queue and tells the page (useSyncExternalStore) what is waiting; everything that changes the
 * queue (a change queued, sent, discarded, chosen in a conflict) is in outboxSend.ts, loaded
 * the first time there is something to change or send: My Work's first load reads the queue for
 * its status line and, most days, sends nothing (decision 037).
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

export interface OutboxState {
  /** This user's entries, oldest first. */
  entries: OutboxEntry[];
  online: boolean;
  syncing: boolean;
  /** Something was synced since the page opened (then "All changes synced" is worth saying). */
  synced: boolean;
}

/** The code that changes and sends the queue, loaded once, when first needed (tried again if that failed). */
let sending: Promise<typeof import('./outboxSend')> | null = null;
const sender = () =>
  (sending ??= import('./outboxSend').catch((err: unknown) => {
    sending = null;
    throw err;
  }));

/** What outboxSend.ts uses of the queue (the page uses subscribe, getSnapshot and the rest). */
export interface Queue {
  readonly userId: number | null;
  readonly qc: QueryClient | null;
  /** Jobs whose lists are to be read again once the sending is over. */
  readonly changedJobs: Set<number>;
  getSnapshot(): OutboxState;
  publish(patch: Partial<OutboxState>): void;
  reload(): Promise<void>;
  /** The number of a read or write of the queue about to start (show's `seq`). */
  nextSeq(): number;
  show(seq: number, entries: OutboxEntry[], patch?: Partial<OutboxState>): void;
  /** Tells the other tabs that this user's queue changed (`sent`: a change reached the server). */
  tellChanged(userId: number, sent: boolean): void;
  keepTicket(ticket: Ticket, tell: boolean): void;
  refreshLists(): void;
  flush(): Promise<void>;
}

class Outbox implements Queue {
  private state: OutboxState = { entries: [], online: network.isOnline(), syncing: false, synced: false };
  private listeners = new Set<() => void>();
  userId: number | null = null;
  qc: QueryClient | null = null;
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
  readonly changedJobs = new Set<number>();
  private refreshTimer: ReturnType<typeof setTimeout> | null = null;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.state;

  publish(patch: Partial<OutboxState>) {
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
  keepTicket(ticket: Ticket, tell: boolean) {
    const qc = this.qc;
    if (!qc) return;
    const shown = qc.getQueryData<Ticket>(queryKeys.ticket(ticket.id));
    if (!shown || shown.version <= ticket.version) qc.setQueryData(queryKeys.ticket(ticket.id), ticket);
    this.changedJobs.add(ticket.job_id);
    if (tell) this.channel?.postMessage({ type: 'ticket', ticket } satisfies Message);
  }

  /** The lists that show the tickets changed meanwhile: the jobs' pages and My Work. */
  refreshLists() {
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
    if (!online || this.userId === null || !this.state.entries.some((e) => e.state === 'pending')) return;
    // The network is back: whatever was waiting on a backoff timer goes now.
    void sender().then((s) => s.sendNow(this));
  }

  async reload() {
    if (this.userId === null) return this.publish({ entries: [] });
    const db = await offlineDb();
    const read = db.getAllFromIndex('outbox', 'byUser', this.userId);
    this.show(this.nextSeq(), (await read).sort((a, b) => a.id - b.id));
  }

  nextSeq() {
    return ++this.taken;
  }

  tellChanged(userId: number, sent: boolean) {
    this.channel?.postMessage({ type: 'changed', userId, sent } satisfies Message);
  }

  /** Shows the queue as the read or write numbered `seq` left it, unless a later one is shown. */
  show(seq: number, entries: OutboxEntry[], patch: Partial<OutboxState> = {}) {
    if (seq < this.shown) return Object.keys(patch).length ? this.publish(patch) : undefined;
    this.shown = seq;
    this.publish({ entries, ...patch });
  }

  /**
   * Queues a change; a ticket change joins the ticket's last unsent one when it can. `held`
   * keeps it on the phone unsent, as refused with that code (a photo over the ticket's 10).
   */
  async add(entry: NewEntry, held?: { code: ErrorCode; error: string }): Promise<void> {
    return (await sender()).add(this, entry, held);
  }

  /** Takes a change out of the queue (the user discarded it). */
  async discard(id: number) {
    return (await sender()).discard(this, id);
  }

  /** The user saved these held changes to the device: from now on they may be discarded. */
  async markSaved(ids: readonly number[]) {
    return (await sender()).markSaved(this, ids);
  }

  /**
   * A photo held at the ticket's limit takes the place of one of the ticket's photos: that one is
   * deleted on the server (needs a connection; throws ApiError if refused), then the held photo
   * is sent again.
   */
  async replacePhoto(entryId: number, imageId: number) {
    return (await sender()).replacePhoto(this, entryId, imageId);
  }

  /** The user chose, per conflicting field, theirs or mine (the keys of conflictRows kept as mine). */
  async resolveConflict(id: number, keepMine: ReadonlySet<string>) {
    return (await sender()).resolveConflict(this, id, keepMine);
  }

  /**
   * Sends what can be sent now, oldest first (outboxSend.ts `run`). One run at a time per page,
   * and one sender at a time across the tabs of the app: the Web Locks API where the browser has
   * it (every current browser on HTTPS or localhost). Without it each tab sends, and what keeps a
   * change from being applied twice is the claim (outboxSend.ts) and its Idempotency-Key. With
   * nothing pending in the queue as shown, nothing runs and the sending code is not loaded: a
   * change another tab queues reaches this one by the channel (reload, then schedule).
   */
  flush(): Promise<void> {
    if (!this.running && !this.state.entries.some((e) => e.state === 'pending')) return Promise.resolve();
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    // request() resolves with what the callback's promise resolves to (typed as the promise itself).
    this.running ??= sender()
      .then((s) => (locks ? (locks.request(SENDER_LOCK, () => s.run(this)) as unknown as Promise<void>) : s.run(this)))
      .finally(() => {
        this.running = null;
        this.schedule();
      });
    return this.running;
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
}

/** The page's one outbox. */
export const outbox = new Outbox();
