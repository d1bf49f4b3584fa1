import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { nextSort, type SortState } from '../../../shared/sorting';
import { sortTickets, warmTicketSortKeys, type TicketSortColumn } from '../../../shared/sorting';
import { clearToDig, ticketExpiry } from '../../../shared/dig-safe';
import { isEvidenced } from '../../../shared/evidence';
import { companyDay } from '../../api/session';
import { searchWords, ticketMatches } from '../../../shared/ticket-search';
import type { TicketRow } from '../../../shared/tickets.schemas';
import { useRowsMeasure } from './timingMarks';
import type { TicketView } from './rememberedView';

export const ALL = 'All';
/** Sort keys made per slice of idle time: ~1 ms of work on a phone. */
const WARM_ROWS = 200;
export type StatusFilter = 'All' | 'Pending' | 'Complete';

/**
 * Distinct non-empty values for the Pole and Line filters. A set, not sorted here: the filter
 * sorts them when its Select is first focused (TicketFilters.tsx), not in the page's first render.
 */
function distinct(rows: TicketRow[], pick: (t: TicketRow) => string | null): ReadonlySet<string> {
  const set = new Set<string>();
  for (const r of rows) {
    const v = pick(r);
    if (v) set.add(v);
  }
  return set;
}

/**
 * The rows the job page shows: its tickets sorted, then filtered by Pole, Line, Status, "Permits:
 * expiring / expired", "Not clear to dig" and the search words. Sorting and filtering are memoised, so a job of 5,000 tickets stays responsive;
 * each change is measured (timingMarks.ts).
 */
export function useTicketRows(tickets: TicketRow[], view: TicketView, evidenceRequired = 1) {
  const [poleFilter, setPoleFilter] = useState<string>(ALL);
  const [lineFilter, setLineFilter] = useState<string>(ALL);
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('All');
  // docs/product/records.md §2: tickets whose permits or dig safe expire within 7 days or have expired, and
  // tickets not clear to dig, on the company's day.
  const [expiringFilter, setExpiringFilter] = useState(false);
  const [notClearFilter, setNotClearFilter] = useState(false);
  // docs/product/records.md §8 "Evidence: missing": Complete tickets short of the photos required (src/shared/evidence.ts).
  const [evidenceFilter, setEvidenceFilter] = useState(false);
  // Text search (docs/product/rules.md §4.1): pole, line, street, work order, unit code — My Work's rule. Deferred,
  // so typing stays smooth while 5,000 rows are filtered.
  const [searchInput, setSearchInput] = useState('');
  const search = useDeferredValue(searchInput);
  const [sort, setSort] = useState<SortState<TicketSortColumn>>({ column: 'pole_name', direction: 'asc' });

  const poles = useMemo(() => distinct(tickets, (t) => t.pole_name), [tickets]);
  const lines = useMemo(() => distinct(tickets, (t) => t.line_name), [tickets]);

  // A filter whose value disappeared (ticket deleted or merged) falls back to All.
  const pole = poleFilter !== ALL && poles.has(poleFilter) ? poleFilter : ALL;
  const line = lineFilter !== ALL && lines.has(lineFilter) ? lineFilter : ALL;

  // Sort everything once per sort order, then filter the sorted list (filtering keeps the order):
  // changing a filter never re-sorts, and re-sorting reuses cached keys (src/shared/sorting.ts).
  // The map draws the same rows in any order: it skips the sort (keys for 5,000 rows) until the
  // table or the cards are shown. Not deferred: with the keys made in idle time (below) a re-sort
  // of 5,000 rows is a few ms, and a deferred sort cost a second render of the section and often
  // a frame between the two, most of the click → re-sorted rows time (the < 100 ms of docs/product/scale.md §3).
  const sorted = useMemo(() => (view === 'map' ? tickets : sortTickets(tickets, sort.column, sort.direction)), [tickets, sort, view]);
  const rows = useMemo(() => {
    const words = searchWords(search);
    const today = companyDay();
    return pole === ALL && line === ALL && statusFilter === 'All' && !expiringFilter && !notClearFilter && !evidenceFilter && words.length === 0
      ? sorted
      : sorted.filter(
          (t) =>
            (pole === ALL || t.pole_name === pole) &&
            (line === ALL || t.line_name === line) &&
            (statusFilter === 'All' || t.status === statusFilter) &&
            (!expiringFilter || ticketExpiry(t, today) !== null) &&
            (!notClearFilter || clearToDig(t, today).clear_to_dig === false) &&
            (!evidenceFilter || isEvidenced(t, evidenceRequired) === false) &&
            ticketMatches(t, words),
        );
  }, [sorted, pole, line, statusFilter, expiringFilter, notClearFilter, evidenceFilter, evidenceRequired, search]);

  // While the browser is idle, prepare the sort keys of the other columns: the first click on
  // any header then costs what a repeat click does. A few hundred rows at a time, for as long as
  // the idle period lasts: a whole column at once (5,000 addresses) was a long task on a phone,
  // blocking whoever touched the page then (decision 058).
  useEffect(() => {
    if (view === 'map' || tickets.length < 500 || typeof requestIdleCallback === 'undefined') return;
    let at: Parameters<typeof warmTicketSortKeys>[1] | null = { column: 0, row: 0 };
    let handle = 0;
    const step = (deadline: IdleDeadline) => {
      do at = warmTicketSortKeys(tickets, at!, WARM_ROWS);
      while (at && deadline.timeRemaining() > 2);
      if (at) handle = requestIdleCallback(step, { timeout: 5000 });
    };
    handle = requestIdleCallback(step, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }, [tickets, view]);

  const startMeasure = useRowsMeasure(rows);
  const onSort = useCallback(
    (c: TicketSortColumn) => {
      startMeasure('tickets-sort');
      setSort((s) => nextSort(s, c));
    },
    [startMeasure],
  );
  // Each filter's change starts the rows' timing mark, then sets the filter.
  const { onPole, onLine, onStatus, onExpiring, onNotClear, onEvidence } = useMemo(() => {
    const measured =
      <T,>(set: (v: T) => void) =>
      (v: T) => {
        startMeasure('tickets-filter');
        set(v);
      };
    return {
      onPole: measured(setPoleFilter),
      onLine: measured(setLineFilter),
      onStatus: measured((v: string) => setStatusFilter(v as StatusFilter)),
      onExpiring: measured(setExpiringFilter),
      onNotClear: measured(setNotClearFilter),
      onEvidence: measured(setEvidenceFilter),
    };
  }, [startMeasure]);
  const onSearch = (v: string) => {
    startMeasure('tickets-filter');
    setSearchInput(v);
  };

  return {
    rows,
    sort,
    onSort,
    filters: { poles, lines, pole, line, status: statusFilter, onPole, onLine, onStatus, expiring: expiringFilter, onExpiring, notClear: notClearFilter, onNotClear, evidence: evidenceFilter, onEvidence },
    /** How many of Pole, Line, Status and the dig filters narrow the list (the phone's Filters button shows it). */
    active: (pole !== ALL ? 1 : 0) + (line !== ALL ? 1 : 0) + (statusFilter !== 'All' ? 1 : 0) + (expiringFilter ? 1 : 0) + (notClearFilter ? 1 : 0) + (evidenceFilter ? 1 : 0),
    searchInput,
    /** The search as filtered (deferred): what the empty list's words depend on. */
    search,
    onSearch,
  };
}

export type TicketFilterState = ReturnType<typeof useTicketRows>['filters'];
