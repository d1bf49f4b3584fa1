import { lazy, Suspense, useCallback, useDeferredValue, useMemo, useState } from 'react';
import { Group, Paper, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { TICKET_STATUS } from '../../../shared/constants';
import { can } from '../../../shared/permissions';
import { useSession } from '../../api/session';
import { useJob } from '../../api/job';
import { LoadState, type Loadable } from '../../components/LoadState';
import { MapView } from '../../components/map/MapView';
import { DocLegend } from './DocCircle';
import { SpreadsheetSteps } from './spreadsheet/SpreadsheetSteps';
import { UploadResult } from './spreadsheet/UploadResult';
import { useSpreadsheetWizard } from './spreadsheet/useSpreadsheetWizard';
import { TicketCards } from './TicketCards';
import { FilterControls, PhoneFilters, TicketCount, TicketSearch } from './TicketFilters';
import { TicketsTable } from './TicketsTable';
import { TicketsToolbar } from './TicketsToolbar';
import { useFirstPaintMark } from './timingMarks';
import { useTicketView } from './ticketView';
import { useMovePole } from './useMovePole';
import { useTicketRoute } from './useTicketRoute';
import { useTicketRows } from './useTicketRows';
import { useTicketSelection } from './useTicketSelection';

// The ticket window (its tabs, pole search, forms, zod rules and photo viewer), the task dialog and
// the spreadsheet steps load when first opened, not with the table: on a phone their code was
// most of the job page's main-thread blocking time (1,880 ms in Lighthouse's mobile run; decision 058).
const TicketWindow = lazy(() => import('./window/TicketWindow').then((m) => ({ default: m.TicketWindow })));
const CreateTaskModal = lazy(() => import('./CreateTaskModal').then((m) => ({ default: m.CreateTaskModal })));

/** LoadState's spinner while the job, already here, is drawn (below). */
const DRAWING: Loadable = { isLoading: true, isError: false, error: null, refetch: () => {} };

/**
 * The ticket part of the job page (docs/product/screens.md §5 Job detail): buttons, filters, the sortable ticket
 * table and the ticket window. It puts together what its hooks do: the rows (useTicketRows:
 * filters, search, sort), the ticks (useTicketSelection), the open ticket in the address
 * (useTicketRoute) and Upload Spreadsheet (spreadsheet/). The rows are virtualised, so a job of
 * 5,000 tickets stays responsive; performance marks feed the benchmark (timingMarks.ts).
 */
export default function TicketsSection({ jobId }: { jobId: number }) {
  // Below 768 px the tickets are cards and the filters sit in a drawer.
  const phone = useMediaQuery('(max-width: 47.99em)', undefined, { getInitialValueInEffect: false });
  const { claims } = useSession();
  const roleId = claims?.roleId;
  const canWrite = can(roleId, 'tickets.write');
  const canEdit = can(roleId, 'tickets.edit');
  const jobQuery = useJob(jobId);
  // Table or Map (docs/product/map.md §1), remembered on this device; read at once, so a reload in Map
  // view never flashes the table first.
  const [view, onView] = useTicketView();
  // The job's first arrival is drawn in a deferred render, which React time-slices: the query's
  // update is a blocking one (useSyncExternalStore), and when the page's code came before the job
  // (its chunks started by the early script, decision 064) the whole table or the first cards
  // were drawn in one long task (phone TBT 1.1-1.2 s in some loads). Later changes of the job
  // (edits, refetches) show at once, as before.
  const arrived = useDeferredValue(jobQuery.data);
  const job = arrived === undefined ? undefined : jobQuery.data;
  const tickets = useMemo(() => job?.tickets ?? [], [job]);

  const { rows, sort, onSort, filters, active, searchInput, search, onSearch } = useTicketRows(tickets, view, job?.evidence_photos_required ?? 1);
  const { selected, selectedIds, onToggle, onToggleAll, clear } = useTicketSelection(tickets);
  const { target, openTicket, closeTicket, onOpen, onCreate } = useTicketRoute(jobId, canWrite);
  const wizard = useSpreadsheetWizard(jobId);
  const [taskOpen, setTaskOpen] = useState(false);
  const onCreateTask = useCallback(() => setTaskOpen(true), []);
  // Dragging a point moves the pole: for the roles that edit poles (tickets.write: 1–3).
  const movePole = useMovePole(jobId, tickets);
  useFirstPaintMark(job);
  const complete = useMemo(() => tickets.filter((t) => t.status === TICKET_STATUS.COMPLETE).length, [tickets]);

  // Still "Loading tickets" while the deferred render of the first arrival is on its way.
  if (!job) return <LoadState query={jobQuery.data ? DRAWING : jobQuery} loading="Loading tickets" failed="Could not load the tickets" />;

  const shown = rows.length;
  const searchBox = <TicketSearch value={searchInput} onChange={onSearch} phone={phone} />;
  // The map is given the rows the table shows (same filters), and opens a ticket as a row does.
  const map = view === 'map' && (
    <MapView rows={rows} label={`Map of the tickets of job ${job.job_number ?? ''}`} fitLabel="Fit to job" onOpen={onOpen} onMove={canWrite ? movePole : undefined} />
  );

  return (
    <Paper withBorder p={{ base: 'xs', sm: 'md' }} radius="md">
      <Stack gap="sm">
        <TicketsToolbar
          total={tickets.length}
          complete={complete}
          view={view}
          onView={onView}
          canWrite={canWrite}
          canEdit={canEdit}
          selectedCount={selectedIds.length}
          onCreateTicket={onCreate}
          onCreateTask={onCreateTask}
          onSpreadsheet={wizard.onFile}
          reading={wizard.reading}
          resetFile={wizard.resetFile}
        />

        {wizard.result && <UploadResult result={wizard.result} onClose={wizard.closeResult} />}

        {tickets.length === 0 ? (
          // A job with no tickets says so, and how to add them, instead of
          // an empty table under filters that match nothing.
          <Stack gap={4} align="center" py="lg" data-testid="no-tickets">
            <Text fw={600}>This job has no tickets yet.</Text>
            <Text size="sm" c="dimmed" ta="center">
              {canWrite
                ? 'Create Ticket adds one pole; Upload Spreadsheet adds the tickets of a workbook.'
                : 'The office adds the tickets; they will show here.'}
            </Text>
          </Stack>
        ) : phone ? (
          <>
            {searchBox}
            <PhoneFilters filters={filters} active={active} sort={sort} onSort={onSort} shown={shown} total={tickets.length} />
            {view === 'map' ? map : <TicketCards rows={rows} selectable={canEdit} selected={selected} onToggle={onToggle} onOpen={onOpen} emptyText={search.trim() ? 'No ticket matches your search.' : 'No tickets match these filters.'} />}
          </>
        ) : (
          <>
            <Group gap="sm" align="flex-end" wrap="wrap">
              {searchBox}
              <FilterControls {...filters} />
              <TicketCount shown={shown} total={tickets.length} />
            </Group>
            {view === 'map' ? (
              map
            ) : (
              <TicketsTable
                rows={rows}
                sort={sort}
                onSort={onSort}
                selectable={canEdit}
                selected={selected}
                onToggle={onToggle}
                onToggleAll={onToggleAll}
                onOpen={onOpen}
                evidenceRequired={job?.evidence_photos_required ?? 1}
              />
            )}
          </>
        )}
        {tickets.length > 0 && view === 'table' && <DocLegend />}
      </Stack>

      <Suspense fallback={null}>
        <SpreadsheetSteps job={job} wizard={wizard} />

        {target && (
          <TicketWindow
            key={target.id ?? 'new'}
            job={job}
            target={target}
            onOpenTicket={(t) => openTicket(t, true)}
            onClose={closeTicket}
          />
        )}
        {taskOpen && (
          <CreateTaskModal
            job={job}
            ticketIds={selectedIds}
            onClose={() => setTaskOpen(false)}
            onDone={() => {
              setTaskOpen(false);
              clear();
            }}
          />
        )}
      </Suspense>
    </Paper>
  );
}
