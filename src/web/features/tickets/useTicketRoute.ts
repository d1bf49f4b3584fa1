import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ticketHref, ticketParam, type TicketLocationState, type WindowTarget } from './ticketUrl';

/**
 * The open ticket lives in the address (/job?id=…&ticket=…): opening pushes it, so Back closes
 * the window (TicketWindow asks first when there are unsaved changes), and a link to a ticket
 * opens it on a fresh load. Create Ticket is ticket=new (for those who may create tickets).
 */
export function useTicketRoute(jobId: number, canWrite: boolean) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const state = location.state as TicketLocationState | null;
  const wanted = ticketParam(params);
  const target: WindowTarget | null = wanted === 'new' ? (canWrite ? { id: null } : null) : wanted === null ? null : { id: wanted, justCreated: state?.justCreated };
  const openTicket = useCallback(
    (t: WindowTarget, replace = false) => {
      const next: TicketLocationState = { fromList: replace ? Boolean(state?.fromList) : true, justCreated: t.justCreated };
      navigate(ticketHref(jobId, t.id), { replace, state: next });
    },
    [navigate, jobId, state?.fromList],
  );
  const closeTicket = useCallback(() => {
    // Opened from the list: step back to the entry we pushed. Opened by a link: drop the ticket
    // from the address, so Back then leaves the job as it would have without the window.
    if (state?.fromList) navigate(-1);
    else navigate(ticketHref(jobId, undefined), { replace: true });
  }, [navigate, jobId, state?.fromList]);
  const onOpen = useCallback((id: number) => openTicket({ id }), [openTicket]);
  const onCreate = useCallback(() => openTicket({ id: null }), [openTicket]);
  useFocusBack(target);
  return { target, openTicket, closeTicket, onOpen, onCreate };
}

/** Focus goes back to the row or card that opened the window, once it closes. */
function useFocusBack(target: WindowTarget | null) {
  const openedId = target?.id ?? null;
  const isOpen = target !== null;
  const lastOpened = useRef<number | null>(null);
  useEffect(() => {
    if (openedId != null) lastOpened.current = openedId;
    if (isOpen || lastOpened.current == null) return;
    const id = lastOpened.current;
    lastOpened.current = null;
    requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-ticket-id="${id}"]`)?.focus());
  }, [openedId, isOpen]);
}
