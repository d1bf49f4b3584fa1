import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Button, Center, Container, Group, Loader, Paper, Select, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { isoToUs } from '../../../shared/dates';
import { fullName } from '../../../shared/names';
import { can } from '../../../shared/permissions';
import { useForemen } from '../../api/foremen';
import { useSession } from '../../api/session';
import { ApiError } from '../../api/client';
import { usePageTitle } from '../../components/usePageTitle';
import { CopyNote } from '../../offline/CopyNote';
import { useOutbox } from '../../offline/OfflineSync';
import { useWork, type WorkItem } from './api/work';
import { groupWork, isOverdue, localIsoDay } from './workList';
import { useKeepTicketsOnDevice } from './useKeepTicketsOnDevice';

/** Cards shown at first and per "Show more": an office user's My Work may hold thousands. */
const PAGE = 100;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function WorkCard({ t, today, waiting, onOpen }: { t: WorkItem; today: string; waiting: number; onOpen: (id: number) => void }) {
  const overdue = isOverdue(t, today);
  return (
    <Paper withBorder p={0}>
      <UnstyledButton onClick={() => onOpen(t.id)} data-ticket-id={t.id} style={{ display: 'block', width: '100%', padding: 14, minHeight: 64 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={700} truncate="end">
            Pole {t.pole_name ?? '--'} · Line {t.line_name ?? '--'}
          </Text>
          {overdue && (
            <Badge color="red" variant="filled" style={{ flex: 'none' }}>
              Overdue
            </Badge>
          )}
        </Group>
        <Text size="sm" truncate="end">
          {t.street_address || 'No address'}
        </Text>
        <Text size="sm" c="dimmed">
          {t.due_date ? `Due ${isoToUs(t.due_date)}` : 'No due date'} · {plural(t.task_count, 'task')} · {plural(t.photo_count, 'photo')}
          {waiting > 0 && ` · ${plural(waiting, 'change')} waiting`}
        </Text>
      </UnstyledButton>
    </Paper>
  );
}

/** My Work (DESIGN §7.1): the open tickets that concern me, grouped by job, soonest due first. */
export default function WorkPage() {
  usePageTitle('My Work');
  const navigate = useNavigate();
  // Office roles see every open ticket of the company (thousands, megabytes at scale): they
  // may narrow My Work to one foreman's jobs, remembered on this device.
  const { claims } = useSession();
  const office = can(claims?.roleId, 'work.all');
  const foremen = useForemen(office);
  const [foremanId, setForemanId] = useLocalStorage<number | null>({ key: 'linecrew.work.foreman', defaultValue: null });
  const work = useWork(office ? foremanId : null);
  const { entries, online } = useOutbox();
  useKeepTicketsOnDevice(work.data?.tickets, online);
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(PAGE);
  const today = localIsoDay();
  const groups = useMemo(() => groupWork(work.data?.tickets ?? [], search, today), [work.data, search, today]);
  const waitingByTicket = useMemo(() => {
    const m = new Map<number, number>();
    for (const e of entries) m.set(e.ticketId, (m.get(e.ticketId) ?? 0) + 1);
    return m;
  }, [entries]);
  // Benchmark mark (bench/lib/field.ts reads it): the list first painted with data, from the
  // server or from the copy on the device.
  const listShown = useRef(false);
  useEffect(() => {
    if (!work.data || listShown.current) return;
    listShown.current = true;
    requestAnimationFrame(() => performance.mark('work-list-visible'));
  }, [work.data]);
  const total = groups.reduce((n, g) => n + g.tickets.length, 0);
  const overdue = groups.reduce((n, g) => n + g.overdue, 0);
  const open = (id: number) => navigate(`/work/${id}`);

  if (work.isPending && !work.data) {
    if (work.isPaused) {
      return (
        <Alert color="yellow" title="My Work is not on this device yet">
          Open My Work once with a connection; after that it opens without one.
        </Alert>
      );
    }
    return (
      <Center py="xl">
        <Loader aria-label="Loading my work" />
      </Center>
    );
  }
  if (work.isError && !work.data) {
    return (
      <Alert color="red" title="My Work could not be loaded">
        <Stack gap="xs" align="flex-start">
          {work.error instanceof ApiError ? work.error.message : 'Something went wrong.'}
          <Button size="compact-md" onClick={() => void work.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  let budget = shown;
  return (
    <Container size="sm" py="md" px="sm">
      <Stack gap="md">
      <Group justify="space-between" align="baseline">
        <Title order={1} size="h2">
          My Work
        </Title>
        <Text size="sm" c="dimmed">
          {plural(total, 'open ticket')}
          {overdue > 0 && ` · ${overdue} overdue`}
        </Text>
      </Group>
      <CopyNote updatedAt={work.dataUpdatedAt} unreachable={work.isError} />
      {office && (
        <Select
          label="Foreman"
          size="md"
          data={[{ value: 'all', label: 'All foremen' }, ...(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }))]}
          value={foremanId == null ? 'all' : String(foremanId)}
          onChange={(v) => setForemanId(v && v !== 'all' ? Number(v) : null)}
          allowDeselect={false}
        />
      )}
      <TextInput
        type="search"
        label="Search my tickets"
        placeholder="Pole, line, street or job number"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setShown(PAGE);
        }}
        size="md"
      />
      {total === 0 && (
        <Text>{search ? 'No open ticket matches your search.' : 'Nothing open for you right now. Tickets of your jobs show here until they are complete.'}</Text>
      )}
      {groups.map((g) => {
        if (budget <= 0) return null;
        const tickets = g.tickets.slice(0, budget);
        budget -= tickets.length;
        return (
          <Stack key={g.jobId} gap="xs" component="section" aria-label={`Job ${g.jobNumber}`}>
            <Group gap="xs">
              <Title order={2} size="h4">
                Job {g.jobNumber}
              </Title>
              <Text size="sm" c="dimmed">
                {plural(g.tickets.length, 'ticket')}
                {g.overdue > 0 && ` · ${g.overdue} overdue`}
              </Text>
            </Group>
            {tickets.map((t) => (
              <WorkCard key={t.id} t={t} today={today} waiting={waitingByTicket.get(t.id) ?? 0} onOpen={open} />
            ))}
          </Stack>
        );
      })}
      {total > shown && (
        <Button variant="default" onClick={() => setShown((n) => n + PAGE)}>
          Show more ({total - shown} more)
        </Button>
      )}
    </Stack>
    </Container>
  );
}
