import { TICKET_STATUS } from './constants';

/**
 * Overdue (docs/product/field-mode.md, map.md §1): a ticket still Pending after its due date. A due date is a
 * calendar day (docs/product/api.md §1), so "today" is the day on the viewer's own calendar, as text.
 */

/** 'YYYY-MM-DD' of a day in the device's own time zone. */
export function localIsoDay(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** Due before today and still open. */
export const isOverdue = (t: { due_date: string | null; status: string }, today: string) =>
  t.status !== TICKET_STATUS.COMPLETE && !!t.due_date && t.due_date.slice(0, 10) < today;

/** What a map point shows (docs/product/map.md §1): Pending, Complete, or Overdue (Pending past due). */
export type TicketState = 'Pending' | 'Complete' | 'Overdue';

export function ticketState(t: { due_date: string | null; status: string }, today: string): TicketState {
  if (t.status === TICKET_STATUS.COMPLETE) return 'Complete';
  return isOverdue(t, today) ? 'Overdue' : 'Pending';
}
