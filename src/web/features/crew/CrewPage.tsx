import { useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Alert, Badge, Button, Center, Container, Group, Loader, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconSortAscending, IconSortDescending, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { CREW_STATUS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import {
  CREW_SORT_COLUMNS,
  CREW_SORT_DEFAULT,
  CREW_SORT_STORAGE,
  CREW_STATUS_FILTERS,
  DEFAULT_CREW_STATUS_FILTER,
  foremanName,
  visibleCrew,
  type CrewSortColumn,
  type CrewStatusFilter,
} from '../../../shared/crew.list';
import type { CrewMember, CrewSaveReply } from '../../../shared/crew.schemas';
import { fullName } from '../../../shared/names';
import { formatLongDate2Day } from '../../../shared/dates';
import { can } from '../../../shared/permissions';
import { useSession } from '../../api/session';
import { SortableTh } from '../../components/SortableTh';
import { usePageTitle } from '../../components/usePageTitle';
import { useSearchDelay } from '../../components/useSearchDelay';
import { useStoredSort } from '../../components/useStoredSort';
import { useAllCrew } from './api/allCrew';
import { useResendInvitation } from './api/resendInvitation';
import { CrewModal } from './CrewModal';

const COLUMNS: { column: CrewSortColumn; label: string }[] = [
  { column: 'first_name', label: 'Name' },
  { column: 'display_role_name', label: 'Role' },
  { column: 'foreman', label: 'Crew' },
  { column: 'phone_number', label: 'Cell #' },
  { column: 'email', label: 'Email' },
  { column: 'status_name', label: 'Status' },
  { column: 'date_created', label: 'Date Added' },
];

type ModalState = { mode: 'closed' } | { mode: 'add' } | { mode: 'edit'; member: CrewMember };

/**
 * The crew roster (SPEC §2 Crew). A role that may not view crew (DESIGN §4) is told whom the page
 * is for, with a way back, rather than shown a blank page.
 */
export default function CrewPage() {
  const { claims } = useSession();
  const roleId = claims?.roleId;
  usePageTitle('Crew');
  if (!can(roleId, 'crew.view')) {
    return (
      <Container size="sm" py="xl">
        <Alert color="blue" title="The crew roster is for the office" role="status">
          <Stack gap="sm" align="flex-start">
            <Text size="sm">This page is for Admins, Office Managers and Foremen. Your foreman or the office can change crew details for you.</Text>
            <Group gap="sm">
              <Button component={Link} to="/jobs">
                Back to the job list
              </Button>
              <Button component={Link} to="/user" variant="default">
                My account
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Container>
    );
  }
  return <CrewRoster canWrite={can(roleId, 'crew.write')} currentUserId={claims?.userId} currentRoleId={roleId} />;
}

function CrewRoster({ canWrite, currentUserId, currentRoleId }: { canWrite: boolean; currentUserId: number | undefined; currentRoleId: number | undefined }) {
  const crew = useAllCrew();
  const [status, setStatus] = useState<CrewStatusFilter>(DEFAULT_CREW_STATUS_FILTER);
  const [searchText, setSearchText] = useState('');
  const search = useSearchDelay(searchText);
  const [sort, toggleSort] = useStoredSort(CREW_SORT_STORAGE, CREW_SORT_DEFAULT, CREW_SORT_COLUMNS);
  const [modal, setModal] = useState<ModalState>({ mode: 'closed' });
  const resend = useResendInvitation();
  // On a phone the seven columns become one card per member, with the sort as a picker.
  const phone = useMediaQuery('(max-width: 48em)');

  const rows = useMemo(
    () => visibleCrew(crew.data ?? [], { status, search, column: sort.column, direction: sort.direction }),
    [crew.data, status, search, sort.column, sort.direction],
  );

  const emptyText = search || status !== 'All' ? 'No crew members match.' : 'No crew members yet.';

  function open(member: CrewMember) {
    if (canWrite) setModal({ mode: 'edit', member });
  }
  function onRowKey(e: KeyboardEvent, member: CrewMember) {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      open(member);
    }
  }
  /** The roster's Resend invitation. */
  async function onResend(member: CrewMember) {
    const name = fullName(member.first_name, member.last_name);
    try {
      const reply = await resend.mutateAsync(member.id);
      notifications.show({ color: 'green', message: `${name}: ${reply.message}` });
    } catch (err) {
      notifications.show({ color: 'red', title: `The invitation to ${name} was not sent`, message: err instanceof Error ? err.message : MSG.generic });
    }
  }
  const invite = (m: CrewMember) => (
    <InviteStatus member={m} canWrite={canWrite} sending={resend.isPending && resend.variables === m.id} onResend={() => void onResend(m)} />
  );

  function onSaved(reply: CrewSaveReply, added: boolean) {
    const name = fullName(reply.crew.first_name, reply.crew.last_name);
    if (reply.message) {
      notifications.show({ color: 'yellow', title: `${name} saved`, message: reply.message, autoClose: 10_000 });
    } else {
      notifications.show({
        color: 'green',
        message: added && reply.invited ? `${name} was added and emailed a link to set their password.` : `${name} was saved.`,
      });
    }
  }

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Title order={2}>Crew</Title>
          {canWrite && (
            <Button leftSection={<IconUserPlus size={18} />} onClick={() => setModal({ mode: 'add' })}>
              Add User
            </Button>
          )}
        </Group>

        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label="Status filter"
            data={CREW_STATUS_FILTERS.map((s) => ({ value: s, label: s }))}
            value={status}
            onChange={(v) => setStatus(v as CrewStatusFilter)}
          />
          <TextInput
            aria-label="Search crew"
            placeholder="Search"
            leftSection={<IconSearch size={16} />}
            value={searchText}
            onChange={(e) => setSearchText(e.currentTarget.value)}
            maxLength={100}
            style={{ flex: '1 1 220px', maxWidth: 360 }}
          />
        </Group>

        {crew.isLoading ? (
          <Center py="xl">
            <Loader aria-label="Loading crew" />
          </Center>
        ) : crew.isError ? (
          <Alert color="red" role="alert" title="The crew could not be loaded">
            {crew.error.message}
          </Alert>
        ) : phone ? (
          <CrewCards rows={rows} canWrite={canWrite} onOpen={open} sort={sort} onSort={toggleSort} emptyText={emptyText} invite={invite} />
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table striped highlightOnHover={canWrite} verticalSpacing="sm" aria-label="Crew">
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
                {rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={COLUMNS.length}>
                      <Text c="dimmed" ta="center" py="md">
                        {emptyText}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  rows.map((m) => (
                    <Table.Tr
                      key={m.id}
                      onClick={() => open(m)}
                      onKeyDown={(e) => onRowKey(e, m)}
                      tabIndex={canWrite ? 0 : undefined}
                      style={canWrite ? { cursor: 'pointer' } : undefined}
                      aria-label={canWrite ? `Edit ${fullName(m.first_name, m.last_name)}` : undefined}
                    >
                      <Table.Td>{fullName(m.first_name, m.last_name)}</Table.Td>
                      <Table.Td>{m.display_role_name}</Table.Td>
                      <Table.Td>{foremanName(m) || '--'}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{m.phone_number || '--'}</Table.Td>
                      <Table.Td>{m.email}</Table.Td>
                      <Table.Td>
                        <Group gap={6} wrap="nowrap">
                          <Badge variant="light" color={m.crew_status === CREW_STATUS.ACTIVE ? 'green' : 'gray'}>
                            {m.status_name}
                          </Badge>
                          {invite(m)}
                        </Group>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLongDate2Day(m.date_created)}</Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>

      {modal.mode !== 'closed' && (
        <CrewModal
          key={modal.mode === 'edit' ? modal.member.id : 'new'}
          member={modal.mode === 'edit' ? modal.member : null}
          currentUserId={currentUserId}
          currentRoleId={currentRoleId}
          onClose={() => setModal({ mode: 'closed' })}
          onSaved={onSaved}
        />
      )}
    </Container>
  );
}

function CrewCards({
  rows,
  canWrite,
  onOpen,
  sort,
  onSort,
  emptyText,
  invite,
}: {
  rows: CrewMember[];
  canWrite: boolean;
  onOpen: (m: CrewMember) => void;
  sort: { column: CrewSortColumn; direction: 'asc' | 'desc' };
  onSort: (column: CrewSortColumn) => void;
  emptyText: string;
  invite: (m: CrewMember) => ReactNode;
}) {
  return (
    <Stack gap="xs">
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <Select
          label="Sort by"
          data={COLUMNS.map((c) => ({ value: c.column, label: c.label }))}
          value={sort.column}
          onChange={(v) => v && v !== sort.column && onSort(v as CrewSortColumn)}
          allowDeselect={false}
          style={{ flex: 1 }}
        />
        <ActionIcon
          variant="default"
          size="input-sm"
          onClick={() => onSort(sort.column)}
          aria-label={sort.direction === 'asc' ? 'Sorted ascending; sort descending' : 'Sorted descending; sort ascending'}
        >
          {sort.direction === 'asc' ? <IconSortAscending size={18} /> : <IconSortDescending size={18} />}
        </ActionIcon>
      </Group>
      {rows.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          {emptyText}
        </Text>
      )}
      {rows.map((m) => {
        const name = fullName(m.first_name, m.last_name);
        const body = (
          <Paper withBorder p="sm" radius="md">
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={600}>{name}</Text>
              <Badge variant="light" color={m.crew_status === CREW_STATUS.ACTIVE ? 'green' : 'gray'}>
                {m.status_name}
              </Badge>
            </Group>
            <Text size="sm">
              {m.display_role_name}
              {foremanName(m) ? ` · Crew: ${foremanName(m)}` : ''}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {[m.phone_number, m.email].filter(Boolean).join(' · ')}
            </Text>
            <Text size="xs" c="dimmed">
              Added {formatLongDate2Day(m.date_created)}
            </Text>
          </Paper>
        );
        return canWrite ? (
          <Stack key={m.id} gap={4}>
            {/* Named by its visible text (WCAG 2.5.3 Label in Name), which starts with the person's name. */}
            <UnstyledButton onClick={() => onOpen(m)}>{body}</UnstyledButton>
            {/* Beside the card, not in it: a button inside a button is neither valid nor reachable. */}
            {invite(m)}
          </Stack>
        ) : (
          <div key={m.id}>{body}</div>
        );
      })}
    </Stack>
  );
}

/**
 * "Invited" while the member has not set a password yet, and for the office a Resend invitation
 * button (a new 7-day link). Clicks stay here: the row itself opens the Edit User modal.
 */
function InviteStatus({ member, canWrite, sending, onResend }: { member: CrewMember; canWrite: boolean; sending: boolean; onResend: () => void }) {
  if (!member.invitation_pending || member.crew_status !== CREW_STATUS.ACTIVE) return null;
  return (
    <Group gap={6} wrap="nowrap" onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
      <Badge variant="outline" color="orange">
        Invited
      </Badge>
      {canWrite && (
        <Button size="compact-xs" variant="subtle" loading={sending} onClick={onResend} aria-label={`Resend invitation to ${fullName(member.first_name, member.last_name)}`}>
          Resend invitation
        </Button>
      )}
    </Group>
  );
}
