import type { ReactNode } from 'react';
import { Alert, Button, Divider, Group, Loader, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { IconFileSpreadsheet, IconFileTypeCsv, IconMapPin } from '@tabler/icons-react';
import { buildExportCsv, EXPORT_PROBLEM, exportProblems, type ExportOption } from '../../../shared/export';
import type { Job } from '../../../shared/jobs.schemas';
import { positionOf, type MapExportKind } from '../../../shared/map-export';
import { saveFile } from '../../components/saveFile';
import { useJobExportXlsxDownload } from './api/jobExportFile';
import { useJobMapDownload } from './api/jobMapFile';
import { useJobTickets } from './api/jobTickets';

/** The export options, named for what they hold (docs/product/screens.md §5.4's Option 1 and 2, and one row per unit). */
const OPTIONS: { option: ExportOption; name: string; rows: string; description: string }[] = [
  {
    option: 1,
    name: 'Tickets with work',
    rows: 'one row per ticket',
    description: 'Tickets that have units: work orders, units, bid and completed quantities, coordinates, notes, completion time.',
  },
  { option: 2, name: 'All tickets', rows: 'one row per ticket', description: 'Every ticket, with the job name: work orders, units, bid quantities, notes, completion time.' },
  {
    option: 'units',
    name: 'Units',
    rows: 'one row per unit, for totals',
    description: 'Pole, line, work order, unit, description, bid, actual and completion date: one quantity per cell, so a spreadsheet can sum them.',
  },
];

const MAP_OPTIONS: { kind: MapExportKind; label: string; description: string }[] = [
  { kind: 'geojson', label: 'GeoJSON (map layer)', description: 'A point per pole with coordinates, for GIS tools and web maps.' },
  { kind: 'kml', label: 'KML (Google Earth)', description: 'A placemark per pole with coordinates, for Google Earth and Google My Maps.' },
];
const NO_LOCATED_TICKETS = 'No ticket of this job has coordinates';

/**
 * One download of the modal: a button, refused (not disabled, so its tooltip still shows and a
 * screen reader reads it) with the reason as tooltip, and what the file holds below when given.
 */
function DownloadButton({
  label,
  ariaLabel,
  description,
  reason,
  loading,
  variant,
  icon,
  onDownload,
}: {
  label: string;
  /** The button's name when its text alone does not say which file (it must contain the text). */
  ariaLabel?: string;
  description?: string;
  reason: string | null;
  loading: boolean;
  variant?: 'light';
  icon: ReactNode;
  onDownload: () => void;
}) {
  const button = (
    <Tooltip label={reason} disabled={!reason} multiline w={280} withArrow>
      <Button
        fullWidth
        variant={variant}
        loading={loading}
        leftSection={icon}
        aria-label={ariaLabel}
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
  );
  if (!description) return button;
  return (
    <Stack gap={2}>
      {button}
      <Text size="xs" c="dimmed">
        {description}
      </Text>
    </Stack>
  );
}

/**
 * 'Select an export option' (docs/product/screens.md §5.4 Export): each option named for what it holds, downloadable
 * as CSV (built here by src/shared/export.ts) or as Excel (.xlsx, built by the server from the
 * same rows: a CSV cannot keep a pole '007' as text, docs/product/imports.md §9); refused, with the reason of
 * docs/product/rules.md as tooltip, unless the data is complete. The full tickets are loaded when the modal
 * opens (the job page holds only the table's rows). Then the job's map layers (docs/product/map.md §1),
 * which the server builds: GeoJSON and KML of the tickets with coordinates. A failed download
 * says why in the modal.
 */
export function ExportJobModal({ job, opened, onClose }: { job: Job; opened: boolean; onClose: () => void }) {
  const full = useJobTickets(job.id, opened);
  const loading = opened && full.isPending;
  const exportable = full.data ? { ...job, tickets: full.data } : null;
  const reason = opened && !loading ? (full.error ? EXPORT_PROBLEM.ticketsNotLoaded : exportProblems(exportable)) : null;
  const mapFile = useJobMapDownload(job);
  const xlsxFile = useJobExportXlsxDownload(job);
  const located = full.data?.filter((t) => positionOf(t) !== null).length;
  const mapReason = located === 0 ? NO_LOCATED_TICKETS : null;

  return (
    <Modal
      opened={opened}
      onClose={() => {
        mapFile.reset(); // a failure of this visit is not shown on the next
        xlsxFile.reset();
        onClose();
      }}
      title="Select an export option"
      centered
    >
      <Stack gap="sm">
        <Text size="sm">
          A CSV opens in any program, but a spreadsheet reads a pole 007 as 7. Excel (.xlsx) keeps text as text, and
          numbers and dates as numbers and dates.
        </Text>
        {OPTIONS.map(({ option, name, rows, description }) => (
          <Stack key={option} gap={4} role="group" aria-labelledby={`export-option-${option}`}>
            <Text size="sm" fw={600} id={`export-option-${option}`}>
              {name}{' '}
              <Text span size="sm" fw={400} c="dimmed">
                ({rows})
              </Text>
            </Text>
            <Text size="xs" c="dimmed">
              {description}
            </Text>
            <Group grow gap="xs" wrap="nowrap">
              <DownloadButton
                label="CSV"
                ariaLabel={`${name} as CSV`}
                reason={reason}
                loading={loading}
                icon={<IconFileTypeCsv size={16} />}
                onDownload={() => {
                  if (!exportable) return;
                  const { filename, csv } = buildExportCsv(exportable, exportable.tickets, option, job.company_time_zone);
                  saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), filename);
                }}
              />
              <DownloadButton
                label="Excel (.xlsx)"
                ariaLabel={`${name} as Excel (.xlsx)`}
                reason={reason}
                loading={loading || (xlsxFile.isPending && xlsxFile.variables === option)}
                icon={<IconFileSpreadsheet size={16} />}
                onDownload={() => !xlsxFile.isPending && xlsxFile.mutate(option)}
              />
            </Group>
          </Stack>
        ))}
        {xlsxFile.error && (
          <Alert color="red" p="xs" role="alert" title="The Excel file could not be downloaded">
            <Text size="sm">{xlsxFile.error.message}</Text>
          </Alert>
        )}
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
