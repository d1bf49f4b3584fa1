import { network } from '../../../api/network';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker } from '../../../components/useBlocker';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { confirmDialog, confirmDiscard } from '../../../components/confirm';
import { closeUnlessKept } from '../../../components/form';
import type { Job } from '../../../../shared/jobs.schemas';
import { MSG } from '../../../../shared/messages';
import { can } from '../../../../shared/permissions';
import type { Pole, Ticket } from '../../../../shared/tickets.schemas';
import { ApiError } from '../../../api/client';
import { useSession } from '../../../api/session';
import { useDeleteTicket } from '../api/deleteTicket';
import { useMergeTickets } from '../api/mergeTickets';
import { getNeedsMerge } from '../api/needsMerge';
import { useAddPole } from '../api/addPole';
import { useSavePole } from '../api/savePole';
import { useSaveTicket } from '../api/saveTicket';
import { outbox } from '../../../offline/outbox';
import { ticketQuery, useTicket } from '../../../api/ticket';
import {
  addPoleBody,
  addPoleProblem,
  canSave,
  offlineSaveOf,
  choosePole,
  draftErrors,
  editPole,
  emptyDraft,
  emptyPole,
  errorSummary,
  hasChosenPole,
  isDirty,
  poleEdited,
  saveErrors,
  toDraft,
  toSaveBody,
  withoutErrorsOf,
  type DraftPole,
  type TicketDraft,
} from './ticketDraft';
import { ticketParam, type WindowTarget } from '../ticketUrl';

/** What the close question adds when photos changed: they are not among what would be lost. */
const PHOTOS_SAVED = 'The photos you added are already saved.';

/**
 * What the ticket window does (SPEC §4 Ticket window): keeps a working copy of the ticket, tells
 * when it is dirty, asks before closing or going Back with changes, saves with the version it
 * read (a 409 offers a reload while the person's edits stay on screen), and runs the pole flows
 * of the Pole tab (choose, add, save, needs-merge and merge). The window only renders what this
 * returns; the rules themselves are the pure, tested functions of ticketDraft.ts.
 *
 * The working copy lives in @mantine/form: its values, its initial values (the copy as loaded,
 * which dirty is measured against) and its field errors (the shared ticketSaveSchema before a
 * save, the server's `fields` after one). ticketDraft.ts stays the one model of the ticket:
 * - dirty is its isDirty, not the form's deep-equal: SPEC §4 counts '' as null, ignores
 *   read-only names and saved notes, and compares tasks and permits by what is sent;
 * - the server's `fields` go through its draftErrors, not components/form's serverFieldErrors,
 *   whose flat field list cannot name a task by its index or a field of the pole;
 * - the tabs replace whole lists (tasks, notes, permits) and the pole, and turn '' into null,
 *   so the inputs keep their own value/onChange rather than getInputProps; touched is not
 *   needed, as the messages come from a save (errorsAfterLeaving is for typed-in forms).
 */
