import { LIMITS } from '../../../shared/constants';
import { excelSerialToIsoDate, toIsoDate } from '../../../shared/dates';
import {
  LIBRARY_TARGETS,
  LIBRARY_TARGET_INFO,
  TICKET_TARGETS,
  TICKET_TARGET_INFO,
  isMapped,
  missingMappings,
  overrideFor,
  truncateDecimals,
  type CellValue,
  type ImportError,
  type JobOverrides,
  type LibraryMappings,
  type LibraryTarget,
  type ParsedSheet,
  type ParsedWorkbook,
  type TicketDraft,
  type TicketTarget,
  type TicketsMappings,
  type UnitDraft,
  type WorkbookImport,
} from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { parsePrice } from '../../../shared/money';

/**
 * A parsed workbook + the saved column mapping → ticket and unit drafts (DESIGN §4). Pass
 * `libraryMappings = null` for a tickets-only sheet (a CSV, the spreadsheet upload of a job). Pure and
 * single-pass: 10,000 rows convert in a few milliseconds (bench/excel-import.ts). Every problem
 * is reported with the Excel row number the user sees; the caller rejects the whole save if
 * there is any, so nothing is written.
 */

/** Stop collecting after this many; the message shows the first few and a count. */
const MAX_ERRORS = 200;
/** Largest Excel date serial (31 Dec 9999). */
const MAX_SERIAL = 2_958_465;

const text = (v: CellValue | undefined): string => (v == null ? '' : typeof v === 'number' ? String(v) : v.trim());
const orNull = (s: string): string | null => (s === '' ? null : s);

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const THOUSANDS = /^[-+]?\d{1,3}(,\d{3})+(\.\d*)?$/;

/** A cell as a number: numbers as they are, text like '12', '1,250.5' or '-3'; NaN otherwise. */
export function cellNumber(v: CellValue | undefined): number {
  if (typeof v === 'number') return v;
  const s = text(v);
  const plain = THOUSANDS.test(s) ? s.replace(/,/g, '') : s;
  return NUMBER.test(plain) ? Number(plain) : NaN;
}

/** Due date cell: Excel serial, 'MM/DD/YYYY', ISO (already 'YYYY-MM-DD' for date cells). */
export function cellDate(v: CellValue | undefined): string | null {
  if (v == null || v === '') return null;
  const n = cellNumber(v);
  if (Number.isFinite(n)) return n >= 1 && n <= MAX_SERIAL ? excelSerialToIsoDate(n) : null;
  return toIsoDate(v);
}

const WORK_ORDER_SPLIT = /[\r\n,;]+/;

/** Text of column `i` (or '' when unmapped), cut to the short-text limit for optional fields. */
function cut(cells: CellValue[], i: number): string {
  return i < 0 ? '' : text(cells[i]).slice(0, LIMITS.shortTextMax);
}

/** Text of column `i`; longer than `max` is an error of the row. */
function limited(cells: CellValue[], i: number, t: TicketTarget, max: number, row: number, rowErrors: string[]): string {
  if (i < 0) return '';
  const s = text(cells[i]);
  if (s.length > max) rowErrors.push(MSG.excelRowTooLong(row, TICKET_TARGET_INFO[t].label, max));
  return s;
}

/** Latitude/longitude: empty → null; not a number or out of ±limit → error; else cut to 6 decimals. */
function coordinate(cells: CellValue[], i: number, t: 'geo_lat' | 'geo_lon', limit: number, row: number, rowErrors: string[]): number | null {
  const raw = i < 0 ? '' : text(cells[i]);
  if (raw === '') return null;
  const n = cellNumber(cells[i]);
  const label = TICKET_TARGET_INFO[t].label;
  if (!Number.isFinite(n)) rowErrors.push(MSG.excelRowBadNumber(row, label, raw));
  else if (n < -limit || n > limit) rowErrors.push(MSG.excelRowOutOfRange(row, label, raw, -limit, limit));
  else return truncateDecimals(n, LIMITS.geoDecimals);
  return null;
}

