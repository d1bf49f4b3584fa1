import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { historyCsv, historyCsvFileName, type HistoryEntry } from '../../../shared/history.schemas';
import type { Job } from '../../../shared/jobs.schemas';
import { allJobHistory, useJobHistory } from '../../api/history';
import { HistoryList } from '../../components/HistoryList';
import { saveFile } from '../../components/saveFile';

/**
 * The job's history (docs/product/records.md §1): its own changes and its tickets' (deleted tickets included),
 * newest first, with a CSV of all of it (the exports' conventions: BOM, quoting, formula guard,
 * times in the company's zone as the export's Completion Date/Time).
 */
export function JobHistoryModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose: () => void }) {
  const phone = useMediaQuery('(max-width: 48em)');
  const query = useJobHistory(job.id, opened);
  const [downloading, setDownloading] = useState(false);
  const poles = new Map(job.tickets.map((t) => [t.id, `${t.pole_name ?? '?'} / ${t.line_name ?? '?'}`]));
  const ticketLabel = (id: number | null) => (id == null ? 'Job' : (poles.get(id) ?? `Ticket ${id} (deleted)`));

  const download = async () => {
    setDownloading(true);
    try {
      const entries = await allJobHistory(job.id);
      saveFile(new Blob([historyCsv(entries, ticketLabel, job.company_time_zone)], { type: 'text/csv;charset=utf-8' }), historyCsvFileName(job.job_number));
    } catch (err) {
      notifications.show({ color: 'red', title: 'The history could not be downloaded', message: err instanceof Error ? err.message : String(err) });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`History of job ${job.job_number}`} size="lg" fullScreen={phone}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c="dimmed">
            Every change to this job and its tickets, newest first.
          </Text>
          <Button size="xs" variant="light" leftSection={<IconDownload size={16} />} onClick={() => void download()} loading={downloading}>
            Download CSV
          </Button>
        </Group>
        <HistoryList query={query} ticketLabel={(e: HistoryEntry) => ticketLabel(e.ticket_id)} />
      </Stack>
    </Modal>
  );
}
