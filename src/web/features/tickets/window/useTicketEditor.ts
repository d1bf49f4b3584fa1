import { useState } from 'react';
import type { Job } from '../../../../shared/jobs.schemas';
import { can } from '../../../../shared/permissions';
import { useSession } from '../../../api/session';
import type { WindowTarget } from '../ticketUrl';
import { canSave, hasChosenPole } from './ticketDraft';
import { useLeaveGuard } from './useLeaveGuard';
import { usePhotosChanged } from './usePhotosChanged';
import { usePoleFlows } from './usePoleFlows';
import { useTicketDraft } from './useTicketDraft';
import { useTicketSave } from './useTicketSave';

/**
 * What the ticket window does (docs/product/rules.md §2.1 Ticket window), put together from one hook per job: the
 * working copy (useTicketDraft), asking before leaving with changes (useLeaveGuard), the photos
 * saved meanwhile (usePhotosChanged), the pole flows of the Pole tab (usePoleFlows) and saving,
 * reloading and deleting (useTicketSave). The window only renders what this returns; the rules
 * themselves are the pure, tested functions of ticketDraft.ts.
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
  const { claims, user } = useSession();
  const allowed = {
    write: can(claims?.roleId, 'tickets.write'),
    edit: can(claims?.roleId, 'tickets.edit'),
    annotate: can(claims?.roleId, 'tickets.annotate'),
  };
  // The window is keyed by its ticket: a ticket just created opens in a new window.
  const ticketId = target.id;
  const copy = useTicketDraft(job, ticketId);
  const { server, draft, original, dirty } = copy;
  const [error, setError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(0);
  const { images, photosChanged } = usePhotosChanged(server.data, copy.foreign);
  const { onClose, onOpenTicket, requestClose } = useLeaveGuard({ dirty, photosChanged, close, openTicket });
  const pole = usePoleFlows({ job, ticketId, copy, canWrite: allowed.write, setError, onClose, onOpenTicket });
  const saving = useTicketSave({
    job,
    ticketId,
    copy,
    justMade: Boolean(target.justCreated),
    userId: claims?.userId,
    setError,
    saveEditedPole: pole.saveEditedPole,
    forgetMerge: pole.forgetMerge,
    onClose,
    onOpenTicket,
  });

  const { merging } = pole;
  const saveAllowed = draft ? canSave(draft, original, { justCreated: saving.justCreated, needsMerge: merging }) && uploading === 0 : false;

  return {
    ticketId,
    /** The working copy; null until the ticket is loaded, or when it cannot be (loadError). */
    draft,
    loadError: draft || !(copy.foreign || server.isError) ? null : copy.foreign ? 'This ticket belongs to another job. Open it from that job.' : (server.error?.message ?? ''),
    pole: draft?.pole ?? copy.emptyPoleOfJob(),
    basePole: copy.basePole,
    images,
    /** Photos were added or deleted here (they are saved already). */
    photosChanged,
    allowed,
    authorName: user ? `${user.first_name ?? ''} ${user.last_name ?? ''}`.trim() : 'You',
    justCreated: saving.justCreated,
    dirty,
    merging,
    saveAllowed,
    /** Info and Tasks open only with a chosen pole and no merge pending (docs/product/screens.md). */
    tabsLocked: merging || !(draft && hasChosenPole(draft)),
    poleChanged: pole.poleChanged,
    errors: copy.form.errors,
    stale: saving.stale,
    error,
    clearError: () => setError(null),
    addPoleError: pole.addPoleError,
    busy: { saving: saving.saving, ...pole.busy },
    update: copy.update,
    updatePole: pole.updatePole,
    selectPole: pole.selectPole,
    addPole: pole.addPole,
    savePole: pole.savePole,
    merge: pole.merge,
    save: saving.save,
    markStatus: saving.markStatus,
    reload: saving.reload,
    requestClose,
    requestDelete: saving.requestDelete,
    onUploadBusy: (busy: boolean) => setUploading((n) => Math.max(0, n + (busy ? 1 : -1))),
  };
}
