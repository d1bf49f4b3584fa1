/** How the job page shows its tickets (docs/product/map.md §1): as a table or on a map, remembered per device. */
export type TicketView = 'table' | 'map';

/** The localStorage key of that choice (Mantine's useLocalStorage keeps it as JSON: '"map"'). */
export const TICKET_VIEW_KEY = 'linecrew.tickets.view';

/** The remembered view, read before the page renders (router.tsx usePrefetchJob preloads the map for it). */
export function rememberedTicketView(): TicketView {
  try {
    return JSON.parse(localStorage.getItem(TICKET_VIEW_KEY) ?? 'null') === 'map' ? 'map' : 'table';
  } catch {
    return 'table';
  }
}
