import { Alert, Badge, type BadgeProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { isoToUs } from '../../shared/dates';
import { clearToDig, expiryLabel, expiryOf, ticketExpiry, type DigFields, type Expiry } from '../../shared/dig-safe';

/**
 * What the screens show of permits, dig safe and Clear to dig (docs/product/records.md §5, decision 045), from
 * the shared rules of src/shared/dig-safe.ts on the company's day: the ticket window, the job's
 * table and cards, My Work and the phone's ticket view, online or from the phone's copy.
 */

/** "Expired" (red) or "Expires in N days" (orange), or nothing. `what` names the record for a screen reader. */
export function ExpiryBadge({ expiry, what, size = 'sm' }: { expiry: Expiry | null; what?: string; size?: BadgeProps['size'] }) {
  if (!expiry) return null;
  const label = expiryLabel(expiry);
  return (
    <Badge
      component="span"
      size={size}
      // Filled red, and light orange with near-black text: orange.9 text on light orange was 3.6 : 1 (axe, WCAG AA 4.5).
      color={expiry.state === 'expired' ? 'red.8' : 'orange'}
      variant={expiry.state === 'expired' ? 'filled' : 'light'}
      c={expiry.state === 'expired' ? undefined : 'dark.8'}
      title={`${what ? `${what}: ` : ''}${label} (${isoToUs(expiry.expires_on)})`}
      style={{ flex: 'none' }}
    >
      {what ? `${what}: ${label}` : label}
    </Badge>
  );
}

/** A record's expiry badge from its date (the ticket window's permits and dig safe). */
export const RecordExpiry = ({ expiresOn, today, what }: { expiresOn: string | null; today: string; what?: string }) => (
  <ExpiryBadge expiry={expiryOf(expiresOn, today)} what={what} />
);

/** A ticket row's badges: "Not clear to dig" and its papers' most urgent expiry. */
export function TicketDigBadges({ ticket, today }: { ticket: DigFields; today: string }) {
  const clear = clearToDig(ticket, today);
  return (
    <>
      {clear.clear_to_dig === false && (
        <Badge component="span" size="sm" color="red.8" variant="filled" title={clear.clear_to_dig_reason ?? undefined} style={{ flex: 'none' }}>
          Not clear to dig
        </Badge>
      )}
      <ExpiryBadge expiry={ticketExpiry(ticket, today)} what="Permits" />
    </>
  );
}

/** "Not clear to dig" and why, with the date; nothing when clear or not asked. */
export function NotClearToDig({ ticket, today }: { ticket: Omit<DigFields, 'permit_expires_on'>; today: string }) {
  const clear = clearToDig(ticket, today);
  if (clear.clear_to_dig !== false) return null;
  return (
    <Alert color="red" variant="light" title="Not clear to dig" icon={<IconAlertTriangle aria-hidden />}>
      {clear.clear_to_dig_reason}. Do not dig until the office has a valid dig safe ticket.
    </Alert>
  );
}
