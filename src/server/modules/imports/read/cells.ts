import { format as formatNumber, isDateFormat } from 'numfmt';
import { toIsoDate } from '../../../../shared/dates';
import { isNoResult, isShownNumber, type CellValue } from '../../../../shared/excel';

/**
 * One cell as the person sees it (docs/product/imports.md §6 "text as shown", "formulas"): what a reader of
 * .xlsx or CSV hands the converter. A number keeps its value, and when its number format shows
 * it otherwise (a pole id 123 formatted 00000 shows 00123) the shown text travels with it; a
 * formula with no saved result is marked, so that a mapped cell holding one is refused instead of
 * read as blank or 0.
 */

/** What a reader knows of the workbook when it reads a cell. */
export interface CellContext {
  /** The 1904 date system (old Mac workbooks): serials count from 1904-01-01. */
  date1904: boolean;
  /**
   * The workbook asks to be recalculated when opened (`calcPr fullCalcOnLoad`): openpyxl and
   * xlsxwriter set it and save no result, or 0, for every formula, so none of them is trusted.
   */
  staleFormulas: boolean;
}

const NO_CONTEXT: CellContext = { date1904: false, staleFormulas: false };

/** Excel keeps 15 significant digits: 0.1 + 0.2 is shown 0.3, never 0.30000000000000004. */
export const plainNumberText = (n: number): string => String(Number(n.toPrecision(15)));

const isGeneral = (fmt: string | undefined): boolean => !fmt || /^general$/i.test(fmt.trim());

/** A number with its cell's format: the number itself, or the number with the text it shows. */
function formattedNumber(n: number, fmt: string | undefined, ctx: CellContext): CellValue {
  if (!Number.isFinite(n)) return null;
  if (isGeneral(fmt)) return n;
  if (isDateFormat(fmt!)) return serialToIsoDate(n, ctx.date1904) ?? n;
  let shown: string;
  try {
    shown = formatNumber(fmt!, n).trim();
  } catch {
    return n; // a format numfmt cannot read: the number, as General shows it
  }
  return shown === plainNumberText(n) || shown === '' ? n : { n, shown };
}

/**
 * exceljs's value of a cell → CellValue. `numFmt` is the cell's number format, `ref` its address
 * ('C7', for the refusal of a formula without result). Dates become 'YYYY-MM-DD'.
 */
export function cellOf(value: unknown, numFmt?: string, ref = '', ctx: CellContext = NO_CONTEXT): CellValue {
  if (value == null) return null;
  if (typeof value === 'number') return formattedNumber(value, numFmt, ctx);
  if (typeof value === 'string') {
    const s = value.trim();
    return s === '' ? null : s;
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return toIsoDate(value);
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return cellOf((v.richText as { text?: string }[]).map((r) => r.text ?? '').join(''));
    if ('formula' in v || 'sharedFormula' in v || 'result' in v) {
      const result = v.result;
      // No <v>, an empty <v></v> (openpyxl: exceljs reads NaN), or a book that says its results are stale.
      const missing = result === undefined || result === null || (typeof result === 'number' && Number.isNaN(result)) || result === '';
      if (missing || ctx.staleFormulas) return { noResult: ref };
      if (typeof result === 'object' && !(result instanceof Date)) return null; // { error: '#N/A' }
      return cellOf(result, numFmt, ref, ctx);
    }
    if ('hyperlink' in v || 'text' in v) return cellOf(v.text);
    // { error: '#N/A' } and anything else unknown: empty, as a person would not use it.
    return null;
  }
  return null;
}

