import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import Big from 'big.js';
import { Alert, Anchor, Badge, Button, Container, Group, Paper, Select, SimpleGrid, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import {
  DASHBOARD_JOB_PAGE,
  DASHBOARD_JOB_SORT_DEFAULT,
  DASHBOARD_JOB_SORTS,
  type DashboardForeman,
  type DashboardJob,
  type DashboardJobSort,
  type DashboardReply,
} from '../../../shared/dashboard.schemas';
import { formatMoney } from '../../../shared/money';
import { fullName } from '../../../shared/names';
import { can } from '../../../shared/permissions';
import type { SortState } from '../../../shared/sorting';
import { useForemen } from '../../api/foremen';
import { useSession } from '../../api/session';
import { LoadState } from '../../components/LoadState';
import { SortableList } from '../../components/SortableList';
import { usePageTitle } from '../../components/usePageTitle';
import { useStoredSort } from '../../components/useStoredSort';
import { useDashboardPages } from './api/dashboard';

/**
 * The dashboard (docs/product/billing.md §6, decision 026): what is open and overdue, what was done this week,
 * what is done but not billed yet, by job and by foreman, and the completed amount of the last
 * 12 weeks. Its own route chunk, so the chart library never weighs on the other pages.
 */
export default function DashboardPage() {
  const { claims } = useSession();
  usePageTitle('Dashboard');
  if (!can(claims?.roleId, 'billing.read')) {
    return (
      <Container size="sm" py="xl">
        <Alert color="blue" title="The dashboard is for the office and foremen" role="status">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">This page is for Admins, Office Managers and Foremen. Your open work is on My Work.</Text>
            <Group gap="sm">
              <Button component={Link} to="/work">
                My Work
              </Button>
              <Button component={Link} to="/jobs" variant="default">
                Back to the job list
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Container>
    );
  }
  return <Dashboard />;
}

function Dashboard() {
  const [foremanId, setForemanId] = useState<number | null>(null);
  // The by-job table's order: the server sorts and pages it (a company has tens of thousands).
  const [jobSort, onJobSort] = useStoredSort<DashboardJobSort>(
    { column: 'dashboard.jobs.sort', direction: 'dashboard.jobs.direction' },
    DASHBOARD_JOB_SORT_DEFAULT,
    DASHBOARD_JOB_SORTS,
  );
  const query = useDashboardPages(foremanId, jobSort);
  const foremen = useForemen();
  const foremanOptions = useMemo(
    () => [{ value: 'all', label: 'All foremen' }, ...(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }))],
    [foremen.data],
  );
  const first = query.data?.pages[0];
  const jobs = useMemo(() => query.data?.pages.flatMap((p) => p.by_job) ?? [], [query.data]);
  // A page that failed after the first leaves the figures on screen (the button offers it again).
  const loadable = { ...query, isError: query.isError && !first };

  return (
    <Container size="xl" py="md">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Title order={1}>Dashboard</Title>
          <Select
            label="Foreman"
            data={foremanOptions}
            value={foremanId === null ? 'all' : String(foremanId)}
            onChange={(v) => setForemanId(!v || v === 'all' ? null : Number(v))}
            allowDeselect={false}
            w={{ base: '100%', xs: 240 }}
          />
        </Group>
        <LoadState query={loadable} loading="Loading the dashboard" failed="The dashboard could not be loaded">
          {first && (
            <Figures
              data={first}
              jobs={{
                rows: jobs,
                total: first.by_job_total,
                sort: jobSort,
                onSort: onJobSort,
                more: query.hasNextPage ? () => void query.fetchNextPage() : undefined,
                loadingMore: query.isFetchingNextPage,
                moreFailed: query.isFetchNextPageError,
              }}
            />
          )}
        </LoadState>
      </Stack>
    </Container>
  );
}

/** The by-job table's rows read so far and how to read more. */
interface JobPages {
  rows: DashboardJob[];
  total: number;
  sort: SortState<DashboardJobSort>;
  onSort: (column: DashboardJobSort) => void;
  more?: () => void;
  loadingMore: boolean;
  moreFailed: boolean;
}

