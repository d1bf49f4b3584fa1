import { describe, expect, it } from 'vitest';
import { cachedTextKey, sortTextValues, sortTickets, textKey, TICKET_SORT_COLUMNS, warmTicketSortKeys, type TicketSortRow } from './sorting';

const row = (id: number, over: Partial<TicketSortRow> = {}): TicketSortRow => ({
  id,
  pole_name: null,
  line_name: null,
  assigned_to_name: null,
  geo_lat: null,
  geo_lon: null,
  street_address: null,
  dig_safe_required: 0,
  dig_safe_url: null,
  nra_required: 0,
  nra_url: null,
  status: 'Pending',
  created_date: null,
  actual_completion_date: null,
  due_date: null,
  ...over,
});
const ids = (rows: TicketSortRow[]) => rows.map((r) => r.id);

describe('ticket table sorting (docs/product/rules.md §4.2)', () => {
  it('sorts due dates as dates with empty and invalid values last in both directions', () => {
    const rows = [
      row(1, { due_date: '2026-03-01' }),
      row(2, { due_date: '' }),
      row(3, { due_date: '2025-12-31' }),
      row(4, { due_date: 'not a date' }),
      row(5, { due_date: '2026-01-15' }),
    ];
    expect(ids(sortTickets(rows, 'due_date', 'asc'))).toEqual([3, 5, 1, 2, 4]);
    expect(ids(sortTickets(rows, 'due_date', 'desc'))).toEqual([1, 5, 3, 2, 4]);
  });

  it('sorts the Work Order column as text, numbers as numbers, none first ascending (docs/product/rules.md §4.4)', () => {
    const rows = [row(1, { work_orders: ['WO-10'] }), row(2, { work_orders: [] }), row(3, { work_orders: ['wo-9', 'WO-11'] }), row(4)];
    expect(ids(sortTickets(rows, 'work_orders', 'asc'))).toEqual([2, 4, 3, 1]);
    expect(ids(sortTickets(rows, 'work_orders', 'desc'))).toEqual([1, 3, 2, 4]);
  });

  it('sorts the dig-safe and NRA flags numerically, a present document after a missing one', () => {
    const rows = [
      row(1, { nra_required: 1, nra_url: '/files/a.pdf' }),
      row(2, { nra_required: 0 }),
      row(3, { nra_required: 1 }),
      row(4, { dig_safe_required: 1 }),
    ];
    expect(ids(sortTickets(rows, 'nra_required', 'asc'))).toEqual([2, 4, 3, 1]);
    expect(ids(sortTickets(rows, 'nra_required', 'desc'))).toEqual([1, 3, 2, 4]);
    expect(ids(sortTickets(rows, 'dig_safe_required', 'desc'))).toEqual([4, 1, 2, 3]);
  });

  it('sorts text case-insensitively, numbers inside text in numeric order, ties by id', () => {
    const rows = [row(1, { pole_name: 'b' }), row(2, { pole_name: 'A' }), row(3, { pole_name: 'a' }), row(4, { pole_name: '10' }), row(5, { pole_name: '9' })];
    expect(ids(sortTickets(rows, 'pole_name', 'asc'))).toEqual([5, 4, 2, 3, 1]);
    expect(ids(sortTickets(rows, 'pole_name', 'desc'))).toEqual([1, 2, 3, 4, 5]);
  });

  it('sorts GPS by whether coordinates exist and leaves the input untouched', () => {
    const rows = [row(1, { geo_lat: 42.1, geo_lon: -72.5 }), row(2), row(3, { geo_lat: 42.2, geo_lon: null })];
    expect(ids(sortTickets(rows, 'gps', 'asc'))).toEqual([2, 3, 1]);
    expect(ids(rows)).toEqual([1, 2, 3]);
  });

  it('sorts completion dates as dates with incomplete tickets last', () => {
    const rows = [row(1), row(2, { actual_completion_date: '2026-02-01T10:00:00Z' }), row(3, { actual_completion_date: '2026-01-01T10:00:00Z' })];
    expect(ids(sortTickets(rows, 'actual_completion_date', 'asc'))).toEqual([3, 2, 1]);
    expect(ids(sortTickets(rows, 'actual_completion_date', 'desc'))).toEqual([2, 3, 1]);
  });

  it('sorts 5,000 tickets quickly enough to feel instant', () => {
    const many = Array.from({ length: 5000 }, (_, i) => row(i + 1, { pole_name: String((i * 7919) % 5000), due_date: i % 10 ? `2026-01-${String((i % 28) + 1).padStart(2, '0')}` : null }));
    const t0 = performance.now();
    sortTickets(many, 'pole_name', 'asc');
    sortTickets(many, 'due_date', 'desc');
    const ms = performance.now() - t0;
    expect(ms).toBeGreaterThanOrEqual(0); // measured for the report, not asserted (docs/product/platform.md §4)
    console.info(`sorting 5,000 tickets twice: ${ms.toFixed(1)} ms`);
  });

  it('orders filter values as the text column sorts: case-insensitive, numbers in numeric order, equal keys as given', () => {
    expect(sortTextValues(['P-10', 'p-9', 'Line B', 'line a', 'P-9', '100', '20'])).toEqual(['20', '100', 'line a', 'Line B', 'p-9', 'P-9', 'P-10']);
    expect(sortTextValues(new Set<string>())).toEqual([]);
  });

  it('prepares the sort keys a slice at a time, going on where it stopped, without changing any order', () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(i + 1, { pole_name: `P-${(i * 5) % 7}`, street_address: `${i} Main St` }));
    const slices: ({ column: number; row: number } | null)[] = [];
    let at: { column: number; row: number } | null = { column: 0, row: 0 };
    while (at) slices.push((at = warmTicketSortKeys(rows, at, 5)));
    // 7 rows × 12 columns, 5 at a time: 17 slices, the last answering null (done).
    expect(slices).toHaveLength(Math.ceil((7 * TICKET_SORT_COLUMNS.length) / 5));
    expect(slices[0]).toEqual({ column: 0, row: 5 });
    expect(slices[1]).toEqual({ column: 1, row: 3 });
    expect(slices.at(-1)).toBeNull();
    expect(ids(sortTickets(rows, 'pole_name', 'asc'))).toEqual([1, 4, 7, 3, 6, 2, 5]);
    expect(warmTicketSortKeys(rows)).toBeNull();
  });

  it('keys text as the collator orders everyday text: lower case, digit runs without leading zeros padded to 16', () => {
    // The rule as first written (a regex per digit run), against which the one-pass version is checked.
    const byRegex = (v: string) => v.toLowerCase().replace(/\d+/g, (d) => d.replace(/^0+(?=\d)/, '').padStart(16, '0'));
    const samples = ['', 'P-9', 'p-10', 'L 007 b', '0', '000', '12345678901234567890', 'Main St 12A', '1-2-3', 'ÉCOLE 5', 'x0y00z', '9', 'abc'];
    for (const s of samples) {
      expect(textKey(s)).toBe(byRegex(s));
      expect(cachedTextKey(s)).toBe(byRegex(s));
    }
    expect(textKey(null)).toBe('');
    expect(textKey(42)).toBe('0000000000000042');
    expect(cachedTextKey(null)).toBe('');
  });
});
