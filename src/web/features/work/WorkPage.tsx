import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Center, Container, Group, NativeSelect, Paper, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconCurrentLocation, IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { isoToUs } from '../../../shared/dates';
import { fullName } from '../../../shared/names';
import { can } from '../../../shared/permissions';
import { WORK_LIMIT, WORK_LIMIT_MAX } from '../../../shared/constants';
import { isOverdue, localIsoDay } from '../../../shared/ticket-state';
import { clearToDig, ticketExpiry } from '../../../shared/dig-safe';
import { companyDay } from '../../api/session';
import { ExpiryBadge } from '../../components/DigSafe';
import { useForemen } from '../../api/foremen';
import { useSession } from '../../api/session';
import { ApiError } from '../../api/client';
import type { Position } from '../../components/geolocation';
import { MapView } from '../../components/map/MapView';
import { usePageTitle } from '../../components/usePageTitle';
import { CopyNote } from '../../offline/CopyNote';
import { useOutbox } from '../../offline/OfflineSync';
import { useWork, type WorkItem } from './api/work';
import { ChoiceButtons } from '../../components/ChoiceButtons';
import { groupWork } from './workList';
import { useKeepTicketsOnDevice } from './useKeepTicketsOnDevice';

/** Cards shown at first and per "Show more": an office user's My Work may hold thousands. */
const PAGE = 100;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

const VIEWS = [
  { value: 'list', label: 'List' },
  { value: 'map', label: 'Map' },
] as const;
const ORDERS = [
  { value: 'due', label: 'Soonest due' },
  { value: 'nearest', label: 'Nearest first' },
] as const;

/**
 * The phone's position and the distances to the poles: loaded when the person first asks for
 * their position (Show my position, Nearest first), not with My Work's first screen.
 */
const loadNearby = () => Promise.all([import('../../components/geolocation'), import('../../../shared/distance')]);
type Distances = Awaited<ReturnType<typeof loadNearby>>[1];

/**
 * One ticket. In Nearest first it also names its job (the list is no longer grouped by job) and
 * how far it is: `away` is "450 ft away", or "No location" for a ticket without coordinates.
 */
