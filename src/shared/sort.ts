/** Table sorting rule shared by every sortable list (SPEC §5): direction toggles, a new column starts ascending. */
export type SortDirection = 'asc' | 'desc';
export interface SortState<C extends string = string> {
  column: C;
  direction: SortDirection;
}

export function nextSort<C extends string>(current: SortState<C>, column: C): SortState<C> {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}
