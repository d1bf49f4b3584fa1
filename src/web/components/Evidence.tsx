import { Anchor, Text } from '@mantine/core';
import { photoCheckWords, photoIsSuspect } from '../../shared/evidence';
import { formatGeo } from '../../shared/geo';
import type { Ticket } from '../../shared/tickets.schemas';
import { currentUser } from '../api/session';

/**
 * Evidence as the office window, the phone view and the invoice preview show it
 * (docs/product/records.md §6, §7): a photo's checks under its thumbnail and in the viewer, and the
 * completion record of a Complete ticket.
 */

/** "43 m from the pole · no time": orange (and said first) when the photo does not count as evidence. */
export function PhotoChecks({ image, size = 'xs' }: { image: { distance_m: number | null; flags: readonly string[] }; size?: 'xs' | 'sm' }) {
  const words = photoCheckWords(image);
  if (words.length === 0) return null;
  const suspect = photoIsSuspect(image);
  return (
    <Text size={size} c={suspect ? 'red.9' : 'dimmed'} fw={suspect ? 600 : undefined} data-testid="photo-checks" lh={1.3}>
      {suspect ? 'Not evidence: ' : ''}
      {words.join(' · ')}
    </Text>
  );
}

/** 11/26/2026 2:14 PM in the company's time zone (the one date everywhere, docs/product/records.md §5). */
export function companyDateTime(iso: string): string {
  const zone = currentUser()?.company_time_zone;
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' })
    .format(new Date(iso))
    .replace(',', '');
}

type CompletionFields = Pick<Ticket, 'actual_completion_date' | 'completed_by_name' | 'completed_lat' | 'completed_lon' | 'completed_accuracy_m'>;

/** "Completed 11/26/2026 2:14 PM by Jane Foreman, 12 m accuracy" and where, as a map link; nothing while Pending. */
export function CompletionRecord({ ticket, size = 'sm' }: { ticket: CompletionFields; size?: 'xs' | 'sm' }) {
  if (!ticket.actual_completion_date) return null;
  const who = ticket.completed_by_name ? ` by ${ticket.completed_by_name}` : '';
  const located = ticket.completed_lat != null && ticket.completed_lon != null;
  const accuracy = located && ticket.completed_accuracy_m != null ? `, ${Math.round(ticket.completed_accuracy_m)} m accuracy` : '';
  return (
    <Text size={size} data-testid="completion-record">
      Completed {companyDateTime(ticket.actual_completion_date)}
      {who}
      {accuracy}
      {located ? (
        <>
          {' · '}
          <Anchor href={`https://www.openstreetmap.org/?mlat=${ticket.completed_lat}&mlon=${ticket.completed_lon}#map=19/${ticket.completed_lat}/${ticket.completed_lon}`} target="_blank" rel="noreferrer" size={size}>
            where ({formatGeo(ticket.completed_lat)}, {formatGeo(ticket.completed_lon)})
          </Anchor>
        </>
      ) : (
        ' · no position'
      )}
    </Text>
  );
}
