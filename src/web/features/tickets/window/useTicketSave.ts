import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Job } from '../../../../shared/jobs.schemas';
import { MSG } from '../../../../shared/messages';
import type { Ticket } from '../../../../shared/tickets.schemas';
import { ApiError } from '../../../api/client';
import { ticketQuery } from '../../../api/ticket';
import { confirmDialog } from '../../../components/confirm';
import { network } from '../../../api/network';
import { outbox } from '../../../offline/outbox';
import { useDeleteTicket } from '../api/deleteTicket';
import { useSaveTicket } from '../api/saveTicket';
import type { WindowTarget } from '../ticketUrl';
import { draftErrors, errorSummary, offlineSaveOf, toSaveBody, type TicketDraft } from './ticketDraft';
import type { TicketCopy } from './useTicketDraft';

/**
 * What the window sends (docs/product/rules.md §2.1, api.md): Save and Mark Complete / Reopen with the version it read
 * (a 409 offers a Reload while the person's edits stay on screen), on this device when there is
 * no connection, Reload, and Delete Ticket.
 */
export function useTicketSave({
  job,
  ticketId,
  copy,
  justMade,
  userId,
  setError,
  saveEditedPole,
  forgetMerge,
  onClose,
  onOpenTicket,
}: {
  job: Job;
  ticketId: number | null;
  copy: TicketCopy;
  /** The ticket was just made by adding a pole: Save is offered though nothing changed yet. */
  justMade: boolean;
  userId: number | undefined;
  setError: (message: string | null) => void;
  /** The pole's own edits, saved before the ticket (usePoleFlows). */
  saveEditedPole: (draft: TicketDraft) => Promise<void>;
  forgetMerge: () => void;
  onClose: () => void;
  onOpenTicket: (t: WindowTarget) => void;
}) {
  const qc = useQueryClient();
  const { form, draft, load } = copy;
  const [stale, setStale] = useState(false);
  const [justCreated, setJustCreated] = useState(justMade);
  const save = useSaveTicket();
  const del = useDeleteTicket();

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
   * No connection (docs/product/field-mode.md §5): what the outbox can carry is queued on this device and sent
   * when the network is back, with the version it was made on; what needs the server at once
   * (a new ticket, the pole, documents) stays in the window with a message, nothing dropped.
   */
  const saveOnDevice = async (sent: TicketDraft) => {
    const o = offlineSaveOf(sent, form.getInitialValues());
    if (o.needsConnection.length) {
      return setError(`No connection: ${o.needsConnection.join(', ')} can only be saved online. Your changes are still here; save again once you are back online.`);
    }
    const base = { userId: userId!, ticketId: sent.id!, jobId: job.id, label: `Pole ${sent.pole_name ?? '--'} · Line ${sent.line_name ?? '--'}`, baseVersion: sent.version! };
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
    await saveEditedPole(draft);
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
      forgetMerge();
    } catch (err) {
      setError((err as Error).message);
    }
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

  return {
    stale,
    justCreated,
    saving: save.isPending,
    save: () => void doSave(),
    markStatus: (status: 'Pending' | 'Complete') => void doSave({ status }, status === 'Complete' ? 'Ticket marked complete.' : 'Ticket reopened.'),
    reload: () => void reload(),
    requestDelete,
  };
}
