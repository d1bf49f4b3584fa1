/**
 * The one rule of a ticket text search (docs/product/rules.md §4.1, decision 039), for My Work (src/web/features/work/
 * workList.ts) and the job page's ticket table (src/web/features/tickets/useTicketRows.ts):
 * utilities and crews name work by its work order or its unit, so the search looks in the pole,
 * line, street, work orders and the tasks' unit codes (and the job number where the list has one).
 * Case-insensitive; every word of the search must be somewhere in the ticket ('wo-41871 main'),
 * in any order.
 */
export interface SearchableTicket {
  pole_name: string | null;
  line_name: string | null;
  street_address: string | null;
  work_orders: readonly string[];
  unit_codes: readonly string[];
  job_number?: string;
}

/** The words of a search, lower-cased; none = everything matches. */
export const searchWords = (search: string): string[] => search.toLowerCase().split(/\s+/).filter(Boolean);

/**
 * What a search looks in, lower-cased and joined by a character no one types ('\u0001'), so that
 * a word never matches across two fields. Built once per row object and kept, so a keystroke over
 * a 5,000-ticket job only scans strings already made.
 */
const texts = new WeakMap<object, string>();
export function ticketSearchText(t: SearchableTicket): string {
  let text = texts.get(t);
  if (text === undefined) {
    // A copy kept on a phone by an earlier release has no work orders or unit codes: it is
    // searched by what it has until the next refresh replaces it.
    text = [t.pole_name, t.line_name, t.street_address, t.job_number, ...(t.work_orders ?? []), ...(t.unit_codes ?? [])]
      .filter((v): v is string => !!v)
      .join('\u0001')
      .toLowerCase();
    texts.set(t, text);
  }
  return text;
}

/** True when every word is in the ticket's search text (no words: true). */
export function ticketMatches(t: SearchableTicket, words: readonly string[]): boolean {
  if (words.length === 0) return true;
  const text = ticketSearchText(t);
  return words.every((w) => text.includes(w));
}

/** The tickets that match a search, in the order given. */
export function searchTickets<T extends SearchableTicket>(rows: readonly T[], search: string): readonly T[] {
  const words = searchWords(search);
  return words.length === 0 ? rows : rows.filter((t) => ticketMatches(t, words));
}
