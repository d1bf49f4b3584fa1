import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert, Badge, Button, Drawer, FileButton, Group, List, Paper, Select, SegmentedControl, Stack, Text, TextInput, Title, Tooltip, VisuallyHidden } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconArrowLeft, IconFileSpreadsheet, IconListCheck, IconPlus, IconSearch } from '@tabler/icons-react';
import { TICKET_STATUS } from '../../../shared/constants';
import { can } from '../../../shared/permissions';
import { sortTextValues, sortTickets, TICKET_SORT_COLUMNS, warmTicketSortKeys, type TicketSortColumn } from '../../../shared/sorting';
import { searchWords, ticketMatches } from '../../../shared/ticket-search';
import type { TicketRow, XlsRejectedReply } from '../../../shared/tickets.schemas';
import { acceptFor } from '../../../shared/uploads';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { nextSort, type SortState } from '../../../shared/sorting';
import { useJob } from '../../api/job';
import type { WorkbookColumns } from '../../../shared/excel';
import type { ApplyMode, ReimportPreview, XlsImportReply } from '../../../shared/reimport';
import type { LibraryMap, MappingRead, TicketMap } from '../../components/ExcelMappingModal';
import { LoadState } from '../../components/LoadState';
import { MapView } from '../../components/map/MapView';
import { PhoneSortPicker } from '../../components/PhoneSortPicker';
import { previewSheet, readSheetColumns, useImportSheet, type SheetMapping } from './api/xlsUpload';
import { DocLegend } from './DocCircle';
import { TicketCards } from './TicketCards';
import { COLUMNS, TicketsTable } from './TicketsTable';
import type { WindowTarget } from './TicketWindow';
import { ticketHref, ticketParam, type TicketLocationState } from './ticketUrl';
import { useMovePole } from './useMovePole';
import { TICKET_VIEW_KEY, type TicketView } from './ticketView';

// The ticket window (its tabs, pole search, forms, zod rules and photo viewer), the task dialog and
// the spreadsheet steps load when first opened, not with the table: on a phone their code was
// most of the job page's main-thread blocking time (issue 27: 1,880 ms in Lighthouse's mobile run).
const TicketWindow = lazy(() => import('./TicketWindow').then((m) => ({ default: m.TicketWindow })));
const CreateTaskModal = lazy(() => import('./CreateTaskModal').then((m) => ({ default: m.CreateTaskModal })));
const ExcelMappingModal = lazy(() => import('../../components/ExcelMappingModal').then((m) => ({ default: m.ExcelMappingModal })));
const ReimportPreviewModal = lazy(() => import('./ReimportPreviewModal').then((m) => ({ default: m.ReimportPreviewModal })));

const ALL = 'All';
const SORT_OPTIONS = COLUMNS.map((c) => ({ value: c.key, label: c.label }));
type StatusFilter = 'All' | 'Pending' | 'Complete';
const VIEWS = [
  { value: 'table', label: 'Table' },
  { value: 'map', label: 'Map' },
];

/** Distinct non-empty values, in the table's text order, for the Pole and Line filters. */
function distinct(rows: TicketRow[], pick: (t: TicketRow) => string | null): string[] {
  const set = new Set<string>();
  for (const r of rows) {
    const v = pick(r);
    if (v) set.add(v);
  }
  return sortTextValues(set);
}

function mark(name: string) {
  if (typeof performance !== 'undefined' && performance.mark) performance.mark(name);
}

/**
 * A Pole or Line filter. Memoised with its option list: a job of 5,000 poles gives a Select of
 * 5,000 options, which must not re-render on every sort; the list shows 100 matches at a time.
 */
const FilterSelect = memo(function FilterSelect({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: string[];
  value: string;
  onChange: (v: string) => void;
}) {
  const data = useMemo(() => [ALL, ...options], [options]);
  return (
    <Select
      label={label}
      data={data}
      value={value}
      onChange={(v) => onChange(v ?? ALL)}
      allowDeselect={false}
      searchable
      limit={100}
      w={{ base: '100%', xs: 140 }}
      comboboxProps={{ withinPortal: true }}
    />
  );
});

type UploadOutcome = { ok: boolean; reply: XlsImportReply | XlsRejectedReply | null; message: string };

