import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { outbox } from './outbox';
import { conflictRows, type ConflictRow, type TicketChange } from './outboxLogic';

const show = (v: unknown) => (v === null || v === undefined || v === '' ? '(empty)' : String(v));

/** "Nov 23, 10:42 AM", as the offline copy's date is shown (CopyNote). */
const when = (iso: string) => new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** Who set their value and when, where the server says: "Olivia Office · Nov 23, 10:42 AM". */
function changedBy(row: ConflictRow): string | null {
  const parts = [row.changedBy, row.changedAt ? when(row.changedAt) : null].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * On the phone's ticket, a task whose quantity someone else changed while mine waited: marked
 * until the crew chooses, with the way to the choice.
 */
export function TaskConflict({ row, onChoose }: { row: ConflictRow; onChoose: () => void }) {
  return (
    <Group gap="xs" mt="xs" wrap="nowrap" justify="space-between">
      {/* Dark text (orange on white is below AA contrast); the frame and the icon carry the colour. */}
      <Text size="sm" fw={600}>
        <IconAlertTriangle size={16} aria-hidden color="var(--mantine-color-orange-7)" style={{ verticalAlign: -3, marginRight: 4 }} />
        Changed by {row.changedBy || 'someone else'}: choose which quantity to keep (theirs {show(row.theirs)}, yours {show(row.mine)})
      </Text>
      <Button size="compact-md" color="orange" onClick={onChoose} style={{ flex: 'none' }}>
        Choose
      </Button>
    </Group>
  );
}

/**
 * A queued change refused because someone changed the ticket meanwhile (docs/product/field-mode.md §7 conflicts):
 * field by field, theirs and mine; the user keeps either. A quantity is the actual quantity (bid +
 * change), the number the phone showed, with who set theirs and when. Fields only one side
 * changed were merged without asking; nothing is dropped silently.
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
          While you were offline, someone else changed this ticket. For each line below, keep their value or yours. Quantities are the actual
          quantities, as on the ticket. Your other changes are kept.
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Theirs</Table.Th>
              <Table.Th>Yours</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => {
              const removed = r.theirs === null && r.key.startsWith('task:');
              const by = changedBy(r);
              return (
                <Table.Tr key={r.key}>
                  <Table.Td>{r.label}</Table.Td>
                  <Table.Td>
                    <Radio
                      name={r.key}
                      label={removed ? 'Removed' : show(r.theirs)}
                      description={by}
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
                      disabled={removed}
                      checked={choice[r.key] === 'mine'}
                      onChange={() => setChoice((c) => ({ ...c, [r.key]: 'mine' }))}
                    />
                  </Table.Td>
                </Table.Tr>
              );
            })}
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
