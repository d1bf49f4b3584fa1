/**
 * The list of a lazy page's files that the build writes (vite.config.ts `pagePreloads()`), the
 * server puts into that page's HTML (src/server/page-html.ts) and the early script reads to start
 * them (src/web/early.ts): decision 064. One place for its file, its element and its shape.
 */

/** Where the build writes the lists, under the built web app. */
export const PAGE_PRELOADS_FILE = '.vite/page-preloads.json';

/** The id of the data block the server writes into the page's HTML. */
export const PRELOADS_ID = 'linecrew-preloads';

/** One page's list: its own files, and the map's (started first on a device that opens the job on its map). */
export interface PagePreloads {
  files: string[];
  map: string[];
}
