import { describe, expect, it } from 'vitest';
import { cellNumber, cellOf, hasDecimalComma, importDate, serialToIsoDate, shownText } from './cells';

describe('cellOf: a cell as the person sees it', () => {
  it('keeps a number, with the text its format shows when that differs', () => {
    expect(cellOf(123, '00000')).toEqual({ n: 123, shown: '00123' });
    expect(cellOf(1234.5, '#,##0.00')).toEqual({ n: 1234.5, shown: '1,234.50' });
    expect(cellOf(12, '0')).toBe(12);
    expect(cellOf(12, 'General')).toBe(12);
    expect(cellOf(12)).toBe(12);
    // A date format on a number: the calendar date (1900 and 1904 systems).
    expect(cellOf(46100, 'mm/dd/yyyy')).toBe('2026-03-19');
    expect(cellOf(46100 - 1462, 'mm/dd/yyyy', 'A1', { date1904: true, staleFormulas: false })).toBe('2026-03-19');
  });

  it('marks a formula without a saved result, and any formula of a book that asks to be recalculated', () => {
    expect(cellOf({ formula: 'A2+B2' }, undefined, 'C2')).toEqual({ noResult: 'C2' });
    expect(cellOf({ formula: 'A2+B2', result: Number.NaN }, undefined, 'C2')).toEqual({ noResult: 'C2' });
    expect(cellOf({ formula: 'A2+B2', result: 0 }, undefined, 'C2', { date1904: false, staleFormulas: true })).toEqual({ noResult: 'C2' });
    expect(cellOf({ formula: 'A2+B2', result: 3 }, '000', 'C2')).toEqual({ n: 3, shown: '003' });
    expect(cellOf({ formula: 'TODAY()', result: new Date(Date.UTC(2026, 0, 2)) })).toBe('2026-01-02');
    expect(cellOf({ sharedFormula: 'A1', result: 'r' })).toBe('r');
    expect(cellOf({ formula: 'NA()', result: { error: '#N/A' } })).toBeNull();
  });

  it('normalises text, booleans, rich text and hyperlinks', () => {
    expect(cellOf('  x  ')).toBe('x');
    expect(cellOf('   ')).toBeNull();
    expect(cellOf(Number.NaN)).toBeNull();
    expect(cellOf(true)).toBe('TRUE');
    expect(cellOf({ richText: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
    expect(cellOf({ text: { richText: [{ text: 'a' }, { text: 'b' }] }, hyperlink: 'h' })).toBe('ab');
    expect(cellOf(undefined)).toBeNull();
  });
});

describe('shownText and cellNumber', () => {
  it('shows numbers without binary noise, and formatted numbers as formatted', () => {
    expect(shownText(0.1 + 0.2)).toBe('0.3');
    expect(shownText(123456789012)).toBe('123456789012');
    expect(shownText({ n: 123, shown: '00123' })).toBe('00123');
    expect(shownText({ noResult: 'C2' })).toBe('');
  });

  it('reads numbers with the point as decimal mark', () => {
    expect(cellNumber(3)).toBe(3);
    expect(cellNumber({ n: 123, shown: '00123' })).toBe(123);
    expect(cellNumber(' 2.5 ')).toBe(2.5);
    expect(cellNumber('1,000')).toBe(1000);
    expect(cellNumber('1,250.5')).toBe(1250.5);
    expect(cellNumber('-.5')).toBe(-0.5);
    expect(cellNumber('1,00')).toBeNaN();
    expect(cellNumber('12abc')).toBeNaN();
    expect(cellNumber(null)).toBeNaN();
  });

  it('reads numbers with the comma as decimal mark (a ;-separated CSV)', () => {
    expect(cellNumber('3,5', true)).toBe(3.5);
    expect(cellNumber('3,500', true)).toBe(3.5);
    expect(cellNumber('0,250', true)).toBe(0.25);
    expect(cellNumber('1.234,5', true)).toBe(1234.5);
    expect(cellNumber('12', true)).toBe(12);
    expect(cellNumber('abc', true)).toBeNaN();
    expect(hasDecimalComma('3,500')).toBe(true);
    expect(hasDecimalComma('1.234,5')).toBe(true);
    expect(hasDecimalComma('12')).toBe(false);
    expect(hasDecimalComma('P,1')).toBe(false);
  });
});

describe('importDate (docs/product/imports.md §8): never a year 0027', () => {
  const ok = (date: string) => ({ ok: true, date });
  it('reads serials, MM/DD/YYYY, M/D/YY as 20YY and ISO', () => {
    expect(importDate(46100)).toEqual(ok('2026-03-19'));
    expect(importDate('46100')).toEqual(ok('2026-03-19'));
    expect(importDate(46100 - 1462, true)).toEqual(ok('2026-03-19'));
    expect(importDate('3/9/2027')).toEqual(ok('2027-03-09'));
    expect(importDate('3/15/27')).toEqual(ok('2027-03-15'));
    expect(importDate('03/15/00')).toEqual(ok('2000-03-15'));
    expect(importDate('2027-03-09')).toEqual(ok('2027-03-09'));
    expect(importDate('2027-03-09T10:00:00Z')).toEqual(ok('2027-03-09'));
    expect(importDate(null)).toBeNull();
  });

  it('refuses other forms and years outside 2000–2100', () => {
    for (const bad of ['02/30/2027', '3/15/027', '15.03.2027', 'March 15 2027', '3/15/1999', '2101-01-01', '0027-03-15', '13/45/2027']) {
      expect(importDate(bad), bad).toEqual({ ok: false });
    }
    expect(importDate(0)).toEqual({ ok: false });
    expect(importDate(1000)).toEqual({ ok: false }); // 1902
    expect(importDate(99_999_999)).toEqual({ ok: false });
    expect(serialToIsoDate(2_958_466)).toBeNull();
  });
});
