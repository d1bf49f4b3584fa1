import { ActionIcon, Group, Select } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { SortState } from '../../shared/sort';

/**
 * A list's sort on a phone, where there are no column headers to click: the column as a picker
 * and the direction as a toggle (44 px: a finger finds it). Same rule as the headers (shared/sort.ts).
 */
export function PhoneSortPicker<C extends string>({
  options,
  sort,
  onSort,
}: {
  options: readonly { value: C; label: string }[];
  sort: SortState<C>;
  onSort: (column: C) => void;
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-end">
      <Select
        label="Sort by"
        data={options}
        value={sort.column}
        onChange={(v) => v && v !== sort.column && onSort(v as C)}
        allowDeselect={false}
        style={{ flex: 1 }}
        comboboxProps={{ withinPortal: true }}
      />
      <ActionIcon
        variant="default"
        size={44}
        aria-label={sort.direction === 'asc' ? 'Sorted ascending; sort descending' : 'Sorted descending; sort ascending'}
        onClick={() => onSort(sort.column)}
      >
        {sort.direction === 'asc' ? <IconSortAscending size={20} /> : <IconSortDescending size={20} />}
      </ActionIcon>
    </Group>
  );
}