export function useTicketEditor({
  job,
  target,
  onOpenTicket: openTicket,
  onClose: close,
}: {
  job: Job;
  target: WindowTarget;
  onOpenTicket: (t: WindowTarget) => void;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const { claims, user } = useSession();
  const allowed = {
    write: can(claims?.roleId, 'tickets.write'),
    edit: can(claims?.roleId, 'tickets.edit'),
    annotate: can(claims?.roleId, 'tickets.annotate'),
  };
  // The window is keyed by its ticket: a ticket just created opens in a new window.
  const ticketId = target.id;
  const server = useTicket(ticketId);
  const form = useForm<TicketDraft>({ initialValues: emptyDraft(job), clearInputErrorOnChange: false, validate: saveErrors });
  const [basePole, setBasePole] = useState<DraftPole | null>(null);
  const [justCreated, setJustCreated] = useState(Boolean(target.justCreated));
  const [needsMerge, setNeedsMerge] = useState<number[] | null>(null);
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [addPoleError, setAddPoleError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);

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

  // A link naming a ticket of another job (or a job the link was not made for) opens nothing.
  const foreign = server.data != null && server.data.job_id !== job.id;
  const loaded = ticketId == null || form.initialized;
  // First load of an existing ticket: the working copy starts from the server's, in this render
  // (no frame of the loader in between). Later fetches of the ticket (after a photo upload) leave
  // the working copy alone; Reload and a save replace it (load).
  if (!loaded && server.data && !foreign) {
    form.initialize(toDraft(server.data));
    setBasePole(server.data.pole ? { ...server.data.pole } : null);
  }
  const load = (t: Ticket) => {
    form.setInitialValues(toDraft(t));
    form.setValues(toDraft(t));
    form.clearErrors();
    setBasePole(t.pole ? { ...t.pole } : null);
  };

  const images = useMemo(() => server.data?.images ?? [], [server.data]);
  // Photos are stored the moment they are added or deleted (ImagesPanel), not with Save: the
  // footer and the close question say so once the photos differ from those the window opened with.
  const imageIds = images.map((i) => i.id).join(',');
  const openedWith = useRef<string | null>(null);
  if (server.data && !foreign && openedWith.current === null) openedWith.current = imageIds;
  const photosChanged = openedWith.current !== null && imageIds !== openedWith.current;
  const closeNote = useRef<string | undefined>(undefined);
  closeNote.current = photosChanged ? PHOTOS_SAVED : undefined;

  const draft = loaded ? form.values : null;
  const original = form.getInitialValues();
  const dirty = draft ? isDirty(draft, original) : false;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      !leaving.current &&
      (currentLocation.pathname !== nextLocation.pathname || ticketParam(new URLSearchParams(currentLocation.search)) !== ticketParam(new URLSearchParams(nextLocation.search))),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    // Staying (the button, Escape or a click outside) keeps the address on the ticket.
    void confirmDiscard(closeNote.current).then((discard) => {
      if (!discard) return blocker.reset();
      leaving.current = true;
      blocker.proceed();
    });
  }, [blocker]);

  const merging = needsMerge !== null && needsMerge.length > 0;
  const saveAllowed = draft ? canSave(draft, original, { justCreated, needsMerge: merging }) && uploading === 0 : false;
  const emptyPoleOfJob = () => emptyPole(job.selected_utility_id, job.selected_utility_name);

  /** A change of the draft: the errors of the fields it changes are answered. */
  const update = (patch: Partial<TicketDraft>, errorPaths: readonly string[] = Object.keys(patch)) => {
    form.setErrors((e) => withoutErrorsOf(e, errorPaths));
    form.setValues(patch);
  };

  const updatePole = (patch: Partial<DraftPole>) => {
    const edit = editPole(form.getValues(), patch, emptyPoleOfJob());
    update(edit.patch, Object.keys(patch).map((k) => `pole.${k}`));
    if (edit.unselected) setNeedsMerge(null);
  };

  const selectPole = async (p: Pole) => {
    setAddPoleError(null);
    update(choosePole(form.getValues(), p));
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
    setJustCreated(false);
    setStale(false);
    setError(null);
  };

  /**
   * No connection (DESIGN §7.1): what the outbox can carry is queued on this device and sent
   * when the network is back, with the version it was made on; what needs the server at once
   * (a new ticket, the pole, documents) stays in the window with a message, nothing dropped.
   */
  const saveOnDevice = async (sent: TicketDraft) => {
    const o = offlineSaveOf(sent, form.getInitialValues());
    if (o.needsConnection.length) {
      return setError(`No connection: ${o.needsConnection.join(', ')} can only be saved online. Your changes are still here; save again once you are back online.`);
    }
    const base = { userId: claims!.userId, ticketId: sent.id!, jobId: job.id, label: `Pole ${sent.pole_name ?? '--'} · Line ${sent.line_name ?? '--'}`, baseVersion: sent.version! };
    if (Object.keys(o.set).length || Object.keys(o.taskQty).length) await outbox.add({ ...base, kind: 'ticket', set: o.set, base: o.base, taskQty: o.taskQty });
    for (const text of o.notes) await outbox.add({ ...base, kind: 'note', text });
    notifications.show({ color: 'blue', message: 'Saved on this device. It will sync when the connection is back.' });
    onClose();
  };

  const onSaveError = (err: Error, sent: TicketDraft) => {
    if (err instanceof ApiError && err.status === 0 && sent.id != null) return void saveOnDevice(sent);
    if (err instanceof ApiError && err.status === 409) setStale(true);
    else setError(err.message || 'The ticket could not be saved. Try again.');
    if (err instanceof ApiError) form.setErrors(draftErrors(err.fields, sent));
  };

  const doSave = async (patch: Partial<TicketDraft> = {}, message = 'Ticket saved.') => {
    if (!draft) return;
    setError(null);
    // What the server would refuse is stopped here, with its messages on the fields.
    const check = form.validate();
    if (check.hasErrors) return setError(errorSummary(check.errors));
    // Known to be offline: a request would only wait (TanStack pauses it) and spin.
    if (!network.isOnline()) return saveOnDevice({ ...draft, ...patch });
    // The ticket save only re-points the ticket at a pole; edits of the pole's own fields go
    // through PUT /poles/ first. SPEC §7: a failing pole save is logged and the ticket save goes on.
    if (allowed.write && poleEdited(draft, basePole)) {
      try {
        const p = await savePole.mutateAsync(draft.pole as Pole);
        setBasePole({ ...p });
      } catch (err) {
        console.error('pole save failed during the ticket save', err);
      }
    }
    const sent = { ...draft, ...patch };
    save.mutate(toSaveBody(sent), { onSuccess: (t) => afterSave(t, message), onError: (err) => onSaveError(err, sent) });
  };

  const reload = async () => {
    if (ticketId == null) return;
    try {
      const fresh = await qc.fetchQuery(ticketQuery(ticketId));
      load(fresh);
      setStale(false);
      setError(null);
      setNeedsMerge(null);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  const requestClose = () => void closeUnlessKept(dirty, onClose, closeNote.current);

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
    setAddPoleError(null);
    const problem = addPoleProblem(draft.pole, job.tickets, ticketId);
    if (problem) return setAddPoleError(problem);
    // A new ticket is made with the pole (job_id); an existing ticket only gets the new pole.
    addPole.mutate(addPoleBody(draft.pole, draft.due_date, ticketId == null ? job.id : null), {
      onSuccess: (r) => {
        if (r.ticket) {
          notifications.show({ color: 'green', message: `Ticket for pole ${r.ticket.pole_name ?? ''} created.` });
          onOpenTicket({ id: r.ticket.id, justCreated: true });
        } else if (r.pole) void selectPole(r.pole);
      },
      onError: (err) => {
        const taken = err instanceof ApiError && err.status === 409;
        setAddPoleError(taken ? err.message || MSG.addPoleDuplicate : MSG.poleSaveError);
        if (!taken) notifications.show({ color: 'red', message: MSG.poleSaveError });
        if (err instanceof ApiError) form.setErrors(draftErrors(err.fields, draft, 'newPole'));
      },
    });
  };

  const onSavePole = () => {
    if (!draft?.pole || draft.pole.id == null) return;
    savePole.mutate(draft.pole as Pole, {
      onSuccess: (p) => {
        setBasePole({ ...p });
        // The pole as saved is also the pole as loaded: saving it leaves the ticket clean.
        const o = form.getInitialValues();
        if (o.pole?.id === p.id) form.setInitialValues({ ...o, pole: { ...p } });
        update({ pole: { ...p } });
        notifications.show({ color: 'green', message: 'Pole saved.' });
      },
      onError: (err) => {
        setAddPoleError(err.message || MSG.poleSaveError);
        if (err instanceof ApiError) form.setErrors(draftErrors(err.fields, draft));
      },
    });
  };

  const onMerge = () => {
    if (!needsMerge?.length) return;
    const other = needsMerge[0];
    if (ticketId == null) return onOpenTicket({ id: other });
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



  return {
    ticketId,
    /** The working copy; null until the ticket is loaded, or when it cannot be (loadError). */
    draft,
    loadError: draft || !(foreign || server.isError) ? null : foreign ? 'This ticket belongs to another job. Open it from that job.' : (server.error?.message ?? ''),
    pole: draft?.pole ?? emptyPoleOfJob(),
    basePole,
    images,
    /** Photos were added or deleted here (they are saved already). */
    photosChanged,
    allowed,
    authorName: user ? `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() : 'You',
    justCreated,
    dirty,
    merging,
    saveAllowed,
    /** Info and Tasks open only with a chosen pole and no merge pending (SPEC §2). */
    tabsLocked: merging || !(draft && hasChosenPole(draft)),
    poleChanged: draft ? poleEdited(draft, basePole) : false,
    errors: form.errors,
    stale,
    error,
    clearError: () => setError(null),
    addPoleError,
    busy: { saving: save.isPending, savingPole: savePole.isPending, addingPole: addPole.isPending, merging: merge.isPending },
    update,
    updatePole,
    selectPole: (p: Pole) => void selectPole(p),
    addPole: onAddPole,
    savePole: onSavePole,
    merge: onMerge,
    save: () => void doSave(),
    markStatus: (status: 'Pending' | 'Complete') => void doSave({ status }, status === 'Complete' ? 'Ticket marked complete.' : 'Ticket reopened.'),
    reload: () => void reload(),
    requestClose,
    requestDelete,
    onUploadBusy: (busy: boolean) => setUploading((n) => Math.max(0, n + (busy ? 1 : -1))),
  };
}
