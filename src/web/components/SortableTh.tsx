import type { ReactNode } from 'react';
import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { SortDirection } from './useStoredSort';

/** A table header that sorts its column; it tells screen readers the current order (aria-sort). */
export function SortableTh({
  children,
  active,
  direction,
  onSort,
}: {
  children: ReactNode;
  active: boolean;
  direction: SortDirection;
  onSort: () => void;
}) {
  const Icon = active ? (direction === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'} style={{ whiteSpace: 'nowrap' }}>
      {/* 44 px high: a finger finds it (WCAG 2.5.5). */}
      <UnstyledButton onClick={onSort} style={{ width: '100%', minHeight: 44 }}>
        <Group gap={4} wrap="nowrap" justify="space-between">
          <Text fw={600} size="sm">
            {children}
          </Text>
          <Icon size={14} stroke={1.6} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
