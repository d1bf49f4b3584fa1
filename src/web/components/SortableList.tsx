import { Fragment, type ReactNode } from 'react';
import { Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { SortState } from '../../shared/sorting';
import { PhoneSortPicker } from './PhoneSortPicker';
import { SortableTh } from './SortableTh';

/**
 * A sortable list of records: a table with sortable headers, or on a phone one card per record
 * under a sort picker. Says `empty` where there is nothing to show.
 */
export function SortableList<T extends { id: number }, C extends string>({
  label,
  minWidth,
  columns,
  sort,
  onSort,
  rows,
  empty,
  row,
  card,
  highlightOnHover = true,
}: {
  /** The table's accessible name. */
  label: string;
  /** Below this width the table scrolls sideways. */
  minWidth: number;
  columns: readonly { column: C; label: string }[];
  sort: SortState<C>;
  onSort: (column: C) => void;
  rows: readonly T[];
  empty: ReactNode;
  /** One table row (a Table.Tr) of a record. */
  row: (record: T) => ReactNode;
  /** One card of a record, on a phone. */
  card: (record: T) => ReactNode;
  highlightOnHover?: boolean;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const emptyText = (
    <Text c="dimmed" ta="center" py="md" component="div">
      {empty}
    </Text>
  );

  if (phone)
    return (
      <Stack gap="sm">
        <PhoneSortPicker options={columns.map((c) => ({ value: c.column, label: c.label }))} sort={sort} onSort={onSort} />
        {rows.length === 0 ? emptyText : rows.map((r) => <Fragment key={r.id}>{card(r)}</Fragment>)}
      </Stack>
    );

  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover={highlightOnHover} verticalSpacing="sm" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <SortableTh key={c.column} active={sort.column === c.column} direction={sort.direction} onSort={() => onSort(c.column)}>
                {c.label}
              </SortableTh>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>{emptyText}</Table.Td>
            </Table.Tr>
          ) : (
            rows.map((r) => <Fragment key={r.id}>{row(r)}</Fragment>)
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
