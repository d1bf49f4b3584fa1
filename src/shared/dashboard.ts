/**
 * The dashboard's calendar (docs/product/billing.md §6 dashboard, decision 026): weeks start on Monday and are
 * read on the company's calendar (companies.time_zone), so a ticket completed late on Sunday
 * evening in Massachusetts counts in that week, not in the next one as it would in UTC. Days are
 * 'YYYY-MM-DD' text, the same form as a ticket's due_date, so comparing them is comparing text.
 */

/** How many weeks the "Completed amount per week" chart shows, the current one included. */
export const DASHBOARD_WEEKS = 12;

const DAY_MS = 86_400_000;

// One formatter per zone: making one costs far more than using it (a list of rows asks per row).
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day ('YYYY-MM-DD') of an instant in an IANA time zone. */
export function dayInZone(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  // en-CA formats as YYYY-MM-DD; formatToParts keeps it independent of that locale detail.
  if (!format) dayFormats.set(timeZone, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  const parts = format.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** `day` moved by `n` calendar days (no time zone involved: a day is a day). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the week `day` falls in. */
export function weekStartOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The Mondays of the last `count` weeks, the week of `today` last (oldest first, as a chart reads). */
export function lastWeekStarts(today: string, count = DASHBOARD_WEEKS): string[] {
  const current = weekStartOf(today);
  return Array.from({ length: count }, (_, i) => addDays(current, -7 * (count - 1 - i)));
}
