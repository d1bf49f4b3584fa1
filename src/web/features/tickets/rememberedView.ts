/** How the job page shows its tickets (docs/product/map.md §1): as a table or on a map, remembered per device. */
export type TicketView = 'table' | 'map';

/** The localStorage key of that choice, kept as JSON ('"map"', as Mantine's useLocalStorage kept it before). */
export const TICKET_VIEW_KEY = 'linecrew.tickets.view';

/**
 * The remembered view, read before the page renders: the router (usePrefetchJob) and the page's
 * inline early script (src/web/early.ts) start the map's code for it. No imports: early.ts is
 * bundled on its own.
 */
export function rememberedTicketView(): TicketView {
  try {
    return JSON.parse(localStorage.getItem(TICKET_VIEW_KEY) ?? 'null') === 'map' ? 'map' : 'table';
  } catch {
    return 'table';
  }
}
