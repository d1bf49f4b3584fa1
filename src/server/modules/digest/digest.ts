import { addDays, dayInZone } from '../../../shared/dashboard';
import { isoToUs } from '../../../shared/dates';
import { ROLE, TICKET_STATUS } from '../../../shared/constants';
import { clearToDig } from '../../../shared/dig-safe';
import type { DigestPerson, DigestRow } from './digest.repository';

/** The digest goes out at 06:00 on the company's clock (docs/product/records.md §3). */
export const DIGEST_HOUR = 6;
/** "Expiring" means within this many days from today, today included. */
export const DIGEST_HORIZON_DAYS = 7;

/**
 * The company's calendar day at `now`, and whether its digest is due: at or after 06:00 there.
 * Intl's zone rules place 06:00 right on days when the clocks change (America/New_York: 10:00 UTC
 * on 2026-03-08, 11:00 UTC on 2026-11-01); any later time that day is due too, so a process that
 * starts at 09:00 still sends the day's digest.
 */
export function digestClock(now: Date, timeZone: string): { day: string; due: boolean } {
  const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
  return { day: dayInZone(now, timeZone), due: hour >= DIGEST_HOUR };
}

/** One line of a digest. */
export interface DigestItem {
  ticket_id: number;
  job_number: string;
  pole: string;
  /** What is wrong and when: "Permit 4411 (Road opening) expires 11/30/2026 (in 4 days)". */
  text: string;
}

export interface DigestLists {
  permits_expiring: DigestItem[];
  permits_expired: DigestItem[];
  dig_safe_expiring: DigestItem[];
  not_clear_to_dig: DigestItem[];
  overdue: DigestItem[];
}

/** The headings of the lists, in the order the e-mail shows them. */
export const DIGEST_SECTIONS: [keyof DigestLists, string][] = [
  ['not_clear_to_dig', 'Not clear to dig'],
  ['permits_expired', 'Permits expired'],
  ['permits_expiring', `Permits expiring within ${DIGEST_HORIZON_DAYS} days`],
  ['dig_safe_expiring', `Dig safe expiring within ${DIGEST_HORIZON_DAYS} days`],
  ['overdue', 'Overdue tickets'],
];

const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const inDays = (n: number) => (n === 0 ? 'today' : n === 1 ? 'tomorrow' : `in ${n} days`);

function itemOf(row: DigestRow, text: string): DigestItem {
  const pole = [row.pole_name, row.line_name].filter(Boolean).join(' / ') || `Ticket ${row.ticket_id}`;
  return { ticket_id: row.ticket_id, job_number: row.job_number, pole, text };
}

/** The rows of the repository sorted into the digest's lists, worded for a person. */
export function digestLists(rows: readonly DigestRow[], today: string): DigestLists {
  const lists: DigestLists = { permits_expiring: [], permits_expired: [], dig_safe_expiring: [], not_clear_to_dig: [], overdue: [] };
  const horizon = addDays(today, DIGEST_HORIZON_DAYS);
  for (const row of rows) {
    if (row.kind === 'overdue') {
      lists.overdue.push(itemOf(row, `Due ${isoToUs(row.due_date)} (${daysBetween(row.due_date!, today)} days overdue)`));
    } else if (row.kind === 'permit' && row.expires_on) {
      const name = `Permit${row.number ? ` ${row.number}` : ''}${row.permit_type ? ` (${row.permit_type})` : ''}`;
      if (row.expires_on < today) lists.permits_expired.push(itemOf(row, `${name} expired ${isoToUs(row.expires_on)}`));
      else lists.permits_expiring.push(itemOf(row, `${name} expires ${isoToUs(row.expires_on)} (${inDays(daysBetween(today, row.expires_on))})`));
    } else if (row.kind === 'dig_safe') {
      // The one rule of Clear to dig (src/shared/dig-safe.ts), as the ticket table and the phone read it.
      const { clear_to_dig_reason: reason } = clearToDig(
        { status: TICKET_STATUS.PENDING, due_date: row.due_date, dig_safe_required: 1, dig_safe_url: row.document_url, dig_safe_number: row.number, dig_safe_expires_on: row.expires_on },
        today,
      );
      if (reason) lists.not_clear_to_dig.push(itemOf(row, reason));
      else if (row.expires_on && row.expires_on <= horizon) {
        const name = `Dig safe${row.number ? ` ${row.number}` : ''}`;
        lists.dig_safe_expiring.push(itemOf(row, `${name} expires ${isoToUs(row.expires_on)} (${inDays(daysBetween(today, row.expires_on))})`));
      }
    }
  }
  return lists;
}

/**
 * Each person's digest: office roles (1–2) get every job's rows, a foreman his own jobs' rows
 * (docs/product/records.md). People whose lists would be empty get nothing.
 */
export function digestsFor(people: readonly DigestPerson[], rows: readonly DigestRow[], today: string): { person: DigestPerson; lists: DigestLists }[] {
  const out: { person: DigestPerson; lists: DigestLists }[] = [];
  for (const person of people) {
    const office = person.role_id === ROLE.ADMIN || person.role_id === ROLE.OFFICE_MANAGER;
    const lists = digestLists(office ? rows : rows.filter((r) => r.foreman_id === person.id), today);
    if (DIGEST_SECTIONS.some(([key]) => lists[key].length > 0)) out.push({ person, lists });
  }
  return out;
}

/** The e-mail of one digest: plain text, grouped by list and then by job. */
export function digestMail(company: string, today: string, person: DigestPerson, lists: DigestLists, publicUrl: string): { subject: string; text: string } {
  const counts = DIGEST_SECTIONS.filter(([key]) => lists[key].length > 0).map(([key, title]) => `${lists[key].length} ${title.toLowerCase()}`);
  const parts = [`Hello ${person.first_name},`, '', `What needs attention at ${company} on ${isoToUs(today)}:`];
  for (const [key, title] of DIGEST_SECTIONS) {
    const items = lists[key];
    if (items.length === 0) continue;
    parts.push('', `${title} (${items.length})`);
    for (const item of items) parts.push(`- Job ${item.job_number}, ${item.pole}: ${item.text}`);
  }
  parts.push('', `Open Linecrew: ${publicUrl}/work`, '', 'You get this e-mail each morning when something on your jobs needs attention.');
  return { subject: `Linecrew daily digest ${isoToUs(today)}: ${counts.join(', ')}`, text: `${parts.join('\n')}\n` };
}
