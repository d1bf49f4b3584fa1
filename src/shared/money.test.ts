import { describe, expect, it } from 'vitest';
import { amountOf, formatMoney, money, parsePrice, sumMoney } from './money';

describe('money', () => {
  it('adds decimals exactly', () => {
    expect(sumMoney(['0.10', '0.20'])).toBe('0.30');
    expect(amountOf(0.1 + 0.2, '10.00')).toBe('3.00');
    expect(amountOf(3, '0.10')).toBe('0.30');
  });
  it('rounds half up to the cent and counts an unpriced unit as 0', () => {
    expect(amountOf(0.125, '1.00')).toBe('0.13');
    expect(amountOf(-2, '1.25')).toBe('-2.50');
    expect(amountOf(5, null)).toBe('0.00');
    expect(money(2)).toBe('2.00');
  });
  it('reads prices people type and refuses what is not a price', () => {
    expect(parsePrice('$1,234.5')).toEqual({ ok: true, value: '1234.50' });
    expect(parsePrice('  ')).toEqual({ ok: true, value: null });
    expect(parsePrice(12)).toEqual({ ok: true, value: '12.00' });
    expect(parsePrice('1.005')).toEqual({ ok: false, message: 'Price can have at most two decimals.' });
    expect(parsePrice('-3')).toMatchObject({ ok: false });
    expect(parsePrice('12abc')).toMatchObject({ ok: false });
    expect(parsePrice('1e3')).toMatchObject({ ok: false });
    expect(parsePrice('1000000000000')).toEqual({ ok: false, message: 'Price is too large.' });
  });
  it('formats for people', () => {
    expect(formatMoney('1234.5')).toBe('$1,234.50');
    expect(formatMoney('-2.5')).toBe('−$2.50');
    expect(formatMoney('0.00', 'EUR')).toBe('EUR 0.00');
  });
});
