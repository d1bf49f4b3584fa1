import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { replyJson } from '../api/client';
import { offlineDb, type Copy } from './db';
import { whenIdle } from '../components/useWhenIdle';

/**
 * Offline copies (docs/product/field-mode.md §5 "offline data"): My Work's tickets and every job or ticket opened
 * are written to IndexedDB when the server sends them, and put back into the query cache when
 * the app opens, so they show without network, with the time of the copy. Only these reads are
 * kept: the jobs list, the crew roster and the reference lists are office work, done online.
 */
export function keepsCopy(key: QueryKey): boolean {
  const [root, id, sub] = key;
  if (root === 'work') return key.length === 2;
  if (root === 'tickets') return typeof id === 'number' && key.length === 2;
  if (root === 'jobs') return typeof id === 'number' && (key.length === 2 || (key.length === 3 && (sub === 'tickets' || sub === 'header')));
  // One's own account: the User page opens offline (decision 039).
  if (root === 'crew') return id === 'myData';
  return false;
}

const copyId = (userId: number, key: QueryKey) => `${userId} ${JSON.stringify(key)}`;

/**
 * Puts this user's copies into the cache where the cache has nothing newer. Returns an
 * unsubscribe function that stops writing copies (sign-out, another user).
 */
export async function restoreAndKeepCopies(qc: QueryClient, userId: number): Promise<() => void> {
  try {
    const db = await offlineDb();
    for (const c of await db.getAllFromIndex('copies', 'byUser', userId)) {
      const state = qc.getQueryState(c.queryKey);
      if (!state || state.dataUpdatedAt < c.updatedAt) qc.setQueryData(c.queryKey, c.json ? JSON.parse(await c.json.text()) : c.data, { updatedAt: c.updatedAt });
    }
  } catch {
    // No IndexedDB (a private window): the app works online as before.
  }
  const pending = new Map<string, { query: Query; drop: boolean }>();
  let cancelWrite: (() => void) | null = null;
  // Written in a batch a moment later (one transaction for the reads of one moment), and at once
  // when the page is left: a crew may open a ticket and move on within a second. "A moment" is
  // when the browser is next idle (at most 2 s): IndexedDB copies the data on the page's own
  // thread, a long task for a job of 5,000 tickets on a slow machine, which must not land between
  // the job's arrival and its table or map being drawn (decision 060).
  const later = () => whenIdle(() => void write(), 2000, 50);
  const write = async () => {
    cancelWrite = null;
    const batch = [...pending.values()];
    pending.clear();
    try {
      const db = await offlineDb();
      const tx = db.transaction('copies', 'readwrite');
      await Promise.all([
        ...batch.map(({ query: q, drop }) =>
          drop || q.state.data === undefined
            ? tx.store.delete(copyId(userId, q.queryKey))
            : tx.store.put({ id: copyId(userId, q.queryKey), userId, queryKey: q.queryKey, ...asStored(q.state.data), updatedAt: q.state.dataUpdatedAt } satisfies Copy),
        ),
        tx.done,
      ]);
    } catch {
      // Storage full or unavailable: the copy is a convenience, the outbox is what must not fail.
    }
  };
  // What the page read before this point (a ticket opened by address loads while the copies are
  // still being read back) is kept too.
  for (const query of qc.getQueryCache().findAll({ predicate: (q) => keepsCopy(q.queryKey) && q.state.status === 'success' })) {
    pending.set(query.queryHash, { query, drop: false });
  }
  if (pending.size) cancelWrite = later();
  const leaving = () => {
    cancelWrite?.();
    if (pending.size) void write();
  };
  window.addEventListener('pagehide', leaving);
  const unsubscribe = qc.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || !keepsCopy(event.query.queryKey)) return;
    const gone = event.action.type === 'error' && isGone(event.action.error);
    if (event.action.type !== 'success' && !gone) return;
    pending.set(event.query.queryHash, { query: event.query, drop: gone });
    cancelWrite ??= later();
  });
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', leaving);
  };
}

/**
 * A large reply is stored as the bytes it came as (a Blob: IndexedDB copies a reference on the
 * page's thread, ~1 ms), where the object (a job of 5,000 tickets) took ~70 ms on a desktop and a
 * long task of ~350 ms on a phone (decision 058). Anything else, e.g. a reply the cache merged with an
 * older one or changed by hand, is stored as its object.
 */
function asStored(data: unknown): Pick<Copy, 'data' | 'json'> {
  const json = replyJson(data);
  return json ? { json } : { data };
}

/** A 404 means the job or ticket is gone: its copy goes too. */
function isGone(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { status?: unknown }).status === 404;
}

/** Sign-out: this user's copies and kept documents leave the device (the outbox stays, for when they sign in again). */
export async function dropCopies(userId: number): Promise<void> {
  try {
    const db = await offlineDb();
    const tx = db.transaction('copies', 'readwrite');
    for (const key of await tx.store.index('byUser').getAllKeys(userId)) await tx.store.delete(key);
    await tx.done;
  } catch {
    // Nothing to drop.
  }
  // Loaded here (precached, so offline too), not with the first page: only sign-out needs it.
  const { dropDocuments } = await import('./documents');
  await dropDocuments(userId);
}
