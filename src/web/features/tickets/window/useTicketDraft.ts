import { useState } from 'react';
import { useForm } from '@mantine/form';
import type { Job } from '../../../../shared/jobs.schemas';
import type { Ticket } from '../../../../shared/tickets.schemas';
import { useTicket } from '../../../api/ticket';
import { emptyDraft, emptyPole, isDirty, saveErrors, toDraft, withoutErrorsOf, type DraftPole, type TicketDraft } from './ticketDraft';

/**
 * The window's working copy of the ticket (docs/product/rules.md §2.1 Ticket window), kept in @mantine/form: its
 * values, its initial values (the copy as loaded, which dirty is measured against) and its field
 * errors (the shared ticketSaveSchema before a save, the server's `fields` after one).
 * ticketDraft.ts stays the one model of the ticket:
 * - dirty is its isDirty, not the form's deep-equal: docs/product/rules.md §2.1 counts '' as null, ignores
 *   read-only names and saved notes, and compares tasks and permits by what is sent;
 * - the server's `fields` go through its draftErrors, not components/form's serverFieldErrors,
 *   whose flat field list cannot name a task by its index or a field of the pole;
 * - the tabs replace whole lists (tasks, notes, permits) and the pole, and turn '' into null,
 *   so the inputs keep their own value/onChange rather than getInputProps; touched is not
 *   needed, as the messages come from a save (errorsAfterLeaving is for typed-in forms).
 */
export function useTicketDraft(job: Job, ticketId: number | null) {
  const server = useTicket(ticketId);
  const form = useForm<TicketDraft>({ initialValues: emptyDraft(job), clearInputErrorOnChange: false, validate: saveErrors });
  // The pole as last loaded or saved: what the Pole tab's own edits are measured against.
  const [basePole, setBasePole] = useState<DraftPole | null>(null);

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

  const draft = loaded ? form.values : null;
  const original = form.getInitialValues();

  /** A change of the draft: the errors of the fields it changes are answered. */
  const update = (patch: Partial<TicketDraft>, errorPaths: readonly string[] = Object.keys(patch)) => {
    form.setErrors((e) => withoutErrorsOf(e, errorPaths));
    form.setValues(patch);
  };

  return {
    server,
    form,
    /** The ticket belongs to another job: the window shows why instead of it. */
    foreign,
    /** The working copy; null until the ticket is loaded. */
    draft,
    original,
    dirty: draft ? isDirty(draft, original) : false,
    basePole,
    setBasePole,
    load,
    update,
    emptyPoleOfJob: () => emptyPole(job.selected_utility_id, job.selected_utility_name),
  };
}

export type TicketCopy = ReturnType<typeof useTicketDraft>;
