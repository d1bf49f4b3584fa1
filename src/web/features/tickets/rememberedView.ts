/**
 * The job page's remembered Table/Map choice (docs/product/map.md §1), in a module of its own that
 * imports nothing: the early script (src/web/early.ts, bundled apart) reads it too, to start the
 * map's files for a device that opens the job on its map (decision 064).
 */

/** How the job page shows its tickets (docs/product/map.md §1): as a table or on a map, remembered per device. */
export type TicketView = 'table' | 'map';

/** The localStorage key of that choice, kept as JSON ('"map"', as Mantine's useLocalStorage kept it before). */
export const TICKET_VIEW_KEY = 'linecrew.tickets.view';

/** The remembered view, read before the page renders (router.tsx usePrefetchJob preloads the map for it). */
export function rememberedTicketView(): TicketView {
  try {
    return JSON.parse(localStorage.getItem(TICKET_VIEW_KEY) ?? 'null') === 'map' ? 'map' : 'table';
  } catch {
    return 'table';
  }
}
