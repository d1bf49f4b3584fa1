import { lazy, Suspense, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Badge, Button, Group, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { formatLongDate, isoToUs } from '../../../shared/dates';
import {
  JOB_SORT_COLUMNS,
  JOB_SORT_DEFAULT,
  JOB_SORT_STORAGE,
  JOB_STATUS_FILTERS,
  jobTypeLabel,
  type JobSortColumn,
  type JobStatusFilter,
} from '../../../shared/jobs.list';
import type { JobListRow } from '../../../shared/jobs.schemas';
import { can } from '../../../shared/permissions';
import { useSession } from '../../api/session';
import { ListPage } from '../../components/ListPage';
import { LoadState } from '../../components/LoadState';
import { SortableList } from '../../components/SortableList';
import { usePageTitle } from '../../components/usePageTitle';
import { useSearchDelay } from '../../components/useSearchDelay';
import { useStoredSort } from '../../components/useStoredSort';
import { JOBS_PAGE_SIZE, useJobPages, type JobListView } from './api/jobs';

// The job form (dropzone, date picker, its schemas) loads when someone creates a job, not with the list.
const JobFormModal = lazy(() => import('./JobFormModal').then((m) => ({ default: m.JobFormModal })));

const COLUMNS: { column: JobSortColumn; label: string }[] = [
  { column: 'job_number', label: 'Job' },
  { column: 'selected_utility_name', label: 'Utility' },
  { column: 'job_type', label: 'Job Type' },
  { column: 'status', label: 'Status' },
  { column: 'ticket_count', label: '# Tickets' },
  { column: 'created_name', label: 'Created By' },
  { column: 'due_date', label: 'Due Date' },
  { column: 'date_completed', label: 'Date Completed' },
  { column: 'percent_complete', label: '% Complete' },
  { column: 'unevidenced_count', label: 'No Evidence' },
];

/** "59.6%": the server's figure has one decimal already (docs/product/billing.md §1). */
const percentText = (p: number | undefined) => `${(p ?? 0).toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;

const PAGE_CONTROL_LABEL = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

const STATUS_COLOR: Record<string, string> = { 'In Estimation': 'grape', 'In Progress': 'blue', Complete: 'green' };
const jobHref = (id: number) => `/job?id=${id}`;

/** The jobs list (docs/product/screens.md §3 Jobs list): 'Job View', status filters, search, sortable columns, Create Job. */
export default function JobsPage() {
  const { claims } = useSession();
  const canWrite = can(claims?.roleId, 'jobs.write');
  usePageTitle('Jobs');
  const navigate = useNavigate();
  const [status, setStatus] = useState<JobStatusFilter>('All');
  const [searchInput, setSearchInput] = useState('');
  const search = useSearchDelay(searchInput);
  const [sort, toggleSort] = useStoredSort(JOB_SORT_STORAGE, JOB_SORT_DEFAULT, JOB_SORT_COLUMNS);
  const [creating, setCreating] = useState(false);
  const phone = useMediaQuery('(max-width: 48em)');
  // The server searches, filters, sorts and pages (docs/product/scale.md §2): 100,000 jobs never
  // come to the browser, 50 do.
  const view: JobListView = { status, q: search.trim(), sort: sort.column, dir: sort.direction };
  const jobs = useJobPages(view);
  const loaded = jobs.data?.pages ?? [];
  const total = loaded[0]?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / JOBS_PAGE_SIZE));
  // Any change of filter, search or sort starts again at page 1.
  const listKey = `${view.status}|${view.q}|${view.sort}|${view.dir}`;
  const [pageState, setPageState] = useState({ key: listKey, page: 1 });
  const page = pageState.key === listKey ? pageState.page : 1;
  // A cursor reaches the pages read so far and the one after: the pager offers those.
  const reachable = loaded.length + (jobs.hasNextPage ? 1 : 0);
  const setPage = (p: number) => {
    if (p > reachable) return;
    if (p > loaded.length) void jobs.fetchNextPage();
    setPageState({ key: listKey, page: p });
    window.scrollTo({ top: 0 });
  };
  // Until the page asked for arrives, the last one read stays shown.
  const current = Math.min(page, Math.max(1, loaded.length));
  const pageRows = loaded[current - 1]?.jobs ?? [];
  const shown = { from: (current - 1) * JOBS_PAGE_SIZE + 1, to: (current - 1) * JOBS_PAGE_SIZE + pageRows.length };

  const createJob = canWrite && (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
      Create Job
    </Button>
  );
  const filtered = search.trim() !== '' || status !== 'All';
  // An empty company's first stop: say what a job is for and offer to create one.
  const emptyText: ReactNode = filtered ? (
    'No jobs match.'
  ) : (
    <Stack gap="xs" align="center" component="span" data-testid="no-jobs">
      <span>No jobs yet.{canWrite ? ' Create the first one: a job holds the pole tickets of one work packet.' : ' The office creates the jobs; they will show here.'}</span>
      {createJob}
    </Stack>
  );

  function onRowKey(e: KeyboardEvent, id: number) {
    if (e.key === 'Enter') navigate(jobHref(id));
  }

  return (
    <>
      <ListPage
        title="Job View"
        action={createJob}
        statuses={JOB_STATUS_FILTERS}
        status={status}
        onStatus={setStatus}
        searchLabel="Search jobs"
        search={searchInput}
        onSearch={setSearchInput}
      >
        <LoadState query={jobs} loading="Loading jobs" failed="The jobs could not be loaded">
          <SortableList
            label="Jobs"
            minWidth={1060}
            columns={COLUMNS}
            sort={sort}
            onSort={toggleSort}
            rows={pageRows}
            empty={emptyText}
            row={(j) => (
              <Table.Tr
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
                  <StatusBadge status={j.status} />
                </Table.Td>
                <Table.Td>{j.ticket_count}</Table.Td>
                <Table.Td>{j.foreman_name || '--'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{isoToUs(j.due_date) || '--'}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLongDate(j.date_completed)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{percentText(j.percent_complete)}</Table.Td>
                {/* docs/product/records.md §8: tickets complete but not evidenced. */}
                <Table.Td title="Complete tickets without the photos required">{j.unevidenced_count || '--'}</Table.Td>
              </Table.Tr>
            )}
            card={(j) => <JobCard job={j} />}
          />
          <Group justify="space-between" align="center" wrap="wrap" gap="xs">
            <Text size="sm" c="dimmed" aria-live="polite">
              {pageRows.length === 0 ? '' : `Showing ${shown.from}–${shown.to} of ${total.toLocaleString('en-US')} job${total === 1 ? '' : 's'}`}
            </Text>
            {/* The name goes on a <nav>: Mantine puts it on a bare <div>, which may not carry one.
                Its arrows are icons only, so each button is named (axe button-name; decision 042). */}
            {pages > 1 && (
              <nav aria-label="Pages">
                <Pagination
                  total={pages}
                  value={current}
                  onChange={setPage}
                  size="sm"
                  siblings={phone ? 0 : 1}
                  getControlProps={(control) => ({ 'aria-label': PAGE_CONTROL_LABEL[control] })}
                  getItemProps={(p) => ({ 'aria-label': `Page ${p}`, disabled: p > reachable })}
                />
              </nav>
            )}
          </Group>
        </LoadState>
      </ListPage>
      {canWrite && creating && (
        <Suspense fallback={null}>
          <JobFormModal opened onClose={() => setCreating(false)} />
        </Suspense>
      )}
    </>
  );
}

const StatusBadge = ({ status }: { status: string }) => (
  <Badge variant="light" color={STATUS_COLOR[status] ?? 'gray'} style={{ flex: 'none' }}>
    {status}
  </Badge>
);

/** On a phone each job is a card. */
function JobCard({ job: j }: { job: JobListRow }) {
  return (
    <Paper withBorder p="sm" component={Link} to={jobHref(j.id)} style={{ color: 'inherit', textDecoration: 'none' }}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={700} truncate="end">
          {j.job_number}
        </Text>
        <StatusBadge status={j.status} />
      </Group>
      <Text size="sm" c="dimmed">
        {j.selected_utility_name} · {jobTypeLabel(j.job_type)} · {j.ticket_count} ticket{j.ticket_count === 1 ? '' : 's'}
      </Text>
      <Text size="sm">Created By: {j.foreman_name || '--'}</Text>
      <Group gap="md" style={{ rowGap: 0 }}>
        <Text size="sm">Due: {isoToUs(j.due_date) || '--'}</Text>
        <Text size="sm">Completed: {formatLongDate(j.date_completed)}</Text>
        <Text size="sm">{percentText(j.percent_complete)} complete</Text>
        {j.unevidenced_count > 0 && <Text size="sm">No evidence: {j.unevidenced_count}</Text>}
      </Group>
    </Paper>
  );
}
