import type { ReactNode } from 'react';
import { Alert, Button, Divider, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconMapPin } from '@tabler/icons-react';
import { buildExportCsv, EXPORT_PROBLEM, exportProblems, type ExportOption } from '../../../shared/export';
import type { Job } from '../../../shared/jobs.schemas';
import { positionOf, type MapExportKind } from '../../../shared/map-export';
import { saveFile } from '../../components/saveFile';
import { useJobMapDownload } from './api/jobMapFile';
import { useJobTickets } from './api/jobTickets';

const OPTIONS: { option: ExportOption; label: string; description: string }[] = [
  { option: 1, label: 'Option 1 (Priority items)', description: 'Tickets with tasks: work orders, units, bid and completed quantities, coordinates, notes, completion time.' },
  { option: 2, label: 'Option 2 (All items)', description: 'Every ticket with the job name: work orders, units, bid quantities, notes, completion time.' },
];

const MAP_OPTIONS: { kind: MapExportKind; label: string; description: string }[] = [
  { kind: 'geojson', label: 'GeoJSON (map layer)', description: 'A point per pole with coordinates, for GIS tools and web maps.' },
  { kind: 'kml', label: 'KML (Google Earth)', description: 'A placemark per pole with coordinates, for Google Earth and Google My Maps.' },
];
const NO_LOCATED_TICKETS = 'No ticket of this job has coordinates';

/**
 * One download of the modal: a full-width button, refused (not disabled, so its tooltip still
 * shows and a screen reader reads it) with the reason as tooltip, and what the file holds below.
 */
function DownloadButton({
  label,
  description,
  reason,
  loading,
  variant,
  icon,
  onDownload,
}: {
  label: string;
  description: string;
  reason: string | null;
  loading: boolean;
  variant?: 'light';
  icon: ReactNode;
  onDownload: () => void;
}) {
  return (
    <Stack gap={2}>
      <Tooltip label={reason} disabled={!reason} multiline w={280} withArrow>
        <Button
          fullWidth
          variant={variant}
          loading={loading}
          leftSection={icon}
          data-disabled={reason ? true : undefined}
          aria-disabled={reason ? true : undefined}
          onClick={(e) => {
            if (reason || loading) return e.preventDefault();
            onDownload();
          }}
        >
          {label}
        </Button>
      </Tooltip>
      <Text size="xs" c="dimmed">
        {description}
      </Text>
    </Stack>
  );
}

/**
 * 'Select an export option' (SPEC §2 Export): two buttons that download the CSV built by
 * src/shared/export.ts; disabled, with the reason of SPEC §5 as tooltip, unless the data is complete.
 * The full tickets are loaded when the modal opens (the job page holds only the table's rows).
 * Then the job's map layers (DESIGN §7.2), which the server builds: GeoJSON and KML of the
 * tickets with coordinates; a failed download says why in the modal.
 */
export function ExportJobModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose: () => void }) {
  const full = useJobTickets(job.id, opened);
  const loading = opened && full.isPending;
  const exportable = full.data ? { ...job, tickets: full.data } : null;
  const reason = opened && !loading ? (full.error ? EXPORT_PROBLEM.ticketsNotLoaded : exportProblems(exportable)) : null;
  const mapFile = useJobMapDownload(job);
  const located = full.data?.filter((t) => positionOf(t) !== null).length;
  const mapReason = located === 0 ? NO_LOCATED_TICKETS : null;

  return (
    <Modal
      opened={opened}
      onClose={() => {
        mapFile.reset(); // a failure of this visit is not shown on the next
        onClose();
      }}
      title="Select an export option"
      centered
    >
      <Stack gap="sm">
        {OPTIONS.map(({ option, label, description }) => (
          <DownloadButton
            key={option}
            label={label}
            description={description}
            reason={reason}
            loading={loading}
            icon={<IconDownload size={16} />}
            onDownload={() => {
              if (!exportable) return;
              const { filename, csv } = buildExportCsv(exportable, exportable.tickets, option, job.company_time_zone);
              saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
            }}
          />
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

        <Divider label="Map layers" labelPosition="left" mt="xs" />
        {MAP_OPTIONS.map(({ kind, label, description }) => (
          <DownloadButton
            key={kind}
            label={label}
            description={description}
            reason={mapReason}
            loading={mapFile.isPending && mapFile.variables === kind}
            variant="light"
            icon={<IconMapPin size={16} />}
            onDownload={() => !mapFile.isPending && mapFile.mutate(kind)}
          />
        ))}
        {located !== undefined && full.data && (
          <Text size="sm">
            {located} of {full.data.length} {full.data.length === 1 ? 'ticket has' : 'tickets have'} coordinates.
          </Text>
        )}
        {mapFile.error && (
          <Alert color="red" p="xs" role="alert" title="The map file could not be downloaded">
            <Text size="sm">{mapFile.error.message}</Text>
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}
