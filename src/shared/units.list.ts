import type { UnitLibraryItem } from './production.schemas';
import type { SortDirection } from './sorting';
import { textKey } from './sorting';

/**
 * The Unit Library page's table rules (docs/product/billing.md §2): search and sortable columns, kept out of the
 * page so they are unit-tested once.
 */

export const UNIT_SORT_COLUMNS = ['code', 'description', 'uom', 'unit_price'] as const;
export type UnitSortColumn = (typeof UNIT_SORT_COLUMNS)[number];
export const UNIT_SORT_STORAGE = { column: 'unitSortColumn', direction: 'unitSortDirection' } as const;
export const UNIT_SORT_DEFAULT: { column: UnitSortColumn; direction: SortDirection } = { column: 'code', direction: 'asc' };

type ListUnit = Pick<UnitLibraryItem, 'id' | 'code' | 'description' | 'uom' | 'unit_price' | 'family' | 'type' | 'action'>;

/** Case-insensitive "contains" over code, description, uom, family, type and action. */
export function matchesUnitSearch(unit: ListUnit, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [unit.code, unit.description, unit.uom, unit.family, unit.type, unit.action].join('\u0000').toLowerCase().includes(q);
}

/**
 * Price numerically (exact to the cent: compared as whole cents), with units without a price
 * last in both directions (they are what the office still has to fill in, found at the end);
 * text columns case-insensitively with digit runs in numeric order; ties by id. A sorted copy.
 */
export function sortUnits<T extends ListUnit>(list: readonly T[], column: UnitSortColumn, direction: SortDirection): T[] {
  const flip = direction === 'asc' ? 1 : -1;
  const keyed = list.map((unit) => ({
    unit,
    key: column === 'unit_price' ? (unit.unit_price == null ? null : Math.round(Number(unit.unit_price) * 100)) : textKey(unit[column]),
  }));
  keyed.sort((a, b) => {
    let c: number;
    if (a.key === null || b.key === null) c = a.key === b.key ? 0 : a.key === null ? 1 : -1;
    else c = flip * (a.key === b.key ? 0 : a.key < b.key ? -1 : 1);
    return c || a.unit.id - b.unit.id;
  });
  return keyed.map((k) => k.unit);
}

export const visibleUnits = <T extends ListUnit>(list: readonly T[], search: string, column: UnitSortColumn, direction: SortDirection): T[] =>
  sortUnits(
    list.filter((u) => matchesUnitSearch(u, search)),
    column,
    direction,
  );
