import { describe, expect, it } from 'vitest';
import { searchTickets, ticketMatches, searchWords, type SearchableTicket } from './ticket-search';

const ticket = (over: Partial<SearchableTicket> = {}): SearchableTicket => ({
  pole_name: 'P-12',
  line_name: 'L-3',
  street_address: '41 Main St',
  work_orders: ['WO-41871', 'WO-41872'],
  unit_codes: ['ANC-8', 'XFMR-25'],
  ...over,
});

describe('ticket search (My Work and the job page, docs/product/rules.md §4.1)', () => {
  it('finds a ticket by a work order or a unit code, whatever the case', () => {
    expect(ticketMatches(ticket(), searchWords('WO-41871'))).toBe(true);
    expect(ticketMatches(ticket(), searchWords('wo-41872'))).toBe(true);
    expect(ticketMatches(ticket(), searchWords('xfmr'))).toBe(true);
    expect(ticketMatches(ticket(), searchWords('WO-99999'))).toBe(false);
  });

  it('looks in pole, line, street and job number too; every word must be somewhere, in any order', () => {
    expect(ticketMatches(ticket(), searchWords('main p-12'))).toBe(true);
    expect(ticketMatches(ticket({ job_number: 'J-7' }), searchWords('j-7 anc'))).toBe(true);
    expect(ticketMatches(ticket(), searchWords('main WO-99999'))).toBe(false);
  });

  it('never matches a word across two fields', () => {
    // "L-3" and "41 Main St" stand side by side; "3 41" as one word must not match across them.
    expect(ticketMatches(ticket(), ['l-341'])).toBe(false);
    expect(ticketMatches(ticket({ work_orders: ['WO-1'], unit_codes: ['23'] }), ['wo-123'])).toBe(false);
  });

  it('an empty search keeps every ticket, in the order given', () => {
    const rows = [ticket({ pole_name: 'B' }), ticket({ pole_name: 'A', work_orders: [] })];
    expect(searchTickets(rows, '  ')).toBe(rows);
    expect(searchTickets(rows, 'wo-41871').map((t) => t.pole_name)).toEqual(['B']);
  });

  it('searches a copy from an earlier release (no work orders or unit codes) by what it has', () => {
    const old = { pole_name: 'P-1', line_name: 'L', street_address: null } as unknown as SearchableTicket;
    expect(ticketMatches(old, searchWords('p-1'))).toBe(true);
    expect(ticketMatches(old, searchWords('wo'))).toBe(false);
  });
});
