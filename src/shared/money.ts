import Big from 'big.js';

/**
 * Money in Linecrew (docs/product/billing.md §1): exact decimals, never binary floats. On the wire and in
 * PostgreSQL (`numeric`) an amount is a string with two decimals ("1234.50"); arithmetic goes
 * through big.js so that 0.1 + 0.2 is 0.30. Quantities stay numbers (as everywhere else) and are
 * read through their shortest decimal form, so 0.1 is exactly 0.1 here.
 */

export type Money = string;

export const ZERO: Money = '0.00';

/** Largest unit price the column holds: numeric(14, 2). */
export const MAX_UNIT_PRICE = '999999999999.99';

/** Exactly two decimals, rounded half up (the way an invoice rounds). */
export function money(value: Big | number | string): Money {
  return new Big(value).round(2, Big.roundHalfUp).toFixed(2);
}

/** quantity × price, rounded to the cent; a unit without a price counts 0 (docs/product/billing.md §2). */
export function amountOf(quantity: number, unitPrice: Money | null): Money {
  if (unitPrice == null) return ZERO;
  return money(new Big(quantity).times(unitPrice));
}

export function sumMoney(values: Iterable<Money>): Money {
  let total = new Big(0);
  for (const value of values) total = total.plus(value);
  return money(total);
}

/**
 * A price typed by a person ("12", "12.5", "$1,234.50", " 3.333 ") → "1234.50", or an error
 * message they can act on. Empty means "no price" (null). More than two decimals is refused
 * rather than silently rounded: a price is what the utility pays, to the cent.
 */
export function parsePrice(input: string | number | null | undefined): { ok: true; value: Money | null } | { ok: false; message: string } {
  if (input == null) return { ok: true, value: null };
  const text = String(input).trim().replace(/^\$/, '').replace(/,/g, '').trim();
  if (text === '') return { ok: true, value: null };
  if (!/^\d+(\.\d+)?$/.test(text)) return { ok: false, message: 'Price must be a number of dollars and cents, like 12.50.' };
  const value = new Big(text);
  if (value.round(2, Big.roundDown).cmp(value) !== 0) return { ok: false, message: 'Price can have at most two decimals.' };
  if (value.gt(MAX_UNIT_PRICE)) return { ok: false, message: 'Price is too large.' };
  return { ok: true, value: money(value) };
}

/** "1234.5" → "$1,234.50" for people; the wire keeps the plain decimal string. */
export function formatMoney(value: Money, currency = 'USD'): string {
  const big = new Big(value);
  const [whole, cents] = big.abs().toFixed(2).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  return `${big.lt(0) ? '−' : ''}${symbol}${grouped}.${cents}`;
}
