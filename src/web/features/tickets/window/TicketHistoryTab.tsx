import { useTicketHistory } from '../../../api/history';
import { HistoryList } from '../../../components/HistoryList';

/** The ticket window's History tab (docs/product/records.md §1): every change of this ticket, newest first. */
export function TicketHistoryTab({ ticketId }: { ticketId: number }) {
  return <HistoryList query={useTicketHistory(ticketId)} />;
}