/** target → column index in the sheet; mapped columns that are not there are errors. */
function resolveColumns<T extends string>(
  sheet: ParsedSheet | null,
  targets: readonly T[],
  mappings: Partial<Record<T, string | null | undefined>>,
  labels: Record<T, { label: string }>,
  skip: (t: T) => boolean,
  sheetKind: ImportError['sheet'],
  errors: ImportError[],
): Partial<Record<T, number>> {
  const columns = sheet?.columns ?? [];
  const lower = columns.map((c) => c.toLowerCase());
  const out: Partial<Record<T, number>> = {};
  for (const t of targets) {
    const col = mappings[t];
    if (skip(t) || !isMapped(col)) continue;
    let i = columns.indexOf(col);
    if (i < 0) i = lower.indexOf(col.trim().toLowerCase());
    if (i < 0) errors.push({ row: sheet?.headerRow ?? 0, sheet: sheetKind, message: MSG.excelColumnMissing(col, labels[t].label) });
    else out[t] = i;
  }
  return out;
}

export function workbookToImport(
  parsed: ParsedWorkbook,
  ticketsMappings: TicketsMappings,
  libraryMappings: LibraryMappings | null,
  overrides?: JobOverrides | null,
): WorkbookImport {
  const errors: ImportError[] = [];
  const missing = missingMappings(ticketsMappings, libraryMappings ?? {});
  // Without library mappings (a tickets-only spreadsheet upload) only the ticket targets count.
  if (!libraryMappings) missing.library = [];
  if (missing.tickets.length || missing.library.length) {
    const labels = [
      ...missing.tickets.map((t) => TICKET_TARGET_INFO[t].label),
      ...missing.library.map((t) => `Unit Library ${LIBRARY_TARGET_INFO[t].label}`),
    ].join(', ');
    return { tickets: [], library: [], errors: [{ row: 0, sheet: missing.tickets.length ? 'tickets' : 'library', message: MSG.excelMappingIncomplete(labels) }] };
  }

  const overridden = {
    arc_rating: overrideFor('arc_rating', overrides),
    primary_voltage: overrideFor('primary_voltage', overrides),
    secondary_voltage: overrideFor('secondary_voltage', overrides),
  };
  const tc = resolveColumns<TicketTarget>(
    parsed.tickets,
    TICKET_TARGETS,
    ticketsMappings,
    TICKET_TARGET_INFO,
    (t) => overrideFor(t, overrides) !== null,
    'tickets',
    errors,
  );
  const lc = libraryMappings
    ? resolveColumns<LibraryTarget>(parsed.library, LIBRARY_TARGETS, libraryMappings, LIBRARY_TARGET_INFO, () => false, 'library', errors)
    : {};
  if (errors.length) return { tickets: [], library: [], errors };

  const ehasp = isMapped(overrides?.ehasp_override) ? overrides.ehasp_override.trim() : null;
  const byKey = new Map<string, TicketDraft>();
  const workOrderSets = new Map<TicketDraft, Set<string>>();
  const push = (e: ImportError) => {
    if (errors.length < MAX_ERRORS) errors.push(e);
  };
  // Column index per target, -1 when not mapped (or overridden). Plain locals: this loop runs
  // once per row of a sheet that may have tens of thousands of rows.
  const col = (t: TicketTarget) => tc[t] ?? -1;
  const [iWo, iPole, iLine, iPoleId, iLineId, iDue, iLat, iLon, iPrim, iSec, iArc, iStreet, iUnit, iDesc, iQty] = TICKET_TARGETS.map(col);

  for (const { row, cells } of parsed.tickets.rows) {
    const rowErrors: string[] = [];
    const poleName = limited(cells, iPole, 'pole', LIMITS.shortTextMax, row, rowErrors);
    const lineName = limited(cells, iLine, 'line', LIMITS.shortTextMax, row, rowErrors);
    const code = limited(cells, iUnit, 'unit_task', LIMITS.shortTextMax, row, rowErrors);
    const description = limited(cells, iDesc, 'desc', LIMITS.textMax, row, rowErrors);
    if (!poleName) rowErrors.push(MSG.excelRowMissingPole(row));
    if (!code) rowErrors.push(MSG.excelRowMissingUnit(row));

    let qty = 0;
    const qtyText = iQty < 0 ? '' : text(cells[iQty]);
    if (qtyText !== '') {
      qty = cellNumber(cells[iQty]);
      if (!Number.isFinite(qty)) rowErrors.push(MSG.excelRowBadNumber(row, TICKET_TARGET_INFO.qty.label, qtyText));
      else if (qty < 0) rowErrors.push(MSG.excelRowNegativeQty(row, qtyText));
    }
    const lat = coordinate(cells, iLat, 'geo_lat', 90, row, rowErrors);
    const lon = coordinate(cells, iLon, 'geo_lon', 180, row, rowErrors);

    let due: string | null = null;
    const dueText = iDue < 0 ? '' : text(cells[iDue]);
    if (dueText !== '') {
      due = cellDate(cells[iDue]);
      if (!due) rowErrors.push(MSG.excelRowBadDate(row, dueText));
    }

    const woText = limited(cells, iWo, 'work_order', LIMITS.textMax, row, rowErrors);
    const workOrders = woText === '' ? [] : woText.split(WORK_ORDER_SPLIT).map((w) => w.trim()).filter(Boolean);
    if (workOrders.some((w) => w.length > LIMITS.shortTextMax)) {
      rowErrors.push(MSG.excelRowTooLong(row, TICKET_TARGET_INFO.work_order.label, LIMITS.shortTextMax));
    }
    const street = orNull(limited(cells, iStreet, 'street', LIMITS.textMax, row, rowErrors));

    if (rowErrors.length) {
      for (const message of rowErrors) push({ row, sheet: 'tickets', message });
      continue;
    }

    const key = `${poleName.toLowerCase()}\u0000${lineName.toLowerCase()}`;
    let ticket = byKey.get(key);
    if (!ticket) {
      ticket = {
        key,
        row,
        pole: {
          pole_name: poleName,
          line_name: lineName,
          pole_id: null,
          line_id: null,
          street_address: null,
          geo_lat: null,
          geo_lon: null,
          primary_voltage: overridden.primary_voltage,
          secondary_voltage: overridden.secondary_voltage,
          arc_rating: overridden.arc_rating,
        },
        street_address: null,
        geo_lat: null,
        geo_lon: null,
        due_date: null,
        ehasp,
        work_orders: [],
        tasks: [],
      };
      byKey.set(key, ticket);
      workOrderSets.set(ticket, new Set());
    }
    // Rows of one pole normally repeat its details; the first non-empty value wins.
    const p = ticket.pole;
    p.pole_id ??= orNull(cut(cells, iPoleId));
    p.line_id ??= orNull(cut(cells, iLineId));
    p.street_address ??= street;
    p.geo_lat ??= lat;
    p.geo_lon ??= lon;
    p.primary_voltage ??= orNull(cut(cells, iPrim));
    p.secondary_voltage ??= orNull(cut(cells, iSec));
    p.arc_rating ??= orNull(cut(cells, iArc));
    ticket.street_address ??= street;
    ticket.geo_lat ??= lat;
    ticket.geo_lon ??= lon;
    ticket.due_date ??= due;
    if (workOrders.length) {
      const seen = workOrderSets.get(ticket)!;
      for (const w of workOrders) {
        if (!seen.has(w)) {
          seen.add(w);
          ticket.work_orders.push(w);
        }
      }
    }
    ticket.tasks.push({ code, description, qty, row });
  }

  const units = new Map<string, UnitDraft>();
  const fail = (row: number, message: string) => push({ row, sheet: 'library', message });
  for (const { row, cells } of (libraryMappings && parsed.library?.rows) || []) {
    let tooLong = false;
    const str = (t: LibraryTarget) => {
      const max = t === 'desc' || t === 'notes' ? LIMITS.textMax : LIMITS.shortTextMax;
      const s = lc[t] === undefined ? '' : text(cells[lc[t]!]);
      if (s.length > max) {
        fail(row, MSG.excelLibraryRowTooLong(row, LIBRARY_TARGET_INFO[t].label, max));
        tooLong = true;
      }
      return s;
    };
    const unit: UnitDraft = {
      code: str('code'),
      description: str('desc'),
      family: str('family'),
      type: str('type'),
      action: str('action'),
      uom: str('uom'),
      notes: str('notes'),
      unit_price: null,
      row,
    };
    let badPrice = false;
    if (lc.unit_price !== undefined) {
      const price = parsePrice(text(cells[lc.unit_price]));
      if (price.ok) unit.unit_price = price.value;
      else {
        fail(row, MSG.excelLibraryRowBadPrice(row, price.message));
        badPrice = true;
      }
    }
    if (!unit.code) {
      // A row that only has text in unmapped columns (a footnote, a total) is not a unit.
      if (unit.description || unit.family || unit.type || unit.action || unit.uom || unit.notes) fail(row, MSG.excelLibraryRowMissingCode(row));
      continue;
    }
    if (tooLong || badPrice) continue;
    units.delete(unit.code); // last wins, in the position where it last appeared
    units.set(unit.code, unit);
  }

  return { tickets: [...byKey.values()], library: [...units.values()], errors };
}
