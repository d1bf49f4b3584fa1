import { network } from './network';
import type { QueryClient } from '@tanstack/react-query';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/constants';
import { ERROR_CODE, type ErrorCode } from '../../shared/error-codes';
import type { ImageCompleteReply, Ticket, TicketSaveReply } from '../../shared/tickets.schemas';
import { ApiError, apiFetch } from '../api/client';
import { queryKeys } from '../api/queryKeys';
import { getTicket } from '../api/ticket';
import { uploadFile, UploadError } from '../api/upload';
import { offlineDb } from './db';
import {
  backoffMs,
  coalesce,
  conflictRows,
  markTicketGone,
  newIdempotencyKey,
  rebase,
  resolve,
  retried,
  sendable,
  ticketSaveOf,
  type NewEntry,
  type OutboxEntry,
  type TicketChange,
} from './outboxLogic';

/**
 * The outbox (DESIGN §7.1): every change a crew makes in the field is written here first, in
 * IndexedDB, and sent from here, in order, when there is a network: on the `online` event, at
 * app start and on a timer with backoff (not the Background Sync API, which Safari and Firefox
 * lack). Each send carries the change's Idempotency-Key, so a change whose reply was lost is not
 * applied twice when it is sent again. The rules are in outboxLogic.ts; this file keeps the
 * entries, talks to the server and tells the page (useSyncExternalStore) what is waiting.
 */

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
  /** The entry on the wire: a new change never joins it (it would be deleted with it on success). */
  private sendingId: number | null = null;

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
    if (userId === this.userId) return;
    this.userId = userId;
    await this.reload();
    if (userId !== null) void this.flush();
  }

  setOnline(online: boolean) {
    this.publish({ online });
    if (!online) return;
    // The network is back: whatever was waiting on a backoff timer goes now.
    void this.updateAll(this.state.entries.filter((e) => e.state === 'pending' && e.nextAttemptAt > 0).map((e) => ({ ...e, nextAttemptAt: 0 }))).then(() =>
      this.flush(),
    );
  }

  private async reload() {
    if (this.userId === null) return this.publish({ entries: [] });
    const db = await offlineDb();
    const entries = (await db.getAllFromIndex('outbox', 'byUser', this.userId)).sort((a, b) => a.id - b.id);
    this.publish({ entries });
  }

  /**
   * Queues a change; a ticket change joins the ticket's last unsent one when it can. `held`
   * keeps it on the phone unsent, as refused with that code (a photo over the ticket's 10).
   */
  async add(entry: NewEntry, held?: { code: ErrorCode; error: string }): Promise<void> {
    const db = await offlineDb();
    const joined = entry.kind === 'ticket' && !held ? coalesce(this.state.entries, entry) : null;
    const merged = joined && joined.id !== this.sendingId ? joined : null;
    if (merged) await db.put('outbox', merged);
    else {
      // A change to a ticket known to be deleted joins its other held changes: it could never go.
      const gone = this.state.entries.some((x) => x.ticketId === entry.ticketId && x.state === 'gone');
      const state = held ? { state: 'failed', ...held } : gone ? { state: 'gone' } : { state: 'pending' };
      const fresh = { ...entry, idempotencyKey: newIdempotencyKey(), createdAt: Date.now(), attempts: 0, nextAttemptAt: 0, ...state } as OutboxEntry;
      delete (fresh as Partial<OutboxEntry>).id; // the store numbers it
      await db.add('outbox', fresh);
    }
    await this.reload();
    void this.flush();
  }

  async discard(id: number) {
    const db = await offlineDb();
    await db.delete('outbox', id);
    await this.reload();
  }

  /** The user saved these held changes to the device: from now on they may be discarded. */
  async markSaved(ids: readonly number[]) {
    const at = Date.now();
    await this.updateAll(this.state.entries.filter((e) => ids.includes(e.id)).map((e) => ({ ...e, savedAt: at })));
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
    await this.updateAll([retried(e)]);
    void this.qc?.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    await this.flush();
  }

  /** The user chose, per conflicting field, theirs or mine (the keys of conflictRows kept as mine). */
  async resolveConflict(id: number, keepMine: ReadonlySet<string>) {
    const e = this.state.entries.find((x) => x.id === id);
    if (!e || e.kind !== 'ticket' || !e.theirs) return;
    const next = resolve(e, e.theirs, keepMine);
    if (next) await this.updateAll([next]);
    else await this.discard(id);
    await this.reload();
    void this.flush();
  }

  private async updateAll(entries: OutboxEntry[]) {
    if (entries.length === 0) return;
    const db = await offlineDb();
    const tx = db.transaction('outbox', 'readwrite');
    await Promise.all([...entries.map((e) => tx.store.put(e)), tx.done]);
    await this.reload();
  }

  /** Sends what can be sent now, one at a time, oldest first. One run at a time per page. */
  flush(): Promise<void> {
    this.running ??= this.run().finally(() => {
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
    try {
      for (;;) {
        const [next] = sendable(this.state.entries, Date.now());
        if (!next) break;
        const outcome = await this.send(next);
        if (outcome === 'stop') break;
      }
    } finally {
      this.publish({ syncing: false });
    }
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
    this.sendingId = e.id;
    try {
      await this.deliver(e);
    } catch (err) {
      // The entry as stored now: a photo's upload was recorded on it meanwhile (uploadedUrl), which
      // the outcome must keep (a retry then does not upload the bytes again).
      const now = this.state.entries.find((x) => x.id === e.id) ?? e;
      try {
        return await this.failed(now, err);
      } catch (bug) {
        // Whatever went wrong, the change stays, visible, and never blocks the queue.
        await this.updateAll([{ ...now, state: 'failed', error: bug instanceof Error ? bug.message : String(bug) }]);
        return 'done';
      }
    } finally {
      this.sendingId = null;
    }
    await this.discard(e.id);
    this.publish({ synced: true });
    return 'done';
  }

  private async deliver(e: OutboxEntry) {
    const qc = this.qc!;
    const headers = { [IDEMPOTENCY_KEY_HEADER]: e.idempotencyKey };
    if (e.kind === 'photo') {
      let url = e.uploadedUrl;
      if (!url) {
        const file = new File([e.blob], e.fileName, { type: e.blob.type || 'image/jpeg' });
        url = (await uploadFile('media', file)).url;
        // The bytes are stored: a retry only records them, it does not upload them again.
        await this.updateAll([{ ...e, uploadedUrl: url }]);
      }
      await apiFetch<ImageCompleteReply>('/media_upload/s3-upload-complete', {
        method: 'POST',
        headers,
        body: { ticketId: e.ticketId, url, thumbUrl: url, isVideo: 'false', ...(e.takenAt ? { takenAt: e.takenAt } : {}), ...(e.lat != null && e.lon != null ? { lat: e.lat, lon: e.lon } : {}) },
      });
      await qc.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
    } else {
      const current = qc.getQueryData<Ticket>(queryKeys.ticket(e.ticketId)) ?? (e.kind === 'ticket' && Object.keys(e.taskQty).length ? await getTicket(e.ticketId) : null);
      const body = ticketSaveOf(e, current);
      const { ticket } = await apiFetch<TicketSaveReply>('/tickets/', { method: 'PUT', headers, body: { ticket: body } });
      qc.setQueryData(queryKeys.ticket(ticket.id), ticket);
      // My later changes to this ticket were made on the copy I just changed: they follow it.
      await this.updateAll(rebase(this.state.entries, e, body.version ?? e.baseVersion, ticket.version));
    }
    void qc.invalidateQueries({ queryKey: queryKeys.job(e.jobId) });
    void qc.invalidateQueries({ queryKey: queryKeys.work });
  }


  private async failed(e: OutboxEntry, err: unknown): Promise<Outcome> {
    const status = err instanceof ApiError ? err.status : err instanceof UploadError ? err.status : 0;
    const code = err instanceof ApiError ? err.code : undefined;
    const message = err instanceof Error ? err.message : String(err);
    // No answer, a server error or the same change still running: try again later, same key.
    if (status === 0 || status >= 500 || status === 408 || status === 429 || code === ERROR_CODE.idempotencyInProgress) {
      const attempts = e.attempts + 1;
      await this.updateAll([{ ...e, attempts, nextAttemptAt: Date.now() + backoffMs(attempts) }]);
      return 'stop';
    }
    // Signed out: the changes wait for the same user to sign in again.
    if (status === 401) return 'stop';
    if (status === 404) {
      // The ticket was deleted: everything of mine for it is held at once (saved from Review).
      await this.updateAll(markTicketGone(this.state.entries, e.ticketId));
      return 'done';
    }
    if (status === 409 && code === ERROR_CODE.staleVersion) return this.stale(e);
    // The server applied this change before but kept no copy of its (large) reply: it is done.
    if (status === 409 && code === ERROR_CODE.idempotencyReplyNotKept) {
      await this.discard(e.id);
      void this.qc!.invalidateQueries({ queryKey: queryKeys.ticket(e.ticketId) });
      return 'done';
    }
    await this.updateAll([{ ...e, state: 'failed', error: message, code }]);
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
    this.qc!.setQueryData(queryKeys.ticket(theirs.id), theirs);
    if (e.kind !== 'ticket') {
      // A note cannot conflict (notes are only ever added): send it again on their version.
      await this.updateAll([{ ...e, baseVersion: theirs.version, idempotencyKey: newIdempotencyKey() }]);
      return 'done';
    }
    if (conflictRows(e, theirs).length === 0) {
      // They changed other things than I did: mine goes on top of theirs without asking (or,
      // when every task I changed was removed, there is nothing left of mine to send).
      const mine = resolve(e, theirs, new Set());
      if (mine) await this.updateAll([mine]);
      else await this.discard(e.id);
      return 'done';
    }
    await this.updateAll([{ ...e, state: 'conflict', theirs } satisfies TicketChange]);
    return 'done';
  }
}

/** The page's one outbox. */
export const outbox = new Outbox();
