import { useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { Alert, Anchor, Badge, Button, Center, Group, Loader, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { confirmDialog, confirmDiscard } from '../../components/confirm';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { IconEye, IconInfoCircle, IconListCheck, IconMapPin, IconTrash } from '@tabler/icons-react';
import type { Job } from '../../../shared/jobs.schemas';
import { MSG } from '../../../shared/messages';
import { can } from '../../../shared/permissions';
import { addPoleMissing } from '../../../shared/poles.schemas';
import type { Pole, Ticket } from '../../../shared/tickets.schemas';
import { ApiError } from '../../api/client';
import { useSession } from '../../api/session';
import { useDeleteTicket } from './api/deleteTicket';
import { useMergeTickets } from './api/mergeTickets';
import { getNeedsMerge } from './api/needsMerge';
import { useAddPole } from './api/addPole';
import { useSavePole } from './api/savePole';
import { useSaveTicket } from './api/saveTicket';
import { ticketQuery, useTicket } from './api/ticket';
import { ImagesPanel } from './ImagesPanel';
import { InfoTab } from './InfoTab';
import { PoleTab } from './PoleTab';
import { TasksTab } from './TasksTab';
import { canSave, emptyDraft, hasChosenPole, isDirty, samePole, toDraft, toSaveBody, type DraftPole, type TicketDraft } from './ticketDraft';
import { ticketParam } from './ticketUrl';

/** Which ticket the window shows: id null = Create Ticket; justCreated = just made by adding a pole. */
export interface WindowTarget {
  id: number | null;
  justCreated?: boolean;
}

// Typing one of these unselects the pole (SPEC §4): the ticket would otherwise point at a pole
// whose name no longer matches what the person sees.
const IDENTITY_FIELDS = ['pole_name', 'line_name', 'sub_curcuit', 'sap_curcuit'] as const;

/**
 * The ticket window (SPEC §2 Ticket modal, §4 Ticket window): Create Ticket / Edit Ticket with the
 * tabs Pole, Info and Tasks. Keeps a working copy of the ticket, tells when it is dirty, asks
 * before closing with changes, and saves with the version it read; a 409 offers a reload while
 * the person's edits stay on screen.
 */
export function TicketWindow({
  job,
  target,
  onOpenTicket: openTicket,
  onClose: close,
}: {
  job: Job;
  target: WindowTarget;
  /** Replaces the open ticket (its address too). */
  onOpenTicket: (t: WindowTarget) => void;
  /** Closes the window (its address too). */
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const qc = useQueryClient();
  const { claims, user } = useSession();
  const canWrite = can(claims?.roleId, 'tickets.write');
  const canEdit = can(claims?.roleId, 'tickets.edit');
  const canAnnotate = can(claims?.roleId, 'tickets.annotate');

  const [ticketId, setTicketId] = useState<number | null>(target.id);
  const server = useTicket(ticketId);
  const [draft, setDraft] = useState<TicketDraft | null>(() => (target.id == null ? emptyDraft(job) : null));
  const [original, setOriginal] = useState<TicketDraft | null>(() => (target.id == null ? emptyDraft(job) : null));
  const [basePole, setBasePole] = useState<DraftPole | null>(null);
  const [justCreated, setJustCreated] = useState(Boolean(target.justCreated));
  const [tab, setTab] = useState<string | null>('home');
  const [needsMerge, setNeedsMerge] = useState<number[] | null>(null);
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [addPoleError, setAddPoleError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);
  const [viewerOpen, setViewerOpen] = useState(false);

  // The window's own moves (Close after asking, delete, merge, a new ticket) change the address
  // and must not be asked about again; Back and other moves away are.
  const leaving = useRef(false);
  const onClose = () => {
    leaving.current = true;
    close();
  };
  const onOpenTicket = (t: WindowTarget) => {
    leaving.current = true;
    openTicket(t);
  };

  const save = useSaveTicket();
  const del = useDeleteTicket();
  const merge = useMergeTickets();
  const addPole = useAddPole();
  const savePole = useSavePole(job.id);

  const load = (t: Ticket) => {
    const d = toDraft(t);
    setDraft(d);
    setOriginal(toDraft(t));
    setBasePole(d.pole ? { ...d.pole } : null);
  };
  // First load of an existing ticket: start the working copy from the server's.
  // A link naming a ticket of another job (or a job the link was not made for) opens nothing.
  const foreign = server.data != null && server.data.job_id !== job.id;
  if (draft === null && server.data && !foreign) load(server.data);

  const dirty = draft && original ? isDirty(draft, original) : false;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname || ticketParam(new URLSearchParams(currentLocation.search)) !== ticketParam(new URLSearchParams(nextLocation.search))),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // Staying (the button, Escape or a click outside) keeps the address on the ticket.
    void confirmDiscard().then((discard) => {
      if (!discard) return blocker.reset();
      leaving.current = true;
      blocker.proceed();
    });
  }, [blocker]);
  const merging = needsMerge !== null && needsMerge.length > 0;
  const saveAllowed = draft && original ? canSave(draft, original, { justCreated, needsMerge: merging }) && uploading === 0 : false;
  const poleChosen = draft ? hasChosenPole(draft) : false;
  const tabsLocked = merging || !poleChosen;
  const activeTab = tabsLocked ? 'home' : tab;

  const update = (patch: Partial<TicketDraft>) => setDraft((d) => (d ? { ...d, ...patch } : d));

  const updatePole = (patch: Partial<DraftPole>) =>
    setDraft((d) => {
      if (!d) return d;
      const pole = { ...(d.pole ?? emptyPoleOf(d)), ...patch };
      const identityChanged = IDENTITY_FIELDS.some((f) => f in patch && (patch[f] ?? null) !== (d.pole?.[f] ?? null));
      if (identityChanged && pole.id != null) {
        pole.id = null;
        setNeedsMerge(null);
      }
      return { ...d, pole, pole_id: pole.id };
    });

  const emptyPoleOf = (d: TicketDraft): DraftPole => emptyDraft({ ...job, id: d.job_id }).pole!;

  const selectPole = async (p: Pole) => {
    setAddPoleError(null);
    setDraft((d) =>
      d
        ? {
            ...d,
            pole: { ...p },
            pole_id: p.id,
            pole_name: p.pole_name,
            line_name: p.line_name,
            line_id: p.line_id,
            // A ticket without its own address or GPS takes the pole's.
            street_address: d.street_address ?? p.street_address,
            geo_lat: d.geo_lat ?? p.geo_lat,
            geo_lon: d.geo_lon ?? p.geo_lon,
          }
        : d,
    );
    setBasePole({ ...p });
    try {
      const ids = (await getNeedsMerge(job.id, p.id)).filter((id) => id !== ticketId);
      setNeedsMerge(ids.length ? ids : null);
    } catch {
      setNeedsMerge(null);
    }
  };

  const afterSave = (t: Ticket, message: string) => {
    notifications.show({ color: 'green', message });
    // A new ticket now has an address of its own: the window opens it (from the saved copy).
    if (ticketId == null) return onOpenTicket({ id: t.id });
    load(t);
    setTicketId(t.id);
    setJustCreated(false);
    setStale(false);
    setError(null);
  };

  const onSaveError = (err: Error) => {
    if (err instanceof ApiError && err.status === 409) setStale(true);
    else setError(err.message || 'The ticket could not be saved. Try again.');
  };

  const doSave = async (patch: Partial<TicketDraft> = {}, message = 'Ticket saved.') => {
    if (!draft) return;
    setError(null);
    // The ticket save only re-points the ticket at a pole; edits of the pole's own fields go
    // through PUT /poles/ first. SPEC §7: a failing pole save is logged and the ticket save goes on.
    if (canWrite && draft.pole?.id != null && basePole?.id === draft.pole.id && !samePole(draft.pole, basePole)) {
      try {
        const p = await savePole.mutateAsync(draft.pole as Pole);
        setBasePole({ ...p });
      } catch (err) {
        console.error('pole save failed during the ticket save', err);
      }
    }
    save.mutate(toSaveBody({ ...draft, ...patch }), { onSuccess: (t) => afterSave(t, message), onError: onSaveError });
  };

  const reload = async () => {
    if (ticketId == null) return;
    try {
      const fresh = await qc.fetchQuery({ ...ticketQuery(ticketId), staleTime: 0 });
      load(fresh);
      setStale(false);
      setError(null);
      setNeedsMerge(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const requestClose = () => {
    if (!dirty) return onClose();
    void confirmDiscard().then((discard) => discard && onClose());
  };

  const requestDelete = () => {
    if (ticketId == null) return;
    void confirmDialog({ title: 'Delete Ticket', message: MSG.confirmDeleteTicket, confirmLabel: 'Delete', danger: true }).then(
      (yes) =>
        yes &&
        del.mutate(
          { id: ticketId, jobId: job.id },
          {
            onSuccess: () => {
              notifications.show({ color: 'green', message: 'Ticket deleted.' });
              onClose();
            },
            onError: (err) => {
              console.error('ticket delete failed', err);
              setError(err.message);
            },
          },
        ),
    );
  };

  const onAddPole = () => {
    if (!draft?.pole) return;
    const p = draft.pole;
    setAddPoleError(null);
    if (addPoleMissing({ pole_name: p.pole_name, line_name: p.line_name, utility: p.utility_id_owning_pole })) {
      setAddPoleError(MSG.addPoleMissing);
      return;
    }
    const key = (a: string | null, b: string | null) => `${(a ?? '').trim().toLowerCase()}\u0000${(b ?? '').trim().toLowerCase()}`;
    if (job.tickets.some((t) => t.id !== ticketId && key(t.pole_name, t.line_name) === key(p.pole_name, p.line_name))) {
      setAddPoleError(MSG.addPoleDuplicate);
      return;
    }
    const { id: _id, utility_id_owning_pole, utility_name: _u, accessibility_label: _a, ...fields } = p;
    addPole.mutate(
      // A new ticket is made with the pole (job_id); an existing ticket only gets the new pole.
      { ...fields, utility: utility_id_owning_pole!, due_date: draft.due_date, ...(ticketId == null ? { job_id: job.id } : {}) },
      {
        onSuccess: (r) => {
          if (r.ticket) {
            notifications.show({ color: 'green', message: `Ticket for pole ${r.ticket.pole_name ?? ''} created.` });
            onOpenTicket({ id: r.ticket.id, justCreated: true });
          } else if (r.pole) void selectPole(r.pole);
        },
        onError: (err) => {
          setAddPoleError(err instanceof ApiError && err.status === 409 ? err.message || MSG.addPoleDuplicate : MSG.poleSaveError);
          if (!(err instanceof ApiError && err.status === 409)) notifications.show({ color: 'red', message: MSG.poleSaveError });
        },
      },
    );
  };

  const onSavePole = () => {
    if (!draft?.pole || draft.pole.id == null) return;
    savePole.mutate(draft.pole as Pole, {
      onSuccess: (p) => {
        setBasePole({ ...p });
        setDraft((d) => (d ? { ...d, pole: { ...p } } : d));
        setOriginal((o) => (o && o.pole?.id === p.id ? { ...o, pole: { ...p } } : o));
        notifications.show({ color: 'green', message: 'Pole saved.' });
      },
      onError: (err) => setAddPoleError(err.message || MSG.poleSaveError),
    });
  };

  const onMerge = () => {
    if (!needsMerge?.length) return;
    const other = needsMerge[0];
    if (ticketId == null) {
      onOpenTicket({ id: other });
      return;
    }
    merge.mutate(
      { primaryId: other, secondaryId: ticketId, jobId: job.id },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: 'Tickets merged.' });
          onClose();
        },
        onError: (err) => setError(err.message),
      },
    );
  };

  const poleChanged = draft?.pole && basePole && draft.pole.id != null && draft.pole.id === basePole.id && !samePole(draft.pole, basePole);
  const title = ticketId == null ? 'Create Ticket' : 'Edit Ticket';
  const images = useMemo(() => server.data?.images ?? [], [server.data]);

  return (
    <Modal
      opened
      onClose={requestClose}
      closeOnEscape={!viewerOpen}
      title={title}
      fullScreen={phone}
      size="min(1100px, 96vw)"
      padding={phone ? 'sm' : 'md'}
      closeButtonProps={{ 'aria-label': 'Close ticket window' }}
      styles={{ body: { paddingBottom: 0 } }}
    >
      {!draft ? (
        server.isError || foreign ? (
          <Alert color="red" role="alert">
            {foreign ? 'This ticket belongs to another job. Open it from that job.' : server.error?.message}
          </Alert>
        ) : (
          <Center py="xl">
            <Loader aria-label="Loading ticket" />
          </Center>
        )
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap="lg" wrap="wrap">
              <Text size="sm">
                <Text span c="dimmed">
                  Job:{' '}
                </Text>
                <Text span fw={600}>
                  {job.job_number}
                </Text>
              </Text>
              <Text size="sm">
                <Text span c="dimmed">
                  Utility:{' '}
                </Text>
                <Text span fw={600}>
                  {job.selected_utility_name}
                </Text>
              </Text>
              {draft.pole && draft.pole.pole_name && (
                <Text size="sm">
                  <Text span c="dimmed">
                    Pole:{' '}
                  </Text>
                  <Text span fw={600}>
                    {draft.pole.pole_name} / {draft.pole.line_name}
                  </Text>
                </Text>
              )}
            </Group>
            {!canEdit && (
              // Roles 5 and 6 read the ticket and add notes and photos only (DESIGN §4).
              <Group gap={6} wrap="nowrap" data-testid="view-only">
                <Badge variant="outline" color="gray" leftSection={<IconEye size={14} />}>
                  View only
                </Badge>
                <Text size="xs" c="dimmed">
                  You can add notes and photos.
                </Text>
              </Group>
            )}
            {canWrite && ticketId != null && (
              <Anchor component="button" type="button" c="red" size="sm" onClick={requestDelete}>
                <Group gap={4}>
                  <IconTrash size={14} /> Delete Ticket
                </Group>
              </Anchor>
            )}
          </Group>

          {stale && (
            <Alert color="orange" role="alert" title="This ticket changed">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{MSG.staleVersion}</Text>
                <Button size="xs" color="orange" onClick={() => void reload()}>
                  Reload
                </Button>
              </Stack>
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
              {error}
            </Alert>
          )}

          <Tabs value={activeTab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="home" leftSection={<IconMapPin size={14} />}>
                Pole
              </Tabs.Tab>
              <Tabs.Tab value="info" leftSection={<IconInfoCircle size={14} />} disabled={tabsLocked}>
                Info
              </Tabs.Tab>
              <Tabs.Tab value="tasks" leftSection={<IconListCheck size={14} />} disabled={tabsLocked}>
                Tasks ({draft.tasks.length})
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="home" pt="sm">
              <PoleTab
                pole={draft.pole ?? emptyPoleOf(draft)}
                basePole={basePole}
                canWrite={canWrite}
                onPoleChange={updatePole}
                onSelect={(p) => void selectPole(p)}
                onAddPole={onAddPole}
                addingPole={addPole.isPending}
                addPoleError={addPoleError}
                onSavePole={canWrite && poleChanged ? onSavePole : null}
                savingPole={savePole.isPending}
                needsMerge={merging}
                onMerge={onMerge}
                merging={merge.isPending}
                isNew={ticketId == null}
              />
            </Tabs.Panel>
            <Tabs.Panel value="info" pt="sm">
              <InfoTab
                draft={draft}
                update={update}
                canEdit={canEdit}
                canAnnotate={canAnnotate}
                authorName={user ? `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() : 'You'}
                onMarkStatus={(status) => void doSave({ status }, status === 'Complete' ? 'Ticket marked complete.' : 'Ticket reopened.')}
                saving={save.isPending}
                onBusy={(b) => setUploading((n) => Math.max(0, n + (b ? 1 : -1)))}
                images={
                  ticketId != null ? (
                    <ImagesPanel ticketId={ticketId} jobId={job.id} images={images} canAnnotate={canAnnotate} onViewerChange={setViewerOpen} />
                  ) : (
                    <Text size="sm" c="dimmed">
                      Save the ticket to add photos.
                    </Text>
                  )
                }
              />
            </Tabs.Panel>
            <Tabs.Panel value="tasks" pt="sm">
              <TasksTab tasks={draft.tasks} utilityId={job.selected_utility_id} canEdit={canEdit} onChange={(tasks) => update({ tasks })} />
            </Tabs.Panel>
          </Tabs>

          <Group
            justify="space-between"
            py="sm"
            style={{ position: 'sticky', bottom: 0, background: 'var(--mantine-color-body)', borderTop: '1px solid var(--mantine-color-gray-3)', zIndex: 2 }}
          >
            <Text size="sm" c="dimmed">
              {merging ? '' : dirty ? 'Unsaved changes' : justCreated ? 'New ticket: add its details and save' : ''}
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={requestClose}>
                Close
              </Button>
              {!merging && (
                <Button onClick={() => void doSave()} disabled={!saveAllowed} loading={save.isPending || savePole.isPending}>
                  Save
                </Button>
              )}
            </Group>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