/** What the spreadsheet upload did, in words: counts, or the rows it refused. */
function UploadResult({ result, onClose }: { result: UploadOutcome; onClose: () => void }) {
  const rejected = result.reply?.rejectedRows ?? [];
  return (
    <Alert color={result.ok ? 'green' : 'red'} withCloseButton onClose={onClose} title={result.ok ? 'Spreadsheet added' : 'Spreadsheet not added'} role="status">
      <Text size="sm">{result.message}</Text>
      {rejected.length > 0 && (
        <List size="sm" mt={4} spacing={2}>
          {rejected.slice(0, 20).map((x) => (
            <List.Item key={`${x.row}-${x.message}`}>{x.message}</List.Item>
          ))}
          {rejected.length > 20 && <List.Item>… and {rejected.length - 20} more rows</List.Item>}
        </List>
      )}
    </Alert>
  );
}

/**
 * The ticket part of the job page (SPEC §2 Job detail): buttons, filters, the sortable ticket
 * table and the ticket window. Sorting and filtering are memoised and the rows virtualised, so a
 * job of 5,000 tickets stays responsive; performance marks feed the benchmark.
 */
export default function TicketsSection({ jobId }: { jobId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  // Below 768 px the tickets are cards and the filters sit in a drawer.
  const phone = useMediaQuery('(max-width: 47.99em)', undefined, { getInitialValueInEffect: false });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const { claims } = useSession();
  const roleId = claims?.roleId;
  const canWrite = can(roleId, 'tickets.write');
  const canEdit = can(roleId, 'tickets.edit');
  const jobQuery = useJob(jobId);
  // Table or Map (DESIGN §7.2), remembered on this device; read at once, so a reload in Map
  // view never flashes the table first.
  const [view, setView] = useLocalStorage<TicketView>({ key: TICKET_VIEW_KEY, defaultValue: 'table', getInitialValueInEffect: false });
  const onView = useCallback((v: string) => setView(v === 'map' ? 'map' : 'table'), [setView]);
  const job = jobQuery.data;

  const [poleFilter, setPoleFilter] = useState<string>(ALL);
  const [lineFilter, setLineFilter] = useState<string>(ALL);
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('All');
  // Text search (issue 27): pole, line, street, work order, unit code — My Work's rule. Deferred,
  // so typing stays smooth while 5,000 rows are filtered.
  const [searchInput, setSearchInput] = useState('');
  const search = useDeferredValue(searchInput);
  const [sort, setSort] = useState<SortState<TicketSortColumn>>({ column: 'pole_name', direction: 'asc' });
  const [selected, setSelected] = useState<Set<number>>(() => new Set());
  const [taskOpen, setTaskOpen] = useState(false);
  const [uploadResult, setUploadResult] = useState<UploadOutcome | null>(null);
  // Upload Spreadsheet (decision 018): read the columns → Excel Column Mapping → preview → import.
  const [sheet, setSheet] = useState<{
    file: File;
    columns?: WorkbookColumns;
    mapping?: SheetMapping;
    preview?: ReimportPreview;
    stale?: string;
  } | null>(null);
  const [reading, setReading] = useState(false);
  const importer = useImportSheet();
  const resetFile = useRef<() => void>(null);

  const tickets = useMemo(() => job?.tickets ?? [], [job]);
  // Dragging a point moves the pole: for the roles that edit poles (tickets.write: 1–3).
  const movePole = useMovePole(jobId, tickets);
  const poles = useMemo(() => distinct(tickets, (t) => t.pole_name), [tickets]);
  const lines = useMemo(() => distinct(tickets, (t) => t.line_name), [tickets]);

  // A filter whose value disappeared (ticket deleted or merged) falls back to All.
  const pole = poleFilter !== ALL && poles.includes(poleFilter) ? poleFilter : ALL;
  const line = lineFilter !== ALL && lines.includes(lineFilter) ? lineFilter : ALL;

  // Sort everything once per sort order, then filter the sorted list (filtering keeps the order):
  // changing a filter never re-sorts, and re-sorting reuses cached keys (src/shared/sorting.ts).
  // The map draws the same rows in any order: it skips the sort (keys for 5,000 rows) until the
  // table or the cards are shown.
  const deferredSort = useDeferredValue(sort);
  const sorted = useMemo(
    () => (view === 'map' ? tickets : sortTickets(tickets, deferredSort.column, deferredSort.direction)),
    [tickets, deferredSort, view],
  );
  const rows = useMemo(() => {
    const words = searchWords(search);
    return pole === ALL && line === ALL && statusFilter === 'All' && words.length === 0
      ? sorted
      : sorted.filter(
          (t) =>
            (pole === ALL || t.pole_name === pole) &&
            (line === ALL || t.line_name === line) &&
            (statusFilter === 'All' || t.status === statusFilter) &&
            ticketMatches(t, words),
        );
  }, [sorted, pole, line, statusFilter, search]);

  // Benchmark marks (bench/ reads them): first paint of the table, and each re-sort/filter.
  const firstPaint = useRef(false);
  useEffect(() => {
    if (!job || firstPaint.current) return;
    firstPaint.current = true;
    requestAnimationFrame(() => mark('tickets-table-visible'));
  }, [job]);
  // While the browser is idle, prepare the sort keys of the other columns: the first click on
  // any header then costs what a repeat click does.
  useEffect(() => {
    if (view === 'map' || tickets.length < 500 || typeof requestIdleCallback === 'undefined') return;
    const handles: number[] = [];
    for (const column of TICKET_SORT_COLUMNS) handles.push(requestIdleCallback(() => warmTicketSortKeys(tickets, [column]), { timeout: 5000 }));
    return () => handles.forEach((h) => cancelIdleCallback(h));
  }, [tickets, view]);

  // 'tickets-sort' / 'tickets-filter': from the click to the re-ordered rows being painted.
  const pending = useRef<'tickets-sort' | 'tickets-filter' | null>(null);
  const startMeasure = useCallback((name: 'tickets-sort' | 'tickets-filter') => {
    mark(`${name}-start`);
    pending.current = name;
  }, []);
  useEffect(() => {
    const name = pending.current;
    if (!name) return;
    pending.current = null;
    requestAnimationFrame(() => {
      mark(`${name}-end`);
      try {
        performance.measure(name, `${name}-start`, `${name}-end`);
      } catch {
        // marks cleared by the page: nothing to measure
      }
    });
  }, [rows]);

  const onSort = useCallback(
    (c: TicketSortColumn) => {
      startMeasure('tickets-sort');
      setSort((s) => nextSort(s, c));
    },
    [startMeasure],
  );
  const onPoleFilter = useCallback(
    (v: string) => {
      startMeasure('tickets-filter');
      setPoleFilter(v);
    },
    [startMeasure],
  );
  const onLineFilter = useCallback(
    (v: string) => {
      startMeasure('tickets-filter');
      setLineFilter(v);
    },
    [startMeasure],
  );
  const onToggle = useCallback((id: number) => {
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  }, []);
  const onToggleAll = useCallback((ids: number[] | null) => setSelected(new Set(ids ?? [])), []);

  // The open ticket lives in the address (/job?id=…&ticket=…): opening pushes
  // it, so Back closes the window (TicketWindow asks first when there are unsaved changes), and a
  // link to a ticket opens it on a fresh load. Create Ticket is ticket=new.
  const state = location.state as TicketLocationState | null;
  const wanted = ticketParam(params);
  const target: WindowTarget | null = wanted === 'new' ? (canWrite ? { id: null } : null) : wanted === null ? null : { id: wanted, justCreated: state?.justCreated };
  const openTicket = useCallback(
    (t: WindowTarget, replace = false) => {
      const next: TicketLocationState = { fromList: replace ? Boolean(state?.fromList) : true, justCreated: t.justCreated };
      navigate(ticketHref(jobId, t.id), { replace, state: next });
    },
    [navigate, jobId, state?.fromList],
  );
  const closeTicket = useCallback(() => {
    // Opened from the list: step back to the entry we pushed. Opened by a link: drop the ticket
    // from the address, so Back then leaves the job as it would have without the window.
    if (state?.fromList) navigate(-1);
    else navigate(ticketHref(jobId, undefined), { replace: true });
  }, [navigate, jobId, state?.fromList]);
  const onOpen = useCallback((id: number) => openTicket({ id }), [openTicket]);

  // Focus goes back to the row or card that opened the window.
  const openedId = target?.id ?? null;
  const isOpen = target !== null;
  const lastOpened = useRef<number | null>(null);
  useEffect(() => {
    if (openedId != null) lastOpened.current = openedId;
    if (isOpen || lastOpened.current == null) return;
    const id = lastOpened.current;
    lastOpened.current = null;
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-ticket-id="${id}"]`)?.focus());
  }, [openedId, isOpen]);

  // Selections of tickets that no longer exist are dropped.
  const selectedIds = useMemo(() => tickets.filter((t) => selected.has(t.id)).map((t) => t.id), [tickets, selected]);

  /** A refused step ends the flow with the reason (and the rows it names) above the table. */
  const failed = useCallback((err: unknown) => {
    const body = err instanceof ApiError ? (err.body as XlsRejectedReply | null) : null;
    const message = err instanceof Error ? err.message : String(err);
    // The rows are listed one per line below; the message's own copy of them is left out.
    setUploadResult({ ok: false, reply: body, message: body?.rejectedRows?.length ? message.split(' Row ')[0] : message });
    setSheet(null);
  }, []);
  const onSpreadsheet = useCallback(
    (file: File | null) => {
      resetFile.current?.();
      if (!file) return;
      setUploadResult(null);
      setReading(true);
      readSheetColumns(jobId, file)
        .then((columns) => setSheet({ file, columns }))
        .catch(failed)
        .finally(() => setReading(false));
    },
    [jobId, failed],
  );
  // The sheets picked on the mapping step travel with the mapping: preview and import read them.
  const onMapped = (ticketsMappings: TicketMap, libraryMappings: LibraryMap, read: MappingRead) => {
    if (!sheet) return;
    const mapping: SheetMapping = { ticketsMappings, libraryMappings: read.ticketsOnly ? undefined : libraryMappings, sheets: read.sheets };
    setSheet({ file: sheet.file, mapping });
    setReading(true);
    previewSheet(jobId, sheet.file, mapping)
      .then((preview) => setSheet({ file: sheet.file, mapping, preview }))
      .catch(failed)
      .finally(() => setReading(false));
  };
  const [choice, setChoice] = useState<ApplyMode | null>(null);
  const onChoose = (mode: ApplyMode) => {
    if (!sheet?.mapping || !sheet.preview) return;
    const { file, mapping, preview } = sheet;
    setChoice(mode);
    importer.mutate(
      { jobId, file, mapping, mode, previewToken: preview.preview_token },
      {
        onSuccess: (r) => {
          const counts = `Added ${r.tickets} ticket${r.tickets === 1 ? '' : 's'} and ${r.tasks} task${r.tasks === 1 ? '' : 's'}`;
          const updated = r.updated ? `, updated ${r.updated} bid quantit${r.updated === 1 ? 'y' : 'ies'}` : '';
          setUploadResult({ ok: true, reply: r, message: `${counts}${updated} from ${file.name}.` });
          setSheet(null);
        },
        onError: (err) => {
          // The job changed since the preview: show the new one, and why, and let the user choose again.
          const fresh = err instanceof ApiError && err.status === 409 ? (err.body?.preview as ReimportPreview | undefined) : undefined;
          if (fresh) setSheet({ file, mapping, preview: fresh, stale: err.message });
          else failed(err);
        },
        onSettled: () => setChoice(null),
      },
    );
  };

  const complete = useMemo(() => tickets.filter((t) => t.status === TICKET_STATUS.COMPLETE).length, [tickets]);
  const onStatusFilter = useCallback(
    (v: string) => {
      startMeasure('tickets-filter');
      setStatusFilter(v as StatusFilter);
    },
    [startMeasure],
  );

  // The toolbar and the filters are kept as elements that change only with what they show: a
  // re-sort (or a tick in the table) then re-renders the table alone, not a dozen Mantine
  // components (the re-sort budget is 100 ms on a slow phone).
  const selectedCount = selectedIds.length;
  const toolbar = useMemo(
    () => (
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Title order={2} size="h3">
            Tickets
          </Title>
          <Badge variant="light" color="gray">
            {/* A badge may not carry a name (axe: aria-prohibited-attr), so the words read aloud are hidden text. */}
            <span aria-hidden="true">
              {complete}/{tickets.length} complete
            </span>
            <VisuallyHidden>
              {tickets.length} tickets, {complete} complete
            </VisuallyHidden>
          </Badge>
          {tickets.length > 0 && <SegmentedControl aria-label="Show the tickets as" data={VIEWS} value={view} onChange={onView} size="sm" />}
        </Group>
        <Group gap="xs" wrap="wrap">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={() => navigate('/jobs')}>
            Back
          </Button>
          {canWrite && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => openTicket({ id: null })}>
              Create Ticket
            </Button>
          )}
          {canEdit && (
            <Tooltip label="Tick the tickets to add a task to first" disabled={selectedCount > 0}>
              <Button
                variant="light"
                leftSection={<IconListCheck size={16} />}
                onClick={() => setTaskOpen(true)}
                disabled={selectedCount === 0}
                data-disabled={selectedCount === 0 || undefined}
              >
                Create Task{selectedCount ? ` (${selectedCount})` : ''}
              </Button>
            </Tooltip>
          )}
          {canWrite && (
            <FileButton onChange={onSpreadsheet} accept={acceptFor('excel').join(',')} resetRef={resetFile}>
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconFileSpreadsheet size={16} />} loading={reading}>
                  Upload Spreadsheet
                </Button>
              )}
            </FileButton>
          )}
        </Group>
      </Group>
    ),
    [tickets.length, complete, canWrite, canEdit, selectedCount, onSpreadsheet, reading, navigate, openTicket, view, onView],
  );
  const shown = rows.length;
  const count = (
    <Text size="sm" c="dimmed" ml="auto" aria-live="polite">
      {shown === tickets.length ? `${tickets.length} tickets` : `${shown} of ${tickets.length} tickets`}
    </Text>
  );
  const filterControls = useMemo(
    () => (
      <>
        {poles.length > 1 && <FilterSelect label="Pole" options={poles} value={pole} onChange={onPoleFilter} />}
        {lines.length > 1 && <FilterSelect label="Line" options={lines} value={line} onChange={onLineFilter} />}
        <Stack gap={4}>
          <Text size="sm" fw={500} id="ticket-status-filter">
            Status
          </Text>
          <SegmentedControl aria-labelledby="ticket-status-filter" data={['All', 'Pending', 'Complete']} value={statusFilter} onChange={onStatusFilter} />
        </Stack>
      </>
    ),
    [poles, lines, pole, line, statusFilter, onPoleFilter, onLineFilter, onStatusFilter],
  );
  const active = (pole !== ALL ? 1 : 0) + (line !== ALL ? 1 : 0) + (statusFilter !== 'All' ? 1 : 0);
  // On a phone the label is read, not shown: the first ticket card must stay on the first screen.
  const searchBox = (
    <TextInput
      type="search"
      label={phone ? undefined : 'Search tickets'}
      aria-label="Search tickets"
      placeholder="Pole, line, street, work order or unit"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={searchInput}
      onChange={(e) => {
        startMeasure('tickets-filter');
        setSearchInput(e.currentTarget.value);
      }}
      w={{ base: '100%', xs: 280 }}
    />
  );
  // The map is given the rows the table shows (same filters), and opens a ticket as a row does.
  const map = view === 'map' && (
    <MapView rows={rows} label={`Map of the tickets of job ${job?.job_number ?? ''}`} fitLabel="Fit to job" onOpen={onOpen} onMove={canWrite ? movePole : undefined} />
  );

  if (!job) return <LoadState query={jobQuery} loading="Loading tickets" failed="Could not load the tickets" />;

  return (
    <Paper withBorder p={{ base: 'xs', sm: 'md' }} radius="md">
      <Stack gap="sm">
        {toolbar}

        {uploadResult && <UploadResult result={uploadResult} onClose={() => setUploadResult(null)} />}

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
            <Group gap="xs" wrap="nowrap">
              <Button variant="default" leftSection={<IconAdjustmentsHorizontal size={18} />} onClick={() => setFiltersOpen(true)}>
                Filters{active ? ` (${active})` : ''}
              </Button>
              {count}
            </Group>
            <Drawer opened={filtersOpen} onClose={() => setFiltersOpen(false)} position="bottom" title="Filter and sort tickets" size="auto" closeButtonProps={{ 'aria-label': 'Close filters' }}>
              <Stack gap="md" pb="md">
                {filterControls}
                <PhoneSortPicker options={SORT_OPTIONS} sort={sort} onSort={onSort} />
                <Button onClick={() => setFiltersOpen(false)}>Show {shown} ticket{shown === 1 ? '' : 's'}</Button>
              </Stack>
            </Drawer>
            {view === 'map' ? map : <TicketCards rows={rows} selectable={canEdit} selected={selected} onToggle={onToggle} onOpen={onOpen} emptyText={search.trim() ? 'No ticket matches your search.' : 'No tickets match these filters.'} />}
          </>
        ) : (
          <>
            <Group gap="sm" align="flex-end" wrap="wrap">
              {searchBox}
              {filterControls}
              {count}
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
              />
            )}
          </>
        )}
        {tickets.length > 0 && view === 'table' && <DocLegend />}
      </Stack>

      <Suspense fallback={null}>
        {sheet?.columns && (
          <ExcelMappingModal
            opened
            columns={sheet.columns}
            initial={null}
            overrides={job}
            libraryOptional
            readColumns={(sheets, signal) => readSheetColumns(jobId, sheet.file, sheets, signal)}
            onSave={onMapped}
            onCancel={() => setSheet(null)}
          />
        )}
        {sheet?.preview && (
          <ReimportPreviewModal
            fileName={sheet.file.name}
            preview={sheet.preview}
            stale={sheet.stale ?? null}
            busy={choice}
            onChoose={onChoose}
            onCancel={() => setSheet(null)}
          />
        )}

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
              setSelected(new Set());
            }}
          />
        )}
      </Suspense>
    </Paper>
  );
}
