import { useCallback, useState } from 'react';

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

/**
 * The view and its setter, which remembers the choice. Read once, when the page mounts: Mantine's
 * useLocalStorage read and parsed the stored value on every render of the ticket section (each
 * re-sort, each tick) and once more in an effect; no other tab or component changes it.
 */
export function useTicketView(): [TicketView, (v: TicketView) => void] {
  const [view, setView] = useState(rememberedTicketView);
  const choose = useCallback((v: TicketView) => {
    setView(v);
    try {
      localStorage.setItem(TICKET_VIEW_KEY, JSON.stringify(v));
    } catch {
      // storage full or refused (private mode): the choice lasts for this page only
    }
  }, []);
  return [view, choose];
}
