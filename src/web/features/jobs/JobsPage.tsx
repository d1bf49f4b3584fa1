import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Anchor, Badge, Button, Center, Container, Group, Loader, Pagination, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, ActionIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus, IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { formatLongDate, isoToUs } from '../../../shared/dates';
import {
  JOB_SORT_COLUMNS,
  JOB_SORT_DEFAULT,
  JOB_SORT_STORAGE,
  JOB_STATUS_FILTERS,
  jobTypeLabel,
  visibleJobs,
  type JobSortColumn,
  type JobStatusFilter,
} from '../../../shared/jobs.list';
import type { JobListItem } from '../../../shared/jobs.schemas';
import { can } from '../../../shared/permissions';
import { useSession } from '../../api/session';
import { SortableTh } from '../../components/SortableTh';
import { usePageTitle } from '../../components/usePageTitle';
import { useSearchDelay } from '../../components/useSearchDelay';
import { useStoredSort } from '../../components/useStoredSort';
import { useJobs } from './api/jobs';
import { JobFormModal } from './JobFormModal';

const COLUMNS: { column: JobSortColumn; label: string }[] = [
  { column: 'job_number', label: 'Job' },
  { column: 'selected_utility_name', label: 'Utility' },
  { column: 'job_type', label: 'Job Type' },
  { column: 'status', label: 'Status' },
  { column: 'ticket_count', label: '# Tickets' },
  { column: 'created_name', label: 'Created By' },
  { column: 'due_date', label: 'Due Date' },
  { column: 'date_completed', label: 'Date Completed' },
];

/** Rows per page: the list stays fast with thousands of jobs by rendering one page at a time. */
export const JOBS_PAGE_SIZE = 50;

const STATUS_COLOR: Record<string, string> = { 'In Estimation': 'grape', 'In Progress': 'blue', Complete: 'green' };
const jobHref = (id: number) => `/job?id=${id}`;

