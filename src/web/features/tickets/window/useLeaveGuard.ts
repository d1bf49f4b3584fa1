import { useEffect, useRef } from 'react';
import { confirmDiscard } from '../../../components/confirm';
import { closeUnlessKept } from '../../../components/form';
import { useBlocker } from '../../../components/useBlocker';
import { ticketParam, type WindowTarget } from '../ticketUrl';

/** What the close question adds when photos changed: they are not among what would be lost. */
const PHOTOS_SAVED = 'The photos you added are already saved.';

/**
 * Asks before the window's unsaved changes are lost: on Close, and on Back or any other move
 * of the address away from this ticket. The window's own moves (Close after asking, delete,
 * merge, a new ticket) go through the returned onClose / onOpenTicket and are not asked about
 * again.
 */
export function useLeaveGuard({
  dirty,
  photosChanged,
  close,
  openTicket,
}: {
  dirty: boolean;
  photosChanged: boolean;
  close: () => void;
  openTicket: (t: WindowTarget) => void;
}) {
  const leaving = useRef(false);
  const closeNote = useRef<string | undefined>(undefined);
  closeNote.current = photosChanged ? PHOTOS_SAVED : undefined;

  const onClose = () => {
    leaving.current = true;
    close();
  };
  const onOpenTicket = (t: WindowTarget) => {
    leaving.current = true;
    openTicket(t);
  };

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

  return { onClose, onOpenTicket, requestClose: () => void closeUnlessKept(dirty, onClose, closeNote.current) };
}