function WorkCard({ t, today, waiting, onOpen, away }: { t: WorkItem; today: string; waiting: number; onOpen: (id: number) => void; away?: string }) {
  const overdue = isOverdue(t, today);
  // From the card's own fields on the company's day: the same answer offline, from the phone's copy (docs/product/records.md).
  const digDay = companyDay();
  const dig = clearToDig(t, digDay);
  const expiry = ticketExpiry(t, digDay);
  return (
    <Paper withBorder p={0}>
      <UnstyledButton onClick={() => onOpen(t.id)} data-ticket-id={t.id} style={{ display: 'block', width: '100%', padding: 14, minHeight: 64 }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={700} truncate="end">
            Pole {t.pole_name ?? '--'} · Line {t.line_name ?? '--'}
          </Text>
          <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
            {expiry && <ExpiryBadge expiry={expiry} what="Permits" />}
            {overdue && (
              <Badge color="red" variant="filled" style={{ flex: 'none' }}>
                Overdue
              </Badge>
            )}
          </Group>
        </Group>
        {dig.clear_to_dig === false && (
          <Text size="sm" fw={700} c="red.9" data-testid="not-clear-to-dig">
            Not clear to dig: {dig.clear_to_dig_reason}
          </Text>
        )}
        {away !== undefined && (
          <Text size="sm" fw={600}>
            {away} · Job {t.job_number}
          </Text>
        )}
        <Text size="sm" truncate="end">
          {t.street_address || 'No address'}
        </Text>
        {(t.work_orders ?? []).length > 0 && (
          <Text size="sm" truncate="end">
            Work order: {t.work_orders.join(', ')}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t.due_date ? `Due ${isoToUs(t.due_date)}` : 'No due date'} · {plural(t.task_count, 'task')} · {plural(t.photo_count, 'photo')}
          {waiting > 0 && ` · ${plural(waiting, 'change')} waiting`}
        </Text>
      </UnstyledButton>
    </Paper>
  );
}

/** My Work (docs/product/field-mode.md §1): the open tickets that concern me, grouped by job, soonest due first. */
export default function WorkPage() {
  usePageTitle('My Work');
  const navigate = useNavigate();
  // Office roles see every open ticket of the company (thousands, megabytes at scale): they
  // may narrow My Work to one foreman's jobs, remembered on this device.
  const { claims } = useSession();
  const office = can(claims?.roleId, 'work.all');
  const foremen = useForemen(office);
  const [foremanId, setForemanId] = useLocalStorage<number | null>({ key: 'linecrew.work.foreman', defaultValue: null });
  // How many open tickets to ask the server for: the first WORK_LIMIT, more on "Load more".
  const [asked, setAsked] = useState(WORK_LIMIT);
  const work = useWork(office ? foremanId : null, asked);
  const { entries, online } = useOutbox();
  useKeepTicketsOnDevice(work.data?.tickets, online);
  const [search, setSearch] = useState('');
  const [shown, setShown] = useState(PAGE);
  // List or Map (docs/product/map.md §1), remembered on this device.
  const [view, setView] = useLocalStorage<'list' | 'map'>({ key: 'linecrew.work.view', defaultValue: 'list', getInitialValueInEffect: false });
  // The phone's position is asked for only when the person asks (Show my position, or choosing
  // Nearest first), never on opening the page: so it is not remembered either.
  const [position, setPosition] = useState<Position | null>(null);
  const [distances, setDistances] = useState<Distances | null>(null);
  const [locating, setLocating] = useState(false);
  const [locError, setLocError] = useState<string | null>(null);
  const [nearest, setNearest] = useState(false);
  const locate = async (): Promise<Position | null> => {
    setLocating(true);
    setLocError(null);
    try {
      const [{ currentPosition }, d] = await loadNearby();
      setDistances(d);
      const p = await currentPosition();
      setPosition(p);
      return p;
    } catch (err) {
      setLocError((err as Error).message);
      return null;
    } finally {
      setLocating(false);
    }
  };
  const onNearest = (on: boolean) => {
    setShown(PAGE);
    if (!on) return setNearest(false);
    setNearest(true);
    // A fresh fix each time it is chosen: the crew has likely moved since the last one.
    void locate().then((p) => !p && setNearest(false));
  };
  const today = localIsoDay();
  const groups = useMemo(() => groupWork(work.data?.tickets ?? [], search, today), [work.data, search, today]);
  // The tickets the search leaves, in work order: what the map and Nearest first start from.
  const matching = useMemo(() => groups.flatMap((g) => g.tickets), [groups]);
  const byNearest = useMemo(
    () =>
      nearest && position && distances
        ? distances.byDistance(matching, position).map(({ row, meters }) => ({ row, away: meters === null ? 'No location' : `${distances.formatDistance(meters)} away` }))
        : null,
    [nearest, position, distances, matching],
  );
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
  // Open tickets of mine the server has not sent (docs/product/scale.md §5): the list holds the first ones in work order.
  const notLoaded = work.data ? Math.max(0, work.data.total - work.data.tickets.length) : 0;
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
        <Spinner label="Loading my work" />
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

  const card = (t: WorkItem, away?: string) => <WorkCard key={t.id} t={t} today={today} waiting={waitingByTicket.get(t.id) ?? 0} onOpen={open} away={away} />;
  // The list: by distance (one section) in Nearest first, else by job; the first `shown` cards.
  let budget = shown;
  const list = byNearest ? (
    <Stack gap="xs" component="section" aria-label="My tickets, nearest first">
      {byNearest.slice(0, shown).map(({ row, away }) => card(row, away))}
    </Stack>
  ) : (
    groups.map((g) => {
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
          {tickets.map((t) => card(t))}
        </Stack>
      );
    })
  );
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
        // A native select, like PhoneSortPicker: the phone's own picker, and no popover library
        // (floating-ui, Combobox: ~12 KB gzip) in My Work's first load.
        <NativeSelect
          label="Foreman"
          size="md"
          data={[{ value: 'all', label: 'All foremen' }, ...(foremen.data ?? []).map((f) => ({ value: String(f.id), label: fullName(f.first_name, f.last_name) }))]}
          value={foremanId == null ? 'all' : String(foremanId)}
          onChange={(e) => {
            setAsked(WORK_LIMIT);
            setForemanId(e.currentTarget.value !== 'all' ? Number(e.currentTarget.value) : null);
          }}
        />
      )}
      <TextInput
        type="search"
        label="Search my tickets"
        placeholder="Pole, line, street, work order or unit"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setShown(PAGE);
        }}
        size="md"
      />
      <Group gap="sm" wrap="wrap" align="center">
        <ChoiceButtons label="Show my tickets as" options={VIEWS} value={view} onChange={setView} />
        {view === 'list' ? (
          <ChoiceButtons label="Order my tickets" options={ORDERS} value={nearest ? 'nearest' : 'due'} onChange={(v) => onNearest(v === 'nearest')} busy={locating} />
        ) : (
          <Button variant="default" leftSection={<IconCurrentLocation size={18} />} onClick={() => void locate()} loading={locating}>
            Show my position
          </Button>
        )}
      </Group>
      {locError && (
        <Alert color="red" role="alert" withCloseButton closeButtonLabel="Dismiss" onClose={() => setLocError(null)}>
          {locError}
        </Alert>
      )}
      {total === 0 && (
        <Text>{search ? 'No open ticket matches your search.' : 'Nothing open for you right now. Tickets of your jobs show here until they are complete.'}</Text>
      )}
      {view === 'map' ? <MapView rows={matching} position={position} label="Map of my open tickets" fitLabel="Fit to my tickets" onOpen={open} /> : list}
      {view === 'list' && total > shown && (
        <Button variant="default" onClick={() => setShown((n) => n + PAGE)}>
          Show more ({total - shown} more)
        </Button>
      )}
      {notLoaded > 0 && (
        <Stack gap={4} align="flex-start">
          <Text size="sm" c="dimmed">
            {plural(notLoaded, 'more open ticket')} due later {notLoaded === 1 ? 'is' : 'are'} not on this list yet.
          </Text>
          {asked < WORK_LIMIT_MAX && (
            <Button variant="default" onClick={() => setAsked((n) => Math.min(WORK_LIMIT_MAX, n + WORK_LIMIT))} loading={work.isFetching && work.isPlaceholderData} disabled={!online}>
              Load {Math.min(notLoaded, WORK_LIMIT, WORK_LIMIT_MAX - asked)} more
            </Button>
          )}
        </Stack>
      )}
      <NeedsPhotos tickets={work.data?.needs_photos ?? []} required={work.data?.evidence_photos_required ?? 0} />
    </Stack>
    </Container>
  );
}

/**
 * Completed tickets still short of the photos required as evidence (docs/product/records.md §8):
 * the crew can still add them at the pole. Absent in copies kept before the reply carried them.
 */
function NeedsPhotos({ tickets, required }: { tickets: readonly WorkItem[]; required: number }) {
  if (tickets.length === 0) return null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="needs-photos">
      <Title order={2} size="h4" id="needs-photos">
        Completed, photos needed ({tickets.length})
      </Title>
      {tickets.map((t) => (
        <Anchor key={t.id} component={Link} to={`/work/${t.id}`} py={6} data-testid="needs-photos-ticket">
          Pole {t.pole_name ?? '--'} · Line {t.line_name ?? '--'} · {t.job_number}: {t.evidence_photo_count} of {required} photos at the pole
        </Anchor>
      ))}
    </Stack>
  );
}
