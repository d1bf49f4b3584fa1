import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Container,
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCamera, IconMapPin, IconMinus, IconPlus } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { Spinner } from '../../components/Spinner';
import { LIMITS, TICKET_STATUS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { isoToUs } from '../../../shared/dates';
import { formatGeo } from '../../../shared/geo';
import { can } from '../../../shared/permissions';
import { actualQty } from '../../../shared/tasks';
import type { Ticket } from '../../../shared/tickets.schemas';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { useTicket } from '../../api/ticket';
import { usePageTitle } from '../../components/usePageTitle';
import { CopyNote } from '../../offline/CopyNote';
import { useOutbox } from '../../offline/OfflineSync';
import { outbox } from '../../offline/outbox';
import { ConflictDialog, TaskConflict } from '../../offline/ConflictDialog';
import { PHOTOS_FULL } from '../../offline/held';
import { isHeld } from '../../offline/outboxStatus';
import { photoRoom, tasksInConflict, withQueued, type NoteChange, type OutboxEntry, type PhotoChange, type TicketChange } from '../../offline/outboxLogic';
import { preparePhoto } from '../../offline/photo';
import { isOverdue, localIsoDay } from '../../../shared/ticket-state';
import { companyDay } from '../../api/session';
import { NotClearToDig, RecordExpiry } from '../../components/DigSafe';
import { confirmCompleteDig } from '../../components/confirmCompleteDig';
import { useJobHeader } from './api/jobHeader';
import { CompletionRecord, PhotoChecks } from '../../components/Evidence';
import { positionAtTap } from '../../components/geolocation';
import type { CompletionPosition } from '../../../shared/evidence';
import { BeforeYouClimb } from './BeforeYouClimb';
import { WorkTicketHistory } from './WorkTicketHistory';
import { DeletedBanner, HeldNotes, HeldPhotos, PhonePhoto } from './HeldOnPhone';


const labelOf = (t: Pick<Ticket, 'pole_name' | 'line_name'>) => `Pole ${t.pole_name ?? '--'} · Line ${t.line_name ?? '--'}`;

/** A deleted ticket of which the phone keeps no copy: its name, the banner, and what I made for it. */
function DeletedWithoutCopy({ label, held }: { label: string; held: readonly OutboxEntry[] }) {
  const notes = held.filter((e): e is NoteChange => e.kind === 'note' && isHeld(e));
  const photos = held.filter((e): e is PhotoChange => e.kind === 'photo' && isHeld(e));
  return (
    <Container size="sm" py="md" px="sm">
      <Stack gap="md">
        <Anchor component={Link} to="/work" py={8}>
          <IconArrowLeft size={16} aria-hidden style={{ verticalAlign: -3 }} /> My Work
        </Anchor>
        <Title order={1} size="h3">
          {label}
        </Title>
        <DeletedBanner held={[...notes, ...photos]} />
        <HeldPhotos photos={photos} deleted ticketImages={[]} mayReplace={false} />
        <HeldNotes notes={notes} />
      </Stack>
    </Container>
  );
}

/**
 * The phone-first ticket view of My Work (docs/product/field-mode.md §2): big targets at 390 px, and every change
 * goes through the outbox, so it is kept on the phone first and sent when there is a network.
 * What the screen shows is the server's copy with the queued changes on top.
 */
export default function WorkTicketPage() {
  const id = Number(useParams().ticketId);
  const query = useTicket(Number.isInteger(id) && id > 0 ? id : null);
  const { entries, online } = useOutbox();
  const { claims } = useSession();
  const header = useJobHeader(query.data?.job_id ?? null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [locating, setLocating] = useState(false);
  const [resolving, setResolving] = useState<TicketChange | null>(null);
  const server = query.data;
  const shown = useMemo(() => (server ? withQueued(server, entries) : null), [server, entries]);
  const conflicts = useMemo(() => (server ? tasksInConflict(entries, server.id) : new Map()), [server, entries]);
  usePageTitle(shown ? labelOf(shown) : 'Ticket');

  const notFound = query.error instanceof ApiError && query.error.status === 404;
  const mine = entries.filter((e) => e.ticketId === id);
  // Deleted in the office: a send of mine was answered 404, or reading it afresh was.
  const deleted = mine.some((e) => e.state === 'gone') || notFound;

  if (!server || !shown) {
    // Deleted, and its copy went with it (it was open when the office deleted it): what I made is still here.
    if (deleted && mine.length > 0) return <DeletedWithoutCopy label={mine[0].label} held={mine} />;
    if (query.isPending && !query.isPaused) {
      return (
        <Center py="xl">
          <Spinner label="Loading the ticket" />
        </Center>
      );
    }
    return (
      <Container size="sm" py="md" px="sm">
      <Stack>
        <Anchor component={Link} to="/work">
          <IconArrowLeft size={16} aria-hidden style={{ verticalAlign: -3 }} /> My Work
        </Anchor>
        <Alert color={query.isPaused ? 'yellow' : 'red'} title={query.isPaused ? 'This ticket is not on this device' : 'This ticket could not be loaded'}>
          {query.isPaused ? 'Open it once with a connection; after that it opens without one.' : (query.error?.message ?? 'It may have been deleted.')}
        </Alert>
      </Stack>
      </Container>
    );
  }

  const roleId = claims?.roleId;
  const mayEdit = can(roleId, 'tickets.edit') && !deleted;
  const mayAnnotate = can(roleId, 'tickets.annotate') && !deleted;
  // Deleting a ticket's photo is the same right as adding one (DELETE /tickets/images/{id}).
  const mayReplace = can(roleId, 'tickets.annotate') && !deleted;
  const complete = shown.status === TICKET_STATUS.COMPLETE;
  const base = { userId: claims!.userId, ticketId: server.id, jobId: server.job_id, label: labelOf(server), baseVersion: server.version };
  const photos = photoRoom(shown.images.length, shown.queuedPhotos);
  // What will not reach the ticket, kept here to save (or to swap for one of the ticket's photos).
  const heldPhotos = [...shown.heldPhotos, ...photos.over];

  // A tap is a step from the number shown (`seen`): another tab's tap not shown here yet still counts.
  const setQty = (taskId: number, seen: number, next: number) => {
    const task = server.tasks.find((t) => t.ticket_task_id === taskId)!;
    void outbox.add({ ...base, kind: 'ticket', set: {}, base: {}, taskQty: { [taskId]: { mine: next, base: task.additional_qty, init: task.init_qty, seen } } });
  };
  const setStatus = (status: Ticket['status'], position?: CompletionPosition) =>
    void outbox.add({ ...base, kind: 'ticket', set: { status }, base: { status: server.status }, taskQty: {}, ...(position ? { position } : {}) });
  const addNote = async () => {
    const text = note.trim();
    if (!text) return;
    await outbox.add({ ...base, kind: 'note', text });
    setNote('');
  };
  const addPhoto = async (file: File | null) => {
    if (!file) return;
    // A camera opened before the ticket filled up still hands its photo over: it is kept, never dropped.
    const full = photos.full;
    setBusy(true);
    try {
      const p = await preparePhoto(file);
      const photo = { ...base, kind: 'photo' as const, blob: p.blob, fileName: p.fileName, takenAt: p.takenAt, lat: p.lat, lon: p.lon };
      if (full) {
        await outbox.add(photo, { code: ERROR_CODE.ticketPhotosFull, error: PHOTOS_FULL });
        notifications.show({ color: 'orange', message: `${PHOTOS_FULL} Your photo is kept on this phone: save it, or replace one of the ticket's photos with it.` });
      } else await outbox.add(photo);
    } finally {
      setBusy(false);
    }
  };

  const located = shown.geo_lat != null && shown.geo_lon != null;
  const overdue = isOverdue(shown, localIsoDay());
  // Clear to dig and the papers' expiry from this copy on the company's day: the same offline (docs/product/records.md §5).
  const digDay = companyDay();
  // Where the crew is at the tap goes with the queued change (docs/product/records.md §6); no fix, no wait.
  const markComplete = async () => {
    if (!(await confirmCompleteDig(shown, digDay))) return;
    setLocating(true);
    const at = await positionAtTap();
    setLocating(false);
    setStatus(TICKET_STATUS.COMPLETE, at ? { completed_lat: at.lat, completed_lon: at.lon, completed_accuracy_m: at.accuracy } : undefined);
  };
  return (
    <Container size="sm" py="md" px="sm">
      <Stack gap="md">
      <Anchor component={Link} to="/work" py={8}>
        <IconArrowLeft size={16} aria-hidden style={{ verticalAlign: -3 }} /> My Work
      </Anchor>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={1} size="h3">
            {labelOf(shown)}
          </Title>
          {/* A deleted ticket is neither Pending nor Complete any more. */}
          <Badge size="lg" color={deleted ? 'orange' : complete ? 'green' : 'gray'} variant={complete && !deleted ? 'filled' : 'light'} style={{ flex: 'none' }}>
            {deleted ? 'Deleted' : shown.status}
          </Badge>
        </Group>
        <Text>{shown.street_address || 'No address'}</Text>
        <Text size="sm" c={overdue ? 'red.9' : undefined} fw={overdue ? 700 : undefined}>
          {shown.due_date ? `Due ${isoToUs(shown.due_date)}${overdue ? ' · Overdue' : ''}` : 'No due date'}
        </Text>
        {located ? (
          <Anchor href={`geo:${shown.geo_lat},${shown.geo_lon}`} py={6}>
            <IconMapPin size={16} aria-hidden style={{ verticalAlign: -3 }} /> Open in maps ({formatGeo(shown.geo_lat)}, {formatGeo(shown.geo_lon)})
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            No location on this ticket
          </Text>
        )}
        {complete && !deleted && <CompletionRecord ticket={shown} />}
        <CopyNote updatedAt={query.dataUpdatedAt} unreachable={query.isError} />
      </Stack>

      {!complete && !deleted && (
        <>
          <NotClearToDig ticket={shown} today={digDay} />
          <Group gap={6}>
            <RecordExpiry expiresOn={shown.dig_safe_expires_on} today={digDay} what="Dig safe" />
            {shown.permits.map((p, i) => (
              <RecordExpiry key={p.id} expiresOn={p.expires_on} today={digDay} what={p.permit_type_title ? `Permit ${p.permit_type_title}` : `Permit ${i + 1}`} />
            ))}
          </Group>
        </>
      )}

      {deleted && <DeletedBanner held={[...shown.heldNotes, ...shown.heldPhotos]} />}
      {!deleted && <BeforeYouClimb ticket={shown} header={header.data} userId={claims!.userId} online={online} />}

      <Stack gap="xs" component="section" aria-labelledby="work-tasks">
        <Title order={2} size="h4" id="work-tasks">
          Tasks
        </Title>
        {shown.tasks.length === 0 && <Text c="dimmed">No tasks on this ticket.</Text>}
        {shown.tasks.map((t) => {
          const actual = actualQty(t.init_qty, t.additional_qty);
          const conflict = conflicts.get(t.ticket_task_id);
          return (
            <Paper key={t.ticket_task_id} withBorder p="sm" role="group" aria-label={t.code} bd={conflict ? '2px solid var(--mantine-color-orange-6)' : undefined}>
              <Group justify="space-between" wrap="nowrap">
                <div style={{ minWidth: 0 }}>
                  <Text fw={600}>{t.code}</Text>
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {t.description} · bid {t.init_qty} {t.uom}
                  </Text>
                </div>
                {mayEdit ? (
                  <Group gap={6} wrap="nowrap" style={{ flex: 'none' }}>
                    <ActionIcon
                      size={44}
                      variant="default"
                      aria-label={`One less ${t.code}`}
                      disabled={actual <= 0}
                      onClick={() => setQty(t.ticket_task_id, t.additional_qty, t.additional_qty - 1)}
                    >
                      <IconMinus size={20} />
                    </ActionIcon>
                    {/* A paragraph may not carry a name (axe: aria-prohibited-attr): the words are hidden text,
                        read whole at each new count. */}
                    <Text fw={700} w={40} ta="center" aria-live="polite" aria-atomic="true">
                      <VisuallyHidden>Actual quantity of {t.code}: </VisuallyHidden>
                      {actual}
                    </Text>
                    <ActionIcon size={44} variant="default" aria-label={`One more ${t.code}`} onClick={() => setQty(t.ticket_task_id, t.additional_qty, t.additional_qty + 1)}>
                      <IconPlus size={20} />
                    </ActionIcon>
                  </Group>
                ) : (
                  <Text fw={700} style={{ flex: 'none' }}>
                    Actual {actual}
                  </Text>
                )}
              </Group>
              {conflict && <TaskConflict row={conflict.row} onChoose={() => setResolving(conflict.entry)} />}
            </Paper>
          );
        })}
        {mayEdit &&
          (complete ? (
            <Button size="lg" variant="default" onClick={() => setStatus(TICKET_STATUS.PENDING)}>
              Reopen
            </Button>
          ) : (
            <Button size="lg" color="green" onClick={() => void markComplete()} loading={locating}>
              Mark complete
            </Button>
          ))}
      </Stack>

      <Stack gap="xs" component="section" aria-labelledby="work-photos">
        <Title order={2} size="h4" id="work-photos">
          Photos ({photos.count} of {LIMITS.imagesPerTicket})
        </Title>
        <SimpleGrid cols={3} spacing="xs">
          {shown.images.map((img) => (
            <div key={img.id}>
              <Image src={img.thumbnailurl || img.url} alt={`Photo of ${labelOf(shown)}`} h={96} fit="cover" radius="sm" />
              <PhotoChecks image={img} />
            </div>
          ))}
          {photos.fitting.map((p) => (
            <PhonePhoto key={p.id} photo={p} caption="Waiting to sync" />
          ))}
        </SimpleGrid>
        <HeldPhotos photos={heldPhotos} deleted={deleted} ticketImages={shown.images} mayReplace={mayReplace} />
        {mayAnnotate && (
          <>
            <FileButton onChange={(f) => void addPhoto(f)} accept="image/*" capture="environment">
              {(props) => (
                <Button
                  {...props}
                  size="lg"
                  variant="light"
                  leftSection={<IconCamera size={20} aria-hidden />}
                  loading={busy}
                  disabled={photos.full}
                  aria-describedby={photos.full ? 'photo-limit' : undefined}
                >
                  Take photo
                </Button>
              )}
            </FileButton>
            {photos.full && (
              <Text size="sm" id="photo-limit">
                This ticket has {LIMITS.imagesPerTicket} photos, the most it can hold.
              </Text>
            )}
          </>
        )}
      </Stack>

      <Stack gap="xs" component="section" aria-labelledby="work-notes">
        <Title order={2} size="h4" id="work-notes">
          Notes
        </Title>
        {shown.notes.length === 0 && shown.queuedNotes.length === 0 && shown.heldNotes.length === 0 && <Text c="dimmed">No notes yet.</Text>}
        {shown.notes.map((n) => (
          <Paper key={n.id} withBorder p="sm">
            <Text size="xs" c="dimmed">
              {n.author || 'Former member'} · {isoToUs(n.created_date)}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{n.note_text}</Text>
          </Paper>
        ))}
        {shown.queuedNotes.map((text, i) => (
          <Paper key={`q${i}`} withBorder p="sm" bg="blue.0">
            <Text size="xs" c="dimmed">
              Me · waiting to sync
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{text}</Text>
          </Paper>
        ))}
        <HeldNotes notes={shown.heldNotes} />
        {mayAnnotate && (
          <>
            <Textarea label="New note" value={note} onChange={(e) => setNote(e.currentTarget.value)} autosize minRows={2} maxLength={LIMITS.textMax} size="md" />
            <Button size="lg" variant="light" disabled={!note.trim()} onClick={() => void addNote()}>
              Add note
            </Button>
          </>
        )}
      </Stack>
      {!deleted && <WorkTicketHistory ticketId={server.id} />}
    </Stack>
    {resolving && <ConflictDialog entry={resolving} onClose={() => setResolving(null)} />}
    </Container>
  );
}
