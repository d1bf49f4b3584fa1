import type { AppContext } from '../context';
import type { DbOrTx } from '../db/client';
import { lockFileUrls, urlsStillReferenced } from './file-references.repository';
import { storageKeyOwnedBy } from './keys';
import type { Storage } from './storage';

/**
 * When a stored file may go. Here, below every module, because the jobs and tickets modules drop
 * references to files, and a file's references span jobs, tickets, permits and images
 * (file-references.repository.ts); the upload routes, which only create files, are a module above.
 */

/**
 * The one way stored files are removed: "delete these objects unless something still points at
 * them". Records may share a url (the same dig-safe PDF on two tickets, the same photo on two
 * tickets, a packet on two jobs), so a file is deleted only when no job, ticket, permit or image
 * of the company refers to it any more. Call it after the transaction that dropped the
 * references has committed; it checks and deletes under a per-url lock (lockFileUrls) that
 * writers attaching an existing upload take too (holdFileUrls).
 *
 * Urls that are empty, foreign or of another company are skipped. Never throws: a storage
 * hiccup must not turn a finished change into an error; it is logged and the file stays (an
 * orphan costs disk space, a wrongly deleted file loses a document). Returns how many objects
 * were deleted.
 */
export async function deleteUnreferencedFiles(
  { db, storage }: AppContext,
  companyId: number,
  urls: readonly (string | null | undefined)[],
  log?: (err: unknown) => void,
): Promise<number> {
  // The canonical url of each object, so "/files/k?x" and "/files/k" are one candidate.
  const candidates = [
    ...new Set(urls.map((u) => storageKeyOwnedBy(storage, companyId, u)).filter((k): k is string => k !== null)),
  ].map((key) => ({ key, url: storage.urlFor(key) }));
  if (candidates.length === 0) return 0;
  try {
    return await db.transaction(async (tx) => {
      await lockFileUrls(
        tx,
        candidates.map((c) => c.url),
        'delete',
      );
      const still = await urlsStillReferenced(
        tx,
        companyId,
        candidates.map((c) => c.url),
      );
      const gone = candidates.filter((c) => !still.has(c.url)).map((c) => c.key);
      // Inside the transaction, so the lock is held until the objects are really gone.
      if (gone.length) await storage.delete(gone);
      return gone.length;
    });
  } catch (err) {
    log?.(err);
    return 0;
  }
}

/**
 * For a write that attaches an existing upload to a record, inside its transaction and before
 * it checks that the object exists (requireUploadedFile): keeps deleteUnreferencedFiles from
 * removing the object between that check and the commit.
 */
export function holdFileUrls(tx: DbOrTx, storage: Storage, urls: readonly string[]): Promise<void> {
  // Locked by canonical url, the name deleteUnreferencedFiles locks.
  const canonical = urls.map((u) => storage.keyFromUrl(u)).filter((k): k is string => k !== null);
  return lockFileUrls(
    tx,
    canonical.map((k) => storage.urlFor(k)),
    'attach',
  );
}
