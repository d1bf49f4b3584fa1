/**
 * Documents a crew may need at the pole without signal (decision 039: the work packet, dig-safe, NRA
 * and permit PDFs of a ticket opened on the phone), kept in the browser's Cache Storage, one cache
 * per user (a shared tablet never shows one user's files to the next; sign-out drops it with the
 * copies, copies.ts dropCopies). The service worker never caches `/files/*` (decision 021): these
 * are fetched by the page, with the session, only for the tickets a crew opens.
 *
 * Bounded: a file over MAX_FILE_BYTES is not kept (a 60 MB scanned packet on a phone's data plan
 * is the crew's choice to open, not ours to fetch ahead), and past MAX_TOTAL_BYTES or MAX_FILES
 * the documents kept longest ago go first. A document that is not kept reads "Open when you have
 * signal" while offline, never a link that fails.
 */

export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_TOTAL_BYTES = 100 * 1024 * 1024;
export const MAX_FILES = 60;

const PREFIX = 'linecrew-documents-';
const cacheName = (userId: number) => `${PREFIX}${userId}`;
/** When a document was kept, and its size: on the stored response, read back for eviction. */
const KEPT_AT = 'x-linecrew-kept-at';
const SIZE = 'x-linecrew-size';

const available = () => typeof caches !== 'undefined';

/** The document's address as the cache keys it: absolute, so '/files/x' and 'http://host/files/x' are one. */
const keyOf = (url: string) => new URL(url, location.origin).href;

/** Only our own files are kept (the session goes with the request; another origin's is not ours to store). */
const isOwn = (url: string) => {
  try {
    return new URL(url, location.origin).origin === location.origin;
  } catch {
    return false;
  }
};

/**
 * Fetches and keeps the documents not kept yet (online, in the background), then evicts the
 * oldest past the bounds. Failures are quiet: the document is simply not kept.
 */
export async function keepDocuments(userId: number, urls: readonly string[]): Promise<void> {
  if (!available()) return;
  try {
    const cache = await caches.open(cacheName(userId));
    for (const url of new Set(urls.filter(isOwn))) {
      const key = keyOf(url);
      if (await cache.match(key)) continue;
      const res = await fetch(key, { credentials: 'same-origin' });
      if (!res.ok) continue;
      const declared = Number(res.headers.get('content-length') ?? NaN);
      if (declared > MAX_FILE_BYTES) {
        await res.body?.cancel();
        continue;
      }
      const blob = await res.blob();
      if (blob.size > MAX_FILE_BYTES) continue;
      const headers = {
        'content-type': res.headers.get('content-type') ?? blob.type,
        [KEPT_AT]: String(Date.now()),
        [SIZE]: String(blob.size),
      };
      await cache.put(key, new Response(blob, { headers }));
    }
    await evict(cache);
  } catch {
    // Storage full or unavailable, or the network went: the document stays online-only.
  }
}

/** Drops the documents kept longest ago until the cache is within its bounds. */
async function evict(cache: Cache): Promise<void> {
  const kept: { key: Request; at: number; size: number }[] = [];
  for (const key of await cache.keys()) {
    const res = await cache.match(key);
    kept.push({ key, at: Number(res?.headers.get(KEPT_AT) ?? 0), size: Number(res?.headers.get(SIZE) ?? 0) });
  }
  kept.sort((a, b) => a.at - b.at);
  let total = kept.reduce((n, k) => n + k.size, 0);
  let count = kept.length;
  for (const k of kept) {
    if (total <= MAX_TOTAL_BYTES && count <= MAX_FILES) break;
    await cache.delete(k.key);
    total -= k.size;
    count -= 1;
  }
}

/**
 * Object URLs of the kept documents among `urls` (absent: not kept). The caller revokes them
 * (`URL.revokeObjectURL`) when it no longer shows them.
 */
export async function keptDocumentUrls(userId: number, urls: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!available()) return out;
  try {
    const cache = await caches.open(cacheName(userId));
    for (const url of new Set(urls)) {
      const res = isOwn(url) ? await cache.match(keyOf(url)) : undefined;
      if (res) out.set(url, URL.createObjectURL(await res.blob()));
    }
  } catch {
    // Nothing kept can be read: every document then needs signal.
  }
  return out;
}

/** Sign-out: the user's kept documents leave the device. */
export async function dropDocuments(userId: number): Promise<void> {
  if (!available()) return;
  try {
    await caches.delete(cacheName(userId));
  } catch {
    // Nothing to drop.
  }
}
