import { describe, expect, it } from 'vitest';
import { matchesUnitSearch, sortUnits, visibleUnits } from './units.list';

const unit = (id: number, code: string, unit_price: string | null, over: { description?: string; uom?: string } = {}) => ({
  id,
  code,
  description: over.description ?? `Unit ${code}`,
  uom: over.uom ?? 'EA',
  unit_price,
  family: 'F',
  type: 'T',
  action: 'A',
});
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('Unit Library list rules', () => {
  const rows = [unit(1, 'U-10', '12.50'), unit(2, 'u-9', null), unit(3, 'U-100', '9.99'), unit(4, 'A-1', '100.00'), unit(5, 'B', null)];

  it('sorts prices numerically, units without a price last in both directions', () => {
    expect(ids(sortUnits(rows, 'unit_price', 'asc'))).toEqual([3, 1, 4, 2, 5]);
    expect(ids(sortUnits(rows, 'unit_price', 'desc'))).toEqual([4, 1, 3, 2, 5]);
  });

  it('sorts codes case-insensitively with numbers in numeric order', () => {
    expect(ids(sortUnits(rows, 'code', 'asc'))).toEqual([4, 5, 2, 1, 3]);
    expect(ids(sortUnits(rows, 'code', 'desc'))).toEqual([3, 1, 2, 5, 4]);
  });

  it('searches code, description and uom, case-insensitively', () => {
    expect(matchesUnitSearch(unit(1, 'XFMR-25', null, { description: 'Transformer 25 kVA' }), 'transformer')).toBe(true);
    expect(matchesUnitSearch(unit(1, 'XFMR-25', null, { uom: 'FT' }), 'ft')).toBe(true);
    expect(matchesUnitSearch(unit(1, 'XFMR-25', null), 'pole')).toBe(false);
    expect(ids(visibleUnits(rows, 'u-1', 'code', 'asc'))).toEqual([1, 3]);
  });
});
