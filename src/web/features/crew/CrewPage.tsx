import { useMemo, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Container, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserPlus } from '@tabler/icons-react';
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
import { ListPage } from '../../components/ListPage';
import { LoadState } from '../../components/LoadState';
import { SortableList } from '../../components/SortableList';
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
 * The crew roster (docs/product/screens.md §7 Crew). A role that may not view crew (docs/product/roles-and-statuses.md §2) is told whom the page
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

  const statusBadge = (m: CrewMember) => (
    <Badge variant="light" color={m.crew_status === CREW_STATUS.ACTIVE ? 'green' : 'gray'}>
      {m.status_name}
    </Badge>
  );

  return (
    <>
      <ListPage
        title="Crew"
        action={
          canWrite && (
            <Button leftSection={<IconUserPlus size={18} />} onClick={() => setModal({ mode: 'add' })}>
              Add User
            </Button>
          )
        }
        statuses={CREW_STATUS_FILTERS}
        status={status}
        onStatus={setStatus}
        searchLabel="Search crew"
        search={searchText}
        onSearch={setSearchText}
      >
        <LoadState query={crew} loading="Loading crew" failed="The crew could not be loaded">
          <SortableList
            label="Crew"
            minWidth={860}
            columns={COLUMNS}
            sort={sort}
            onSort={toggleSort}
            rows={rows}
            empty={emptyText}
            highlightOnHover={canWrite}
            row={(m) => (
              <Table.Tr
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
                    {statusBadge(m)}
                    {invite(m)}
                  </Group>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatLongDate2Day(m.date_created)}</Table.Td>
              </Table.Tr>
            )}
            card={(m) => {
              const body = (
                <Paper withBorder p="sm" radius="md">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fw={600}>{fullName(m.first_name, m.last_name)}</Text>
                    {statusBadge(m)}
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
                <Stack gap={4}>
                  {/* Named by its visible text (WCAG 2.5.3 Label in Name), which starts with the person's name. */}
                  <UnstyledButton onClick={() => open(m)}>{body}</UnstyledButton>
                  {/* Beside the card, not in it: a button inside a button is neither valid nor reachable. */}
                  {invite(m)}
                </Stack>
              ) : (
                body
              );
            }}
          />
        </LoadState>
      </ListPage>

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
    </>
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
      <Badge variant="light" color="orange">
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