/** The jobs list (SPEC §2 Jobs list): 'Job View', status filters, search, sortable columns, Create Job. */
export default function JobsPage() {
  const { claims } = useSession();
  const canWrite = can(claims?.roleId, 'jobs.write');
  const jobs = useJobs();
  usePageTitle('Jobs');
  const navigate = useNavigate();
  const [status, setStatus] = useState<JobStatusFilter>('All');
  const [searchInput, setSearchInput] = useState('');
  const search = useSearchDelay(searchInput);
  const [sort, toggleSort] = useStoredSort(JOB_SORT_STORAGE, JOB_SORT_DEFAULT, JOB_SORT_COLUMNS);
  const [creating, setCreating] = useState(false);
  const phone = useMediaQuery('(max-width: 48em)');
  // Lower-cased search text per job, built once per loaded list (5,000 jobs: ~1 ms per keystroke).
  const searchCache = useRef(new WeakMap<JobListItem, string>());

  const rows = useMemo(
    () => visibleJobs(jobs.data ?? [], { status, search, column: sort.column, direction: sort.direction }, searchCache.current),
    [jobs.data, status, search, sort.column, sort.direction],
  );
  const pages = Math.max(1, Math.ceil(rows.length / JOBS_PAGE_SIZE));
  // Any change of filter, search or sort starts again at page 1.
  const listKey = `${status}|${search}|${sort.column}|${sort.direction}`;
  const [pageState, setPageState] = useState({ key: listKey, page: 1 });
  const page = pageState.key === listKey ? pageState.page : 1;
  const setPage = (p: number) => {
    setPageState({ key: listKey, page: p });
    window.scrollTo({ top: 0 });
  };
  const current = Math.min(page, pages);
  const pageRows = rows.slice((current - 1) * JOBS_PAGE_SIZE, current * JOBS_PAGE_SIZE);

  const filtered = search.trim() !== '' || status !== 'All';
  // An empty company's first stop: say what a job is for and offer to create one.
  const emptyText: ReactNode = filtered ? (
    'No jobs match.'
  ) : (
    <Stack gap="xs" align="center" component="span" data-testid="no-jobs">
      <span>No jobs yet.{canWrite ? ' Create the first one: a job holds the pole tickets of one work packet.' : ' The office creates the jobs; they will show here.'}</span>
      {canWrite && (
        <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          Create Job
        </Button>
      )}
    </Stack>
  );

  function onRowKey(e: KeyboardEvent, id: number) {
    if (e.key === 'Enter') navigate(jobHref(id));
  }

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2}>Job View</Title>
          {canWrite && (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              Create Job
            </Button>
          )}
        </Group>

        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Status filter"
            data={JOB_STATUS_FILTERS.map((s) => ({ value: s, label: s }))}
            value={status}
            onChange={(v) => setStatus(v as JobStatusFilter)}
            fullWidth={phone}
            size={phone ? 'xs' : 'sm'}
            style={phone ? { width: '100%' } : undefined}
          />
          <TextInput
            aria-label="Search jobs"
            placeholder="Search"
            leftSection={<IconSearch size={16} />}
            value={searchInput}
            onChange={(e) => setSearchInput(e.currentTarget.value)}
            maxLength={100}
            style={{ flex: '1 1 220px', maxWidth: phone ? undefined : 360 }}
          />
        </Group>

        {jobs.isLoading ? (
          <Center py="xl">
            <Loader aria-label="Loading jobs" />
          </Center>
        ) : jobs.isError ? (
          <Alert color="red" role="alert" title="The jobs could not be loaded">
            <Group justify="space-between">
              <Text size="sm">{jobs.error.message}</Text>
              <Button size="xs" variant="light" color="red" onClick={() => void jobs.refetch()}>
                Try again
              </Button>
            </Group>
          </Alert>
        ) : (
          <>
            {phone ? (
              <JobCards rows={pageRows} sort={sort} onSort={toggleSort} emptyText={emptyText} />
            ) : (
              <Table.ScrollContainer minWidth={960}>
                <Table striped highlightOnHover verticalSpacing="sm" aria-label="Jobs">
                  <Table.Thead>
                    <Table.Tr>
                      {COLUMNS.map((c) => (
                        <SortableTh key={c.column} active={sort.column === c.column} direction={sort.direction} onSort={() => toggleSort(c.column)}>
                          {c.label}
                        </SortableTh>
                      ))}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {pageRows.length === 0 ? (
                      <Table.Tr>
                        <Table.Td colSpan={COLUMNS.length}>
                          <Text c="dimmed" ta="center" py="md" component="div">
                            {emptyText}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ) : (
                      pageRows.map((j) => (
                        <Table.Tr
                          key={j.id}
                          style={{ cursor: 'pointer' }}
                          onClick={(e) => {
                            if (!(e.target as HTMLElement).closest('a')) navigate(jobHref(j.id));
                          }}
                          onKeyDown={(e) => onRowKey(e, j.id)}
                        >
                          <Table.Td>
                            <Anchor component={Link} to={jobHref(j.id)} fw={600}>
                              {j.job_number}
                            </Anchor>
                          </Table.Td>
                          <Table.Td>{j.selected_utility_name}</Table.Td>
                          <Table.Td>{jobTypeLabel(j.job_type)}</Table.Td>
                          <Table.Td>
                            <Badge variant="light" color={STATUS_COLOR[j.status] ?? 'gray'}>
                              {j.status}
                            </Badge>
                          </Table.Td>
                          <Table.Td>{j.ticket_count}</Table.Td>
                          <Table.Td>{j.foreman_name || '--'}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{isoToUs(j.due_date) || '--'}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLongDate(j.date_completed)}</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Group justify="space-between" align="center" wrap="wrap" gap="xs">
              <Text size="sm" c="dimmed" aria-live="polite">
                {rows.length === 0
                  ? ''
                  : `Showing ${(current - 1) * JOBS_PAGE_SIZE + 1}–${Math.min(current * JOBS_PAGE_SIZE, rows.length)} of ${rows.length.toLocaleString('en-US')} job${rows.length === 1 ? '' : 's'}`}
              </Text>
              {pages > 1 && <Pagination total={pages} value={current} onChange={setPage} size="sm" siblings={phone ? 0 : 1} aria-label="Pages" />}
            </Group>
          </>
        )}
      </Stack>
      {canWrite && <JobFormModal opened={creating} onClose={() => setCreating(false)} />}
    </Container>
  );
}

/** On a phone each job is a card; the sort becomes a picker and a direction toggle. */
function JobCards({
  rows,
  sort,
  onSort,
  emptyText,
}: {
  rows: JobListItem[];
  sort: { column: JobSortColumn; direction: 'asc' | 'desc' };
  onSort: (column: JobSortColumn) => void;
  emptyText: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <Group gap="xs" wrap="nowrap">
        <Select
          aria-label="Sort by"
          data={COLUMNS.map((c) => ({ value: c.column, label: `Sort: ${c.label}` }))}
          value={sort.column}
          onChange={(v) => v && v !== sort.column && onSort(v as JobSortColumn)}
          allowDeselect={false}
          style={{ flex: 1 }}
        />
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={sort.direction === 'asc' ? 'Sorted ascending; sort descending' : 'Sorted descending; sort ascending'}
          onClick={() => onSort(sort.column)}
        >
          {sort.direction === 'asc' ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
        </ActionIcon>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed" ta="center" py="md" component="div">
          {emptyText}
        </Text>
      ) : (
        rows.map((j) => (
          <Paper key={j.id} withBorder p="sm" component={Link} to={jobHref(j.id)} style={{ color: 'inherit', textDecoration: 'none' }}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={700} truncate="end">
                {j.job_number}
              </Text>
              <Badge variant="light" color={STATUS_COLOR[j.status] ?? 'gray'} style={{ flex: 'none' }}>
                {j.status}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed">
              {j.selected_utility_name} · {jobTypeLabel(j.job_type)} · {j.ticket_count} ticket{j.ticket_count === 1 ? '' : 's'}
            </Text>
            <Text size="sm">Created By: {j.foreman_name || '--'}</Text>
            <Group gap="md" style={{ rowGap: 0 }}>
              <Text size="sm">Due: {isoToUs(j.due_date) || '--'}</Text>
              <Text size="sm">Completed: {formatLongDate(j.date_completed)}</Text>
            </Group>
          </Paper>
        ))
      )}
    </Stack>
  );
}
