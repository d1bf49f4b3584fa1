import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** A query key the app keeps an offline copy of (src/web/offline/copies.ts keepsCopy). */
export type KeptKey = readonly ['tickets', number] | readonly ['work', 'all' | number] | readonly ['crew', 'myData'];
export const ticketKey = (id: number): KeptKey => ['tickets', id];
export const MY_WORK: KeptKey = ['work', 'all'];
/** One's own account: the User page. */
export const MY_ACCOUNT: KeptKey = ['crew', 'myData'];

/**
 * Waits until the phone's IndexedDB holds an offline copy of each key. The app writes copies when
 * the browser is next idle after the server's answer (at most 2 s, longer on a loaded machine), so
 * a fixed wait before cutting the network was a race: the offline page then truly had no copy.
 */
export async function keptOnDevice(page: Page, keys: readonly KeptKey[]) {
  const wanted = keys.map((k) => JSON.stringify(k));
  await expect
    .poll(
      () =>
        page.evaluate(async (wanted) => {
          // Opening a database that does not exist yet would create it empty at version 1, and
          // the app's own open (version 1) would then never create its stores.
          if (!(await indexedDB.databases()).some((d) => d.name === 'linecrew-offline')) return wanted;
          const db = await new Promise<IDBDatabase>((ok, fail) => {
            const req = indexedDB.open('linecrew-offline');
            req.onsuccess = () => ok(req.result);
            req.onerror = () => fail(req.error);
          });
          try {
            const all = await new Promise<{ queryKey: unknown[] }[]>((ok, fail) => {
              const req = db.transaction('copies').objectStore('copies').getAll();
              req.onsuccess = () => ok(req.result as { queryKey: unknown[] }[]);
              req.onerror = () => fail(req.error);
            });
            const have = new Set(all.map((c) => JSON.stringify(c.queryKey)));
            return wanted.filter((k) => !have.has(k));
          } finally {
            db.close();
          }
        }, wanted),
      { message: `offline copies of ${wanted.join(', ')}`, timeout: 30_000 },
    )
    .toEqual([]);
}
