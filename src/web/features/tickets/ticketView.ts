import { useCallback, useState } from 'react';
import { rememberedTicketView, TICKET_VIEW_KEY, type TicketView } from './rememberedView';

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
