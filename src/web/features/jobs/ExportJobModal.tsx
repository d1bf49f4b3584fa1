import { Alert, Button, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { buildExportCsv, EXPORT_PROBLEM, exportProblems, type ExportOption } from '../../../shared/export';
import type { Job } from '../../../shared/jobs.schemas';
import { useJobTickets } from './api/jobTickets';

/** Saves text as a file the browser downloads. */
function download(fileName: string, text: string) {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const OPTIONS: { option: ExportOption; label: string; description: string }[] = [
  { option: 1, label: 'Option 1 (Priority items)', description: 'Tickets with tasks: work orders, units, bid and completed quantities, coordinates, notes, completion time.' },
  { option: 2, label: 'Option 2 (All items)', description: 'Every ticket with the job name: work orders, units, bid quantities, notes, completion time.' },
];

/**
 * 'Select an export option' (SPEC §2 Export): two buttons that download the CSV built by
 * src/shared/export.ts; disabled, with the reason of SPEC §5 as tooltip, unless the data is complete.
 * The full tickets are loaded when the modal opens (the job page holds only the table's rows).
 */
export function ExportJobModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose: () => void }) {
  const full = useJobTickets(job.id, opened);
  const loading = opened && full.isPending;
  const exportable = full.data ? { ...job, tickets: full.data } : null;
  const reason = opened && !loading ? (full.error ? EXPORT_PROBLEM.ticketsNotLoaded : exportProblems(exportable)) : null;

  return (
    <Modal opened={opened} onClose={onClose} title="Select an export option" centered>
      <Stack gap="sm">
        {OPTIONS.map(({ option, label, description }) => (
          <Stack key={option} gap={2}>
            <Tooltip label={reason} disabled={!reason} multiline w={280} withArrow>
              <Button
                fullWidth
                loading={loading}
                leftSection={<IconDownload size={16} />}
                data-disabled={reason ? true : undefined}
                aria-disabled={reason ? true : undefined}
                onClick={(e) => {
                  if (reason || !exportable) {
                    e.preventDefault();
                    return;
                  }
                  const { filename, csv } = buildExportCsv(exportable, exportable.tickets, option, job.company_time_zone);
                  download(filename, csv);
                }}
              >
                {label}
              </Button>
            </Tooltip>
            <Text size="xs" c="dimmed">
              {description}
            </Text>
          </Stack>
        ))}
        {loading && (
          <Group gap="xs" role="status">
            <Loader size="xs" />
            <Text size="sm">Loading the tickets for the export…</Text>
          </Group>
        )}
        {reason && (
          <Alert color="yellow" p="xs" title="This job cannot be exported yet">
            <Text size="sm">{reason}</Text>
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}