/** The text a cell shows: a formatted number's text, a plain number without float noise. */
export function shownText(v: CellValue | undefined): string {
  if (v == null || isNoResult(v)) return '';
  if (typeof v === 'number') return plainNumberText(v);
  if (isShownNumber(v)) return v.shown;
  return v.trim();
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/;
/** In a decimal-comma file: '3,5', '0,250', '-2,' … */
const COMMA_DECIMAL = /^[-+]?\d*,\d*$/;
/** … and '1.234,5', '12.345' (points group thousands there). */
const POINT_THOUSANDS = /^[-+]?\d{1,3}(\.\d{3})+(,\d*)?$/;

/** A text that a decimal-comma reading changes: it holds a comma that is not a thousands group. */
export const hasDecimalComma = (s: string): boolean => (COMMA_DECIMAL.test(s) && /\d/.test(s)) || (POINT_THOUSANDS.test(s) && s.includes(','));

/**
 * A cell as a number: numbers as they are; text like '12', '1,250.5' or '-3' (or, in a file
 * whose decimal separator is the comma, '3,5', '3,500' = 3.5 and '1.234,5'); NaN otherwise.
 */
export function cellNumber(v: CellValue | undefined, decimalComma = false): number {
  if (typeof v === 'number') return v;
  if (isShownNumber(v)) return v.n;
  const s = shownText(v);
  if (decimalComma) {
    if (POINT_THOUSANDS.test(s)) return Number(s.replace(/\./g, '').replace(',', '.'));
    if (COMMA_DECIMAL.test(s) && /\d/.test(s)) return Number(s.replace(',', '.'));
  }
  const plain = THOUSANDS.test(s) ? s.replace(/,/g, '') : s;
  return NUMBER.test(plain) ? Number(plain) : NaN;
}

/** Largest Excel date serial (31 Dec 9999). */
const MAX_SERIAL = 2_958_465;
/** Days from 1900-01-00 to 1904-01-01 in Excel's count. */
const DAYS_1904 = 1462;

/** An Excel date serial → 'YYYY-MM-DD' (null outside Excel's dates). */
export function serialToIsoDate(serial: number, date1904 = false): string | null {
  if (!Number.isFinite(serial) || serial < 1 || serial > MAX_SERIAL) return null;
  const days = date1904 ? serial + DAYS_1904 : serial;
  return toIsoDate(new Date(Math.round((days - 25569) * 86_400_000)));
}

/** docs/product/imports.md §8: the years an imported date may have. Never a year 0027. */
export const DATE_YEARS = { min: 2000, max: 2100 } as const;

/** ISO 'YYYY-MM-DD', maybe with a time of day after it (unambiguous: the date is kept). */
const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/;
/** 'M/D/YY': a two-digit year, read as 2000 + YY (and noted on the mapping step). */
export const TWO_DIGIT_YEAR = /^\d{1,2}\/\d{1,2}\/\d{2}$/;

export type ImportDate = { ok: true; date: string } | { ok: false };

/**
 * An imported date (docs/product/imports.md §8): an Excel serial (1900 or 1904 system), a date cell (already
 * 'YYYY-MM-DD'), 'MM/DD/YYYY', 'M/D/YY' (2000 + YY) or ISO 'YYYY-MM-DD'; a year from 2000 to
 * 2100. Anything else is refused: a date is never guessed.
 */
export function importDate(v: CellValue | undefined, date1904 = false): ImportDate | null {
  if (v == null || isNoResult(v)) return null;
  // A serial: a number cell, or digits alone in a text cell (a CSV of serials).
  const n = typeof v === 'number' ? v : isShownNumber(v) ? v.n : /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v.trim()) : NaN;
  let iso: string | null = null;
  if (Number.isFinite(n)) iso = serialToIsoDate(n, date1904);
  else {
    const s = shownText(v);
    if (s === '') return null;
    const iso8601 = ISO.exec(s);
    const us = iso8601 ? null : US.exec(s);
    const parts = iso8601 ? [iso8601[1], iso8601[2], iso8601[3]] : us ? [us[3], us[1], us[2]] : null;
    if (parts) {
      const [y, mo, d] = parts;
      const year = y.length === 2 ? 2000 + Number(y) : Number(y);
      iso = toIsoDate(`${String(year).padStart(4, '0')}-${mo.padStart(2, '0')}-${d.padStart(2, '0')}`);
    }
  }
  if (!iso) return { ok: false };
  const year = Number(iso.slice(0, 4));
  return year >= DATE_YEARS.min && year <= DATE_YEARS.max ? { ok: true, date: iso } : { ok: false };
}

/** 'C7' → 'C'. */
export const columnOfRef = (ref: string): string => /^[A-Z]+/i.exec(ref)?.[0]?.toUpperCase() ?? ref;
