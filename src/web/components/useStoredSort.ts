import { useCallback, useState } from 'react';
import { nextSort, type SortState } from '../../shared/sorting';

export type { SortDirection, SortState } from '../../shared/sorting';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string) {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the sort still works, it just is not remembered.
  }
}

/**
 * A table's sort, remembered in localStorage under the list's own keys (docs/product/rules.md §4.5). Clicking the
 * current column flips its direction; a newly chosen column starts ascending.
 */
export function useStoredSort<C extends string>(
  keys: { column: string; direction: string },
  defaults: SortState<C>,
  columns: readonly C[],
): [SortState<C>, (column: C) => void] {
  const [sort, setSort] = useState<SortState<C>>(() => {
    const column = read(keys.column) as C | null;
    const direction = read(keys.direction);
    return {
      column: column && columns.includes(column) ? column : defaults.column,
      direction: direction === 'asc' || direction === 'desc' ? direction : defaults.direction,
    };
  });

  const toggle = useCallback(
    (column: C) => {
      setSort((current) => {
        const next = nextSort(current, column);
        write(keys.column, next.column);
        write(keys.direction, next.direction);
        return next;
      });
    },
    [keys.column, keys.direction],
  );

  return [sort, toggle];
}
