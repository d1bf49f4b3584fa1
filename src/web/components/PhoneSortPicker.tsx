import { ActionIcon, Group, NativeSelect } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { SortState } from '../../shared/sorting';

/**
 * A list's sort on a phone, where there are no column headers to click: the column as a picker
 * and the direction as a toggle (44 px: a finger finds it). Same rule as the headers (shared/sort.ts).
 * A native select: the phone's own picker is what a thumb knows, and it keeps the popover
 * library (floating-ui, ~20 KB gzip) out of the list pages' first load.
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
      <NativeSelect
        label="Sort by"
        data={options as { value: C; label: string }[]}
        value={sort.column}
        onChange={(e) => e.currentTarget.value !== sort.column && onSort(e.currentTarget.value as C)}
        style={{ flex: 1 }}
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
