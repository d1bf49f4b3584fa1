import { Button, Group, Loader, ScrollArea, Table, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { Pole } from '../../../../../shared/tickets.schemas';

/** The poles the search found, each with Select (Selected for the chosen one). */
export function PoleMatches({ loading, poles, chosenId, onSelect }: { loading: boolean; poles: Pole[]; chosenId: number | null; onSelect: (p: Pole) => void }) {
  return (
    <ScrollArea.Autosize mah={220} type="auto">
      {loading ? (
        <Group gap="xs">
          <Loader size="xs" /> <Text size="sm">Searching poles…</Text>
        </Group>
      ) : poles.length === 0 ? (
        <Text size="sm" c="dimmed">
          No existing pole matches. Add it as a new pole below.
        </Text>
      ) : (
        <Table highlightOnHover aria-label="Matching poles" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pole</Table.Th>
              <Table.Th>Line</Table.Th>
              <Table.Th>Utility</Table.Th>
              <Table.Th visibleFrom="sm">Address</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {poles.map((p) => {
              const chosen = chosenId === p.id;
              return (
                <Table.Tr key={p.id} bg={chosen ? 'var(--mantine-color-blue-light)' : undefined}>
                  <Table.Td>{p.pole_name}</Table.Td>
                  <Table.Td>{p.line_name}</Table.Td>
                  <Table.Td>{p.utility_name ?? ''}</Table.Td>
                  <Table.Td visibleFrom="sm">{p.street_address ?? ''}</Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant={chosen ? 'filled' : 'light'}
                      leftSection={chosen ? <IconCheck size={14} /> : undefined}
                      onClick={() => onSelect(p)}
                      aria-label={`${chosen ? 'Selected' : 'Select'} pole ${p.pole_name} line ${p.line_name}`}
                    >
                      {chosen ? 'Selected' : 'Select'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </ScrollArea.Autosize>
  );
}
