import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconFileTypePdf, IconHistory, IconPencil, IconTrash } from '@tabler/icons-react';
import { formatLongDate } from '../../../shared/dates';
import { jobTypeLabel } from '../../../shared/jobs.list';
import { MSG } from '../../../shared/messages';
import { can } from '../../../shared/permissions';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { usePageTitle } from '../../components/usePageTitle';
import { useDeleteJob } from './api/deleteJob';
import { useJob } from '../../api/job';
import { confirmDialog } from '../../components/confirm';
import { lazyDialog } from '../../components/lazyDialog';

// Edit Job (the job form, its date picker and zod rules) and Export (the XLSX writer) load when
// first opened: the job page's first load carries none of them (the phone's blocking time; decision 058).
const JobFormModal = lazyDialog(() => import('./JobFormModal').then((m) => m.JobFormModal));
const ExportJobModal = lazyDialog(() => import('./ExportJobModal').then((m) => m.ExportJobModal));
const JobHistoryModal = lazyDialog(() => import('./JobHistoryModal').then((m) => m.JobHistoryModal));

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * The Delete Job question names the job and what goes with it, counted from
 * the ticket rows the page already has: the packet, each ticket's dig-safe and NRA documents.
 */
function deleteJobMessage(j: NonNullable<ReturnType<typeof useJob>['data']>): string {
  const tickets = j.tickets;
  const photos = tickets.reduce((n, t) => n + t.photo_count, 0);
  const documents = (j.work_packet_url ? 1 : 0) + tickets.reduce((n, t) => n + (t.dig_safe_url ? 1 : 0) + (t.nra_url ? 1 : 0), 0);
  return (
    `${MSG.confirmDeleteJob} Job ${j.job_number} goes with its ${plural(tickets.length, 'ticket')}, ` +
    `${plural(photos, 'photo')} and ${plural(documents, 'document')} (and every ticket's tasks, notes and permits). This cannot be undone.`
  );
}

const STATUS_COLOR: Record<string, string> = { 'In Estimation': 'grape', 'In Progress': 'blue', Complete: 'green' };

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/**
 * The job detail header (docs/product/screens.md §1.2 Job detail): Job number, Foreman, Utility, Due Date, Date
 * Completed, and the links Delete Job, Edit Job Info and Export Job Info (hidden for roles that
 * may not change jobs, docs/product/roles-and-statuses.md).
 */
export default function JobDetailHeader({ jobId }: { jobId: number }) {
  const { claims } = useSession();
  const canWrite = can(claims?.roleId, 'jobs.write');
  const job = useJob(jobId);
  const del = useDeleteJob();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const missing = job.error instanceof ApiError && job.error.status === 404;
  usePageTitle(job.data ? `Job ${job.data.job_number}` : missing ? 'Job not found' : 'Job');

  if (job.isLoading) {
    return (
      <Paper withBorder p="md">
        <Skeleton height={28} width="40%" mb="md" />
        <Skeleton height={40} />
      </Paper>
    );
  }
  if (job.isError || !job.data) {
    return (
      <Alert color="red" role="alert" title={missing ? 'Job not found' : 'The job could not be loaded'}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{missing ? 'This job does not exist or was deleted.' : job.error?.message}</Text>
          <Anchor component={Link} to="/jobs" size="sm">
            Back to the job list
          </Anchor>
        </Stack>
      </Alert>
    );
  }
  const j = job.data;

  async function onDelete() {
    if (!(await confirmDialog({ title: `Delete Job ${j.job_number}`, message: deleteJobMessage(j), confirmLabel: 'Delete Job', danger: true }))) return;
    try {
      await del.mutateAsync(j.id);
      notifications.show({ color: 'green', message: `Job ${j.job_number} was deleted.` });
      navigate('/jobs');
    } catch (err) {
      notifications.show({ color: 'red', title: 'The job was not deleted', message: err instanceof Error ? err.message : MSG.generic });
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Group gap="sm" align="center">
            <Title order={1} size="h2">
              Job {j.job_number}
            </Title>
            <Badge variant="light" color={STATUS_COLOR[j.status] ?? 'gray'}>
              {j.status}
            </Badge>
            <Badge variant="outline" color="gray">
              {jobTypeLabel(j.job_type)}
            </Badge>
          </Group>
          {/* Edit Job Info comes first (the office's usual errand); Delete Job last: the first stop of
              the keyboard (and of a thumb) is never the one that destroys the job. Everyone reads
              the history (as the job). */}
          <Group gap="xs" wrap="wrap">
            {canWrite && (
              <Button variant="subtle" size="compact-sm" leftSection={<IconPencil size={16} />} onClick={() => setEditing(true)}>
                Edit Job Info
              </Button>
            )}
            <Button variant="subtle" size="compact-sm" leftSection={<IconHistory size={16} />} onClick={() => setShowHistory(true)}>
              History
            </Button>
            {canWrite && (
              <>
                <Button variant="subtle" size="compact-sm" leftSection={<IconDownload size={16} />} onClick={() => setExporting(true)}>
                  Export Job Info
                </Button>
                <Button variant="subtle" color="red" size="compact-sm" leftSection={<IconTrash size={16} />} onClick={() => void onDelete()} loading={del.isPending}>
                  Delete Job
                </Button>
              </>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Field label="Foreman">{j.foreman_name || '--'}</Field>
          <Field label="Utility">{j.selected_utility_name}</Field>
          <Field label="Due Date">{formatLongDate(j.due_date)}</Field>
          <Field label="Date Completed">{formatLongDate(j.date_completed)}</Field>
        </SimpleGrid>
        {(j.work_packet_url || j.work_contact_phone || j.hospital_name) && (
          <Group gap="lg" wrap="wrap">
            {j.work_packet_url && (
              <Anchor href={j.work_packet_url} target="_blank" rel="noreferrer" size="sm">
                <Group gap={4} wrap="nowrap">
                  <IconFileTypePdf size={16} /> {j.work_packet_name || 'Work packet'}
                </Group>
              </Anchor>
            )}
            {j.work_contact_phone && (
              <Text size="sm">
                Work contact: <Anchor href={`tel:${j.work_contact_phone}`}>{j.work_contact_phone}</Anchor>
              </Text>
            )}
            {j.hospital_name && (
              <Text size="sm">
                Hospital: {j.hospital_name}
                {j.hospital_address ? `, ${j.hospital_address}` : ''}
              </Text>
            )}
          </Group>
        )}
      </Stack>
      {canWrite && <JobFormModal job={j} opened={editing} onClose={() => setEditing(false)} />}
      {canWrite && <ExportJobModal job={j} opened={exporting} onClose={() => setExporting(false)} />}
      <JobHistoryModal job={j} opened={showHistory} onClose={() => setShowHistory(false)} />
    </Paper>
  );
}
