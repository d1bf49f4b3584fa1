import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { OutboxEntry } from './outboxLogic';

/**
 * The browser's own database (IndexedDB), which outlives a reload, a closed browser and a
 * phone's restart: the copies of what a crew opened and the changes waiting to be sent.
 * Everything is keyed by user, so a shared tablet never shows or sends one user's data as
 * another's.
 */
export interface Copy {
  /** `${userId} ${JSON.stringify(queryKey)}` */
  id: string;
  userId: number;
  queryKey: readonly unknown[];
  /** The reply as an object (small replies, and copies kept before `json`)… */
  data?: unknown;
  /** …or the JSON it was parsed from, as a Blob (large replies: api/client.ts replyJson). */
  json?: Blob;
  /** When the server sent it (ms since epoch): "Offline copy from …". */
  updatedAt: number;
}

interface OfflineSchema extends DBSchema {
  copies: { key: string; value: Copy; indexes: { byUser: number } };
  outbox: { key: number; value: OutboxEntry; indexes: { byUser: number } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opened: Promise<OfflineDb> | null = null;

/** One connection per page. Rejects where IndexedDB is unavailable (some private modes). */
export function offlineDb(): Promise<OfflineDb> {
  opened ??= openDB<OfflineSchema>('linecrew-offline', 1, {
    upgrade(db) {
      db.createObjectStore('copies', { keyPath: 'id' }).createIndex('byUser', 'userId');
      db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true }).createIndex('byUser', 'userId');
    },
    // Another tab opened a newer version of the app: let it upgrade, reopen on next use.
    blocking() {
      void opened?.then((db) => db.close());
      opened = null;
    },
  });
  return opened;
}
