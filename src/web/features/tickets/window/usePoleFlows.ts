import { useState } from 'react';
import { notifications } from '@mantine/notifications';
import type { Job } from '../../../../shared/jobs.schemas';
import { MSG } from '../../../../shared/messages';
import type { Pole } from '../../../../shared/tickets.schemas';
import { ApiError } from '../../../api/client';
import { useAddPole } from '../api/addPole';
import { useMergeTickets } from '../api/mergeTickets';
import { useNeedsMerge } from '../api/needsMerge';
import { useSavePole } from '../api/savePole';
import type { WindowTarget } from '../ticketUrl';
import { addPoleBody, addPoleProblem, choosePole, draftErrors, editPole, poleEdited, type DraftPole, type TicketDraft } from './ticketDraft';
import type { TicketCopy } from './useTicketDraft';

/**
 * The pole flows of the Pole tab (docs/product/screens.md §6, rules.md §2.2): edit the pole's fields (typing a name, line,
 * substation or circuit unselects it), choose a pole from the search, add what was typed as a
 * new pole, save the pole's own fields, and the needs-merge warning with its merge.
 */
export function usePoleFlows({
  job,
  ticketId,
  copy,
  canWrite,
  setError,
  onClose,
  onOpenTicket,
}: {
  job: Job;
  ticketId: number | null;
  copy: TicketCopy;
  canWrite: boolean;
  setError: (message: string | null) => void;
  onClose: () => void;
  onOpenTicket: (t: WindowTarget) => void;
}) {
  const { form, draft, basePole, setBasePole, update } = copy;
  const [needsMerge, setNeedsMerge] = useState<number[] | null>(null);
  const [addPoleError, setAddPoleError] = useState<string | null>(null);
  const merge = useMergeTickets();
  const addPole = useAddPole();
  const savePole = useSavePole(job.id);
  const askNeedsMerge = useNeedsMerge(job.id);

  const updatePole = (patch: Partial<DraftPole>) => {
    const edit = editPole(form.getValues(), patch, copy.emptyPoleOfJob());
    update(edit.patch, Object.keys(patch).map((k) => `pole.${k}`));
    if (edit.unselected) setNeedsMerge(null);
  };

  const selectPole = async (p: Pole) => {
    setAddPoleError(null);
    update(choosePole(form.getValues(), p));
    setBasePole({ ...p });
    try {
      const ids = (await askNeedsMerge(p.id)).filter((id) => id !== ticketId);
      setNeedsMerge(ids.length ? ids : null);
    } catch {
      setNeedsMerge(null);
    }
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

  /**
   * Before a ticket save: the ticket save only re-points the ticket at a pole; edits of the
   * pole's own fields go through PUT /poles/ first. docs/product/api.md §5: a failing pole save is logged and
   * the ticket save goes on.
   */
  const saveEditedPole = async (sent: TicketDraft) => {
    if (!canWrite || !poleEdited(sent, basePole)) return;
    try {
      const p = await savePole.mutateAsync(sent.pole as Pole);
      setBasePole({ ...p });
    } catch (err) {
      console.error('pole save failed during the ticket save', err);
    }
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
    /** The chosen pole is already on another ticket of this job: merge before anything else. */
    merging: needsMerge !== null && needsMerge.length > 0,
    forgetMerge: () => setNeedsMerge(null),
    addPoleError,
    poleChanged: draft ? poleEdited(draft, basePole) : false,
    busy: { savingPole: savePole.isPending, addingPole: addPole.isPending, merging: merge.isPending },
    updatePole,
    selectPole: (p: Pole) => void selectPole(p),
    addPole: onAddPole,
    savePole: onSavePole,
    saveEditedPole,
    merge: onMerge,
  };
}
