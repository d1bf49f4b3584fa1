import { CREW_STATUS } from './constants';
import type { CrewMember } from './crew.schemas';
import { fullName } from './names';
import type { SortDirection } from './sorting';
import { compareDate, compareText } from './sorting';

/**
 * The crew roster's table rules (docs/product/screens.md §7 Crew, §9): status filter, search and sortable columns.
 * Kept out of the page so they are unit-tested once.
 */

export type CrewStatusFilter = 'Active' | 'Inactive' | 'All';
export const CREW_STATUS_FILTERS: readonly CrewStatusFilter[] = ['Active', 'Inactive', 'All'];
export const DEFAULT_CREW_STATUS_FILTER: CrewStatusFilter = 'Active';

/** Sortable columns, keyed by the field they sort on. */
export const CREW_SORT_COLUMNS = ['first_name', 'display_role_name', 'foreman', 'phone_number', 'email', 'status_name', 'date_created'] as const;
export type CrewSortColumn = (typeof CREW_SORT_COLUMNS)[number];

/** docs/product/rules.md §4.5: the crew list keeps its own sort keys in browser storage; defaults first_name, desc. */
export const CREW_SORT_STORAGE = { column: 'crewSortColumn', direction: 'crewSortDirection' } as const;
export const CREW_SORT_DEFAULT: { column: CrewSortColumn; direction: SortDirection } = { column: 'first_name', direction: 'desc' };

export const foremanName = (m: Pick<CrewMember, 'foreman_firstname' | 'foreman_lastname'>) => fullName(m.foreman_firstname, m.foreman_lastname);

export function matchesStatus(m: Pick<CrewMember, 'crew_status'>, filter: CrewStatusFilter): boolean {
  if (filter === 'All') return true;
  return m.crew_status === (filter === 'Active' ? CREW_STATUS.ACTIVE : CREW_STATUS.INACTIVE);
}

/** Case-insensitive search over every column a person reads in the table. */
export function matchesSearch(m: CrewMember, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (!q) return true;
  return [fullName(m.first_name, m.last_name), m.display_role_name, foremanName(m), m.phone_number ?? '', m.email, m.status_name].some((v) =>
    v.toLowerCase().includes(q),
  );
}

function sortText(m: CrewMember, column: Exclude<CrewSortColumn, 'date_created'>): string {
  if (column === 'first_name') return fullName(m.first_name, m.last_name);
  if (column === 'foreman') return foremanName(m);
  return String(m[column] ?? '');
}

/** Date Added by time, everything else as case-insensitive text (src/shared/sorting); ties keep a stable order by id. */
export function sortCrew(list: readonly CrewMember[], column: CrewSortColumn, direction: SortDirection): CrewMember[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...list].sort((a, b) => {
    const cmp =
      column === 'date_created' ? compareDate(a.date_created, b.date_created, direction) : sign * compareText(sortText(a, column), sortText(b, column));
    return cmp !== 0 ? cmp : a.id - b.id;
  });
}

export function visibleCrew(list: readonly CrewMember[], opts: { status: CrewStatusFilter; search: string; column: CrewSortColumn; direction: SortDirection }) {
  return sortCrew(
    list.filter((m) => matchesStatus(m, opts.status) && matchesSearch(m, opts.search)),
    opts.column,
    opts.direction,
  );
}
