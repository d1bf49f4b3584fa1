import { memo, useMemo, useState } from 'react';
import { Button, Checkbox, Drawer, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconAdjustmentsHorizontal, IconSearch } from '@tabler/icons-react';
import { sortTextValues, type SortState } from '../../../shared/sorting';
import type { TicketSortColumn } from '../../../shared/sorting';
import { ChoiceButtons } from '../../components/ChoiceButtons';
import { PhoneSortPicker } from '../../components/PhoneSortPicker';
import { COLUMNS } from './TicketsTable';
import { ALL, type TicketFilterState } from './useTicketRows';

const STATUSES = [
  { value: 'All', label: 'All' },
  { value: 'Pending', label: 'Pending' },
  { value: 'Complete', label: 'Complete' },
] as const;

const SORT_OPTIONS = COLUMNS.map((c) => ({ value: c.key, label: c.label }));

/**
 * A Pole or Line filter. Memoised with its option list: a job of 5,000 poles gives a Select of
 * 5,000 options, which must not re-render on every sort; the list shows 100 matches at a time.
 * Until it is first focused (a click or a tap focuses it too) the Select is given only All and
 * the chosen value, and the options are sorted (the table's text order) only then: Mantine's Select checks, indexes and filters its whole list on every render
 * (~100 ms for 5,000 poles on a desktop), which was part of the job page's first render
 * (decision 061). Nothing can be chosen or typed before the focus, so nothing differs.
 */
const FilterSelect = memo(function FilterSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: ReadonlySet<string>;
  value: string;
  onChange: (v: string) => void;
}) {
  const [focused, setFocused] = useState(false);
  const sorted = useMemo(() => (focused ? sortTextValues(options) : null), [focused, options]);
  const data = useMemo(() => (sorted ? [ALL, ...sorted] : value === ALL ? [ALL] : [ALL, value]), [sorted, value]);
  return (
    <Select
      label={label}
      data={data}
      value={value}
      onFocus={() => setFocused(true)}
      onChange={(v) => onChange(v ?? ALL)}
      allowDeselect={false}
      searchable
      limit={100}
      w={{ base: '100%', xs: 140 }}
      // keepMounted: false, the dropdown mounted only while open. Mantine's Combobox keeps it
      // mounted (hidden) by default, so each filter computed its hidden dropdown's position with
      // floating-ui as the page was drawn and re-rendered itself synchronously with the result
      // (flushSync): part of the job page's first paint (decision 064). aria-controls is set only
      // while the list is open either way.
      comboboxProps={{ withinPortal: true, keepMounted: false }}
    />
  );
});

/**
 * Pole, Line (when the job has more than one), Status, and the dig filters (docs/product/records.md).
 * Memoised: a re-sort does not re-render them.
 */
export const FilterControls = memo(function FilterControls({
  poles,
  lines,
  pole,
  line,
  status,
  onPole,
  onLine,
  onStatus,
  expiring,
  onExpiring,
  notClear,
  onNotClear,
  evidence,
  onEvidence,
}: TicketFilterState) {
  return (
    <>
      {poles.size > 1 && <FilterSelect label="Pole" options={poles} value={pole} onChange={onPole} />}
      {lines.size > 1 && <FilterSelect label="Line" options={lines} value={line} onChange={onLine} />}
      <Stack gap={4}>
        <Text size="sm" fw={500} id="ticket-status-filter">
          Status
        </Text>
        <ChoiceButtons labelledBy="ticket-status-filter" options={STATUSES} value={status} onChange={onStatus} />
      </Stack>
      {/* 24 px boxes: three stacked 20 px ones are closer than a finger's target (WCAG 2.5.8). */}
      <Stack gap={6} justify="flex-end">
        <Checkbox size="md" label="Permits: expiring / expired" checked={expiring} onChange={(e) => onExpiring(e.currentTarget.checked)} />
        <Checkbox size="md" label="Not clear to dig" checked={notClear} onChange={(e) => onNotClear(e.currentTarget.checked)} />
        <Checkbox size="md" label="Evidence: missing" checked={evidence} onChange={(e) => onEvidence(e.currentTarget.checked)} />
      </Stack>
    </>
  );
});

/** The search box; on a phone its label is read, not shown: the first ticket card must stay on the first screen. */
export function TicketSearch({ value, onChange, phone }: { value: string; onChange: (v: string) => void; phone: boolean }) {
  return (
    <TextInput
      type="search"
      label={phone ? undefined : 'Search tickets'}
      aria-label="Search tickets"
      placeholder="Pole, line, street, work order or unit"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={{ base: '100%', xs: 280 }}
    />
  );
}

/** "N tickets" or "N of M tickets", announced as it changes. */
export function TicketCount({ shown, total }: { shown: number; total: number }) {
  return (
    <Text size="sm" c="dimmed" ml="auto" aria-live="polite">
      {shown === total ? `${total} tickets` : `${shown} of ${total} tickets`}
    </Text>
  );
}

/** On a phone the filters and the sort sit in a drawer from the bottom, opened by Filters (N). */
export function PhoneFilters({
  filters,
  active,
  sort,
  onSort,
  shown,
  total,
}: {
  filters: TicketFilterState;
  active: number;
  sort: SortState<TicketSortColumn>;
  onSort: (c: TicketSortColumn) => void;
  shown: number;
  total: number;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Group gap="xs" wrap="nowrap">
        <Button variant="default" leftSection={<IconAdjustmentsHorizontal size={18} />} onClick={() => setOpen(true)}>
          Filters{active ? ` (${active})` : ''}
        </Button>
        <TicketCount shown={shown} total={total} />
      </Group>
      <Drawer opened={open} onClose={() => setOpen(false)} position="bottom" title="Filter and sort tickets" size="auto" closeButtonProps={{ 'aria-label': 'Close filters' }}>
        <Stack gap="md" pb="md">
          <FilterControls {...filters} />
          <PhoneSortPicker options={SORT_OPTIONS} sort={sort} onSort={onSort} />
          <Button onClick={() => setOpen(false)}>Show {shown} ticket{shown === 1 ? '' : 's'}</Button>
        </Stack>
      </Drawer>
    </>
  );
}