function StatCard({ label, value, hint, alert = false }: { label: string; value: string; hint?: string; alert?: boolean }) {
  return (
    <Paper withBorder p="md" role="group" aria-label={label}>
      <Text size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text fz={{ base: 22, sm: 28 }} fw={700} c={alert ? 'red.9' : undefined} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

const WEEK = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const weekLabel = (day: string) => WEEK.format(new Date(`${day}T00:00:00Z`));

function Figures({ data, jobs }: { data: DashboardReply; jobs: JobPages }) {
  const money = (value: string) => formatMoney(value, data.currency);
  const { totals } = data;
  const nothing = totals.open === 0 && totals.completed_this_week === 0 && data.by_job_total === 0 && data.weekly.every((w) => w.completed_amount === '0.00');

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <StatCard label="Open tickets" value={String(totals.open)} />
        <StatCard label="Overdue" value={String(totals.overdue)} alert={totals.overdue > 0} hint="Open, past their due date" />
        <StatCard label="Completed this week" value={String(totals.completed_this_week)} hint={`Since Monday, ${weekLabel(data.weekly[data.weekly.length - 1]?.week_start ?? data.today)}`} />
        <StatCard label="Unbilled completed" value={money(totals.unbilled_completed_amount)} hint="Done, not on an invoice yet" />
      </SimpleGrid>

      {nothing ? (
        <Paper withBorder p="lg">
          <Text ta="center" c="dimmed">
            Nothing to show yet: no open tickets and no work completed in the last 12 weeks.
          </Text>
        </Paper>
      ) : (
        <>
          <WeeklyChart weekly={data.weekly} money={money} />
          <JobsTable jobs={jobs} money={money} />
          <ForemenTable foremen={data.by_foreman} money={money} />
        </>
      )}
    </Stack>
  );
}

/**
 * The bar chart is drawn for the eye only (hidden from screen readers, and recharts' keyboard
 * layer off so nothing hidden takes focus); the same figures are in a visually hidden table.
 */
function WeeklyChart({ weekly, money }: { weekly: DashboardReply['weekly']; money: (v: string) => string }) {
  const rows = weekly.map((w) => ({ week: weekLabel(w.week_start), amount: Number(w.completed_amount) }));
  const total = weekly.reduce((sum, w) => sum.plus(w.completed_amount), new Big(0));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="weekly-title">
      <Title order={2} size="h3" id="weekly-title">
        Completed amount per week
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Last 12 weeks, Monday to Sunday: {money(total.toFixed(2))} in all.
      </Text>
      <div aria-hidden="true">
        <BarChart
          h={260}
          data={rows}
          dataKey="week"
          series={[{ name: 'amount', label: 'Completed', color: 'blue.8' }]}
          valueFormatter={(v) => money(new Big(v).toFixed(2))}
          yAxisProps={{ width: 80 }}
          tickLine="y"
          barChartProps={{ accessibilityLayer: false }}
        />
      </div>
      <VisuallyHidden>
        <table>
          <caption>Completed amount per week, last 12 weeks</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">Completed amount</th>
            </tr>
          </thead>
          <tbody>
            {weekly.map((w) => (
              <tr key={w.week_start}>
                <td>{weekLabel(w.week_start)}</td>
                <td>{money(w.completed_amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </Paper>
  );
}

const JOB_COLUMNS: { column: DashboardJobSort; label: string }[] = [
  { column: 'job_number', label: 'Job' },
  { column: 'foreman_name', label: 'Foreman' },
  { column: 'open', label: 'Open' },
  { column: 'overdue', label: 'Overdue' },
  { column: 'completed_this_week', label: 'Done this week' },
  { column: 'unbilled_completed_amount', label: 'Unbilled' },
  { column: 'percent_complete', label: '% Complete' },
];
type ForemanColumn = 'name' | 'open' | 'overdue' | 'completed_this_week' | 'unbilled_completed_amount';
const FOREMAN_COLUMNS: { column: ForemanColumn; label: string }[] = [
  { column: 'name', label: 'Foreman' },
  { column: 'open', label: 'Open' },
  { column: 'overdue', label: 'Overdue' },
  { column: 'completed_this_week', label: 'Done this week' },
  { column: 'unbilled_completed_amount', label: 'Unbilled' },
];

/** Numbers as numbers, amounts exactly (big.js), text naturally; empty text last. */
function compareBy<T>(sort: SortState<string>, money: readonly string[]) {
  return (a: T, b: T) => {
    const [x, y] = [(a as Record<string, unknown>)[sort.column], (b as Record<string, unknown>)[sort.column]];
    let order: number;
    if (x == null || x === '' || y == null || y === '') order = x == null || x === '' ? (y == null || y === '' ? 0 : 1) : -1;
    else if (money.includes(sort.column)) order = new Big(x as string).cmp(y as string);
    else if (typeof x === 'number' && typeof y === 'number') order = x - y;
    else order = String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: 'base' });
    return sort.direction === 'asc' ? order : -order;
  };
}

const jobHref = (id: number) => `/job?id=${id}`;

/** The jobs with something to show, sorted by the server, a page at a time ("Show more"). */
function JobsTable({ jobs, money }: { jobs: JobPages; money: (v: string) => string }) {
  const rows = useMemo(() => jobs.rows.map((j) => ({ ...j, id: j.job_id })), [jobs.rows]);
  const left = jobs.total - rows.length;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="by-job-title">
      <Title order={2} size="h3" id="by-job-title" mb="sm">
        By job
      </Title>
      <SortableList
        label="By job"
        minWidth={760}
        columns={JOB_COLUMNS}
        sort={jobs.sort}
        onSort={jobs.onSort}
        rows={rows}
        empty="No job has open tickets or unbilled work."
        row={(j) => (
          <Table.Tr>
            <Table.Td>
              <Anchor component={Link} to={jobHref(j.job_id)} fw={600}>
                {j.job_number}
              </Anchor>
            </Table.Td>
            <Table.Td>{j.foreman_name ?? 'No foreman'}</Table.Td>
            <Table.Td>{j.open}</Table.Td>
            <Table.Td>{j.overdue > 0 ? <Text c="red.9" fw={700} span>{j.overdue}</Text> : 0}</Table.Td>
            <Table.Td>{j.completed_this_week}</Table.Td>
            <Table.Td>{money(j.unbilled_completed_amount)}</Table.Td>
            <Table.Td>{j.percent_complete}%</Table.Td>
          </Table.Tr>
        )}
        card={(j) => (
          <Paper withBorder p="sm">
            <Group justify="space-between" wrap="nowrap">
              <Anchor component={Link} to={jobHref(j.job_id)} fw={700}>
                Job {j.job_number}
              </Anchor>
              {j.overdue > 0 && (
                <Badge color="red" variant="filled">
                  {j.overdue} overdue
                </Badge>
              )}
            </Group>
            <Text size="sm">{j.foreman_name ?? 'No foreman'}</Text>
            <Text size="sm">
              {j.open} open · {j.completed_this_week} done this week · {j.percent_complete}% complete
            </Text>
            <Text size="sm">Unbilled {money(j.unbilled_completed_amount)}</Text>
          </Paper>
        )}
      />
      {left > 0 && jobs.more && (
        <Stack align="center" gap="xs" mt="sm">
          {jobs.moreFailed && (
            <Text size="sm" c="red.9" role="alert">
              The next jobs could not be loaded. Try again.
            </Text>
          )}
          <Button variant="default" onClick={jobs.more} loading={jobs.loadingMore}>
            Show {Math.min(DASHBOARD_JOB_PAGE, left)} more ({rows.length} of {jobs.total} jobs shown)
          </Button>
        </Stack>
      )}
    </Paper>
  );
}

function ForemenTable({ foremen, money }: { foremen: DashboardForeman[]; money: (v: string) => string }) {
  const [sort, onSort] = useStoredSort<ForemanColumn>(
    { column: 'dashboard.foremen.sort', direction: 'dashboard.foremen.direction' },
    { column: 'name', direction: 'asc' },
    FOREMAN_COLUMNS.map((c) => c.column),
  );
  // The jobs without a foreman have no id: 0 keys their row (a real id is never 0).
  const rows = useMemo(() => [...foremen].sort(compareBy<DashboardForeman>(sort, ['unbilled_completed_amount'])).map((f) => ({ ...f, id: f.foreman_id ?? 0 })), [foremen, sort]);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="by-foreman-title">
      <Title order={2} size="h3" id="by-foreman-title" mb="sm">
        By foreman
      </Title>
      <SortableList
        label="By foreman"
        minWidth={600}
        columns={FOREMAN_COLUMNS}
        sort={sort}
        onSort={onSort}
        rows={rows}
        empty="No foreman has open tickets or unbilled work."
        row={(f) => (
          <Table.Tr>
            <Table.Td fw={600}>{f.name ?? 'No foreman'}</Table.Td>
            <Table.Td>{f.open}</Table.Td>
            <Table.Td>{f.overdue > 0 ? <Text c="red.9" fw={700} span>{f.overdue}</Text> : 0}</Table.Td>
            <Table.Td>{f.completed_this_week}</Table.Td>
            <Table.Td>{money(f.unbilled_completed_amount)}</Table.Td>
          </Table.Tr>
        )}
        card={(f) => (
          <Paper withBorder p="sm">
            <Text fw={700}>{f.name ?? 'No foreman'}</Text>
            <Text size="sm">
              {f.open} open · {f.overdue} overdue · {f.completed_this_week} done this week
            </Text>
            <Text size="sm">Unbilled {money(f.unbilled_completed_amount)}</Text>
          </Paper>
        )}
      />
    </Paper>
  );
}
