import { Alert, Button, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ApplyMode, ReimportPreview } from '../../../../shared/reimport';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0}>
      <Text size="xl" fw={700}>
        {value.toLocaleString('en-US')}
      </Text>
      <Text size="sm">{label}</Text>
    </Stack>
  );
}

/**
 * What importing a workbook into this job will do (decision 018): new tickets,
 * new tasks, changed quantities (bid now → in the file) and unchanged rows; the user chooses
 * "Add new only" or "Update quantities too". Rows that match a task already on the job never
 * add a second task, whichever is chosen.
 */
export function ReimportPreviewModal({
  fileName,
  preview,
  stale,
  busy,
  onChoose,
  onCancel,
}: {
  fileName: string;
  preview: ReimportPreview;
  /** Set when the job changed since the previous preview: this one replaces it. */
  stale: string | null;
  busy: ApplyMode | null;
  onChoose: (mode: ApplyMode) => void;
  onCancel: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const changed = preview.changed_total;
  const nothingNew = preview.new_tickets === 0 && preview.new_tasks === 0;
  const more = changed - preview.changed_quantities.length;
  return (
    <Modal opened onClose={onCancel} title="Spreadsheet preview" size="lg" centered fullScreen={phone} scrollAreaComponent={ScrollArea.Autosize}>
      <Stack gap="md">
        <Text size="sm">
          What importing <strong>{fileName}</strong> will do to this job. Rows that match a ticket (pole + line) and a unit already on it never add a second
          task.
        </Text>
        {stale && (
          <Alert color="yellow" role="alert" p="xs">
            <Text size="sm">{stale}</Text>
          </Alert>
        )}
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Figure label="New tickets" value={preview.new_tickets} />
          <Figure label="New tasks" value={preview.new_tasks} />
          <Figure label="Changed quantities" value={changed} />
          <Figure label="Unchanged rows" value={preview.unchanged} />
        </SimpleGrid>
        {changed > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={600} id="reimport-changes">
              Bid quantities that differ from the file
            </Text>
            <ScrollArea.Autosize mah={260}>
              <Table striped withTableBorder aria-labelledby="reimport-changes">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Pole</Table.Th>
                    <Table.Th>Line</Table.Th>
                    <Table.Th>Unit</Table.Th>
                    <Table.Th ta="right">Bid now</Table.Th>
                    <Table.Th ta="right">In the file</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.changed_quantities.map((c) => (
                    <Table.Tr key={`${c.pole}\u0000${c.line}\u0000${c.code}`}>
                      <Table.Td>{c.pole}</Table.Td>
                      <Table.Td>{c.line}</Table.Td>
                      <Table.Td>{c.code}</Table.Td>
                      <Table.Td ta="right">{c.from}</Table.Td>
                      <Table.Td ta="right">{c.to}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
            {more > 0 && <Text size="sm">… and {plural(more, 'more change')}.</Text>}
          </Stack>
        )}
        <Text size="sm">
          {nothingNew && changed === 0
            ? 'Every row is already on the job with the same quantity: there is nothing to import.'
            : `"Add new only" adds ${plural(preview.new_tickets, 'ticket')} and ${plural(preview.new_tasks, 'task')} and keeps the bid quantities on the job. ` +
              (changed > 0 ? `"Update quantities too" also sets ${plural(changed, 'bid quantity', 'bid quantities')} to the file's.` : '')}
        </Text>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onCancel} disabled={busy !== null}>
            Cancel
          </Button>
          <Button variant="light" onClick={() => onChoose('add_new')} loading={busy === 'add_new'} disabled={nothingNew || busy === 'update_quantities'}>
            Add new only
          </Button>
          <Button onClick={() => onChoose('update_quantities')} loading={busy === 'update_quantities'} disabled={changed === 0 || busy === 'add_new'}>
            Update quantities too
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
