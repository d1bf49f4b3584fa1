import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { outbox } from './outbox';
import { conflictRows, type TicketChange } from './outboxLogic';

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '(empty)' : String(v));

/**
 * A queued change refused because someone changed the ticket meanwhile (DESIGN §7.1 conflicts):
 * field by field, theirs and mine; the user keeps either. Fields only one side changed were
 * merged without asking; nothing is dropped silently.
 */
export function ConflictDialog({ entry, onClose }: { entry: TicketChange; onClose: () => void }) {
  const rows = entry.theirs ? conflictRows(entry, entry.theirs) : [];
  const [choice, setChoice] = useState<Record<string, 'theirs' | 'mine'>>({});
  const complete = rows.every((r) => choice[r.key]);
  const apply = async () => {
    await outbox.resolveConflict(entry.id, new Set(rows.filter((r) => choice[r.key] === 'mine').map((r) => r.key)));
    onClose();
  };
  return (
    <Modal opened onClose={onClose} title={`${entry.label}: changed by someone else`} size="lg">
      <Stack>
        <Text size="sm">
          While you were offline, the ticket was changed. For each field below, keep their value or yours. Your other changes are kept.
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Theirs</Table.Th>
              <Table.Th>Mine</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                <Table.Td>{r.label}</Table.Td>
                <Table.Td>
                  <Radio
                    name={r.key}
                    label={r.theirs === null && r.key.startsWith('task:') ? 'Removed' : show(r.theirs)}
                    aria-label={`${r.label}: keep theirs (${show(r.theirs)})`}
                    checked={choice[r.key] === 'theirs'}
                    onChange={() => setChoice((c) => ({ ...c, [r.key]: 'theirs' }))}
                  />
                </Table.Td>
                <Table.Td>
                  <Radio
                    name={r.key}
                    label={show(r.mine)}
                    aria-label={`${r.label}: keep mine (${show(r.mine)})`}
                    disabled={r.theirs === null && r.key.startsWith('task:')}
                    checked={choice[r.key] === 'mine'}
                    onChange={() => setChoice((c) => ({ ...c, [r.key]: 'mine' }))}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Decide later
          </Button>
          <Button disabled={!complete} onClick={() => void apply()}>
            Keep my choices
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
