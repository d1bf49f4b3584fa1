import { useCallback, useMemo, useState } from 'react';
import type { TicketRow } from '../../../shared/tickets.schemas';

/** The ticked tickets (Create Task adds its unit to them): toggled one by one or all shown at once. */
export function useTicketSelection(tickets: TicketRow[]) {
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const onToggle = useCallback((id: number) => {
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }, []);
  const onToggleAll = useCallback((ids: number[] | null) => setSelected(new Set(ids ?? [])), []);
  // Selections of tickets that no longer exist are dropped.
  const selectedIds = useMemo(() => tickets.filter((t) => selected.has(t.id)).map((t) => t.id), [tickets, selected]);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, selectedIds, onToggle, onToggleAll, clear };
}
