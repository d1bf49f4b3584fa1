import { TICKET_STATUS } from './constants';
import { dayInZone } from './dashboard';
import { isoToUs } from './dates';

/**
 * Permits and dig safe with dates, and Clear to dig (docs/product/records.md §5, docs/decisions/045). One place
 * for the rules, so that the server's replies (GET /jobs/{id}, GET /tickets/{id}, GET /work), the
 * office's ticket window and table, and a phone working from its offline copy all say the same.
 * Dates are calendar days as 'YYYY-MM-DD' text (src/shared/dates.ts), compared as text.
 */

/**
 * A company's time zone when none is known (the default of `companies.time_zone`): "today" for
 * expiry and Clear to dig is the company's calendar day, the same for the office and for a crew
 * whose phone is set to another zone. The server reads the company's zone; the web app gets it
 * with who is signed in (web/api/session.ts companyDay).
 */
export const COMPANY_TIME_ZONE = 'America/New_York';

/** 'YYYY-MM-DD' of the company's calendar day at `now`. The one "today" of these rules. */
export const companyToday = (now: Date = new Date(), timeZone: string = COMPANY_TIME_ZONE): string => dayInZone(now, timeZone);

/** A permit or dig-safe record warns this many days before it expires (docs/product/records.md §2: "within 7 days"). */
export const EXPIRY_WARN_DAYS = 7;

const dayNumber = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / 86_400_000;

/** Whole days from `today` to `day` (negative when `day` is past). */
export const daysFrom = (today: string, day: string): number => Math.round(dayNumber(day) - dayNumber(today));

/**
 * Where a record's expiry stands today. `expires_on` is the last day it is valid: expiring on
 * today is still valid today ("Expires today"), the day after it is "Expired".
 */
export type Expiry = { state: 'expired'; expires_on: string } | { state: 'expiring'; expires_on: string; days: number };

export function expiryOf(expiresOn: string | null | undefined, today: string): Expiry | null {
  if (!expiresOn) return null;
  const days = daysFrom(today, expiresOn);
  if (days < 0) return { state: 'expired', expires_on: expiresOn };
  return days <= EXPIRY_WARN_DAYS ? { state: 'expiring', expires_on: expiresOn, days } : null;
}

/** The badge's words: "Expired", "Expires today", "Expires in 1 day", "Expires in N days". */
export function expiryLabel(e: Expiry): string {
  if (e.state === 'expired') return 'Expired';
  if (e.days === 0) return 'Expires today';
  return `Expires in ${e.days} day${e.days === 1 ? '' : 's'}`;
}

/** The fields of a ticket (row or full) these rules read. */
export interface DigFields {
  status: string;
  due_date: string | null;
  dig_safe_required: number;
  dig_safe_url: string | null;
  dig_safe_number: string | null;
  dig_safe_expires_on: string | null;
  /** The earliest expiry among the ticket's permits (a row's field; the full ticket has the list). */
  permit_expires_on: string | null;
}

/**
 * The ticket's most urgent expiry among its permits and its dig-safe record (the table's badge and
 * its "Permits: expiring / expired" filter), or null. A Complete ticket has none: its work is
 * done, and every finished job's papers expire one day.
 */
export function ticketExpiry(t: Pick<DigFields, 'status' | 'permit_expires_on' | 'dig_safe_expires_on'>, today: string): Expiry | null {
  if (t.status === TICKET_STATUS.COMPLETE) return null;
  const dates = [t.permit_expires_on, t.dig_safe_expires_on].filter((d): d is string => !!d).sort();
  return expiryOf(dates[0], today);
}

/** The earliest `expires_on` of a list of permits (what a ticket row carries as `permit_expires_on`). */
export const earliestExpiry = (permits: readonly { expires_on: string | null }[]): string | null =>
  permits.reduce<string | null>((min, p) => (p.expires_on && (min === null || p.expires_on < min) ? p.expires_on : min), null);

export interface ClearToDig {
  /** true, false, or null when the question does not arise (no dig safe required, or the ticket is Complete). */
  clear_to_dig: boolean | null;
  /** Why not, in field words with the date ("Dig safe expired 11/20/2026"); null when clear. */
  clear_to_dig_reason: string | null;
}

/**
 * Clear to dig (docs/product/records.md §5): a Pending ticket with `dig_safe_required = 1` is not clear when its
 * dig-safe record is missing, has no expiry date, has expired, or expires before the ticket's due
 * date (the crew may come on any day up to it). Without a due date only today counts.
 */
export function clearToDig(t: Omit<DigFields, 'permit_expires_on'>, today: string): ClearToDig {
  // A copy kept on a phone by an earlier release has no dig-safe dates: unknown until refreshed, not "missing".
  if (t.dig_safe_required !== 1 || t.status === TICKET_STATUS.COMPLETE || t.dig_safe_expires_on === undefined) return { clear_to_dig: null, clear_to_dig_reason: null };
  const no = (reason: string): ClearToDig => ({ clear_to_dig: false, clear_to_dig_reason: reason });
  const expires = t.dig_safe_expires_on;
  if (!expires) return t.dig_safe_number || t.dig_safe_url ? no('Dig safe ticket has no expiry date') : no('No dig safe ticket');
  if (expires < today) return no(`Dig safe expired ${isoToUs(expires)}`);
  const due = t.due_date?.slice(0, 10);
  if (due && expires < due) return no(`Dig safe expires ${isoToUs(expires)}, before the due date ${isoToUs(due)}`);
  return { clear_to_dig: true, clear_to_dig_reason: null };
}
