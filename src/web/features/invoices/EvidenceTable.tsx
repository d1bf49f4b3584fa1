import { Stack, Table, Text } from '@mantine/core';
import type { InvoicePreview } from '../../../shared/invoices.schemas';
import { CompletionRecord, PhotoChecks } from '../../components/Evidence';

/**
 * The invoice check (docs/product/records.md §9): per ticket the preview picked, its photos and
 * their checks, who completed it, when and where, and whether a quantity changed after that.
 * Tickets left out by "Leave out tickets without evidence" come first, with why.
 */
export function EvidenceTable({ preview }: { preview: InvoicePreview }) {
  const left = new Map(preview.skipped.map((s) => [s.ticket_id, s.reason]));
  const rows = [...preview.evidence].sort((a, b) => Number(left.has(b.ticket_id)) - Number(left.has(a.ticket_id)));
  const missing = preview.evidence.filter((e) => !e.evidenced).length;
  return (
    <Stack gap={4} data-testid="invoice-evidence">
      <Text fw={600}>
        Evidence: {preview.evidence.length - missing} of {preview.evidence.length} tickets evidenced
        {preview.skipped.length > 0 ? `, ${preview.skipped.length} left out` : ''}
      </Text>
      <Table.ScrollContainer minWidth={560} maxHeight={280} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': 'Evidence of each ticket' } }}>
        <Table verticalSpacing={4} fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Pole · Line</Table.Th>
              <Table.Th>Evidence</Table.Th>
              <Table.Th>Photos</Table.Th>
              <Table.Th>Completed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((e) => (
              <Table.Tr key={e.ticket_id} data-testid={`evidence-${e.ticket_id}`}>
                <Table.Td>
                  {e.pole_name ?? '--'} · {e.line_name ?? '--'}
                </Table.Td>
                <Table.Td>
                  {left.has(e.ticket_id) ? (
                    <Text size="sm" fw={700} c="red.9">Left out</Text>
                  ) : e.evidenced ? (
                    <Text size="sm" fw={700} c="green.9">Evidenced</Text>
                  ) : (
                    <Text size="sm" fw={700} c="red.9">Missing</Text>
                  )}
                  {e.reason && <Text size="xs">{e.reason}</Text>}
                  {e.qty_changed_after_completion && (
                    <Text size="xs" c="red.9">
                      Quantities changed after completion
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="xs">
                    {e.evidence_photo_count} of {e.photo_count} count
                  </Text>
                  {e.photos.map((p) => (
                    <PhotoChecks key={p.id} image={p} />
                  ))}
                </Table.Td>
                <Table.Td>
                  <CompletionRecord ticket={{ ...e, actual_completion_date: e.actual_completion_date }} size="xs" />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
