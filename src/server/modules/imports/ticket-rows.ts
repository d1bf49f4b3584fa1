import { LIMITS } from '../../../shared/constants';
import {
  TICKET_TARGETS,
  TICKET_TARGET_INFO,
  isMapped,
  isNoResult,
  isShownNumber,
  overrideFor,
  type CellValue,
  type ImportError,
  type JobOverrides,
  type ParsedSheet,
  type PoleDraft,
  type TicketDraft,
  type TicketTarget,
} from '../../../shared/excel';
import { truncateDecimals } from '../../../shared/geo';
import { MSG } from '../../../shared/messages';
import { normalizeCode } from '../../../shared/names';
import { MAX_TASK_QTY } from '../../../shared/tasks';
import { cellNumber, columnOfRef, importDate, shownText } from './read/cells';

/**
 * The tickets sheet's rows → ticket drafts, one row at a time (TicketRows), and a continuation
 * folded into what it continues (mergeContinued): what convert.ts's conversion runs per row,
 * the whole sheet at once or streamed by the workbook worker.
 */

/** Stop collecting after this many; the message shows the first few and a count. */
export const MAX_ERRORS = 200;

/** Text targets take the text the cell shows (docs/product/imports.md): '00123' for 123 formatted 00000. */
export const text = shownText;
const orNull = (s: string): string | null => (s === '' ? null : s);

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

/**
 * Latitude/longitude: empty → null; not a number or out of ±limit → error; else cut to 6
 * decimals. A comma in a file whose decimal mark is the point is never a thousands group here.
 */
function coordinate(
  cells: CellValue[],
  i: number,
  t: 'geo_lat' | 'geo_lon',
  limit: number,
  row: number,
  rowErrors: string[],
  decimalComma: boolean,
): number | null {
  const raw = i < 0 ? '' : text(cells[i]);
  if (raw === '') return null;
  const label = TICKET_TARGET_INFO[t].label;
  const numeric = typeof cells[i] === 'number' || isShownNumber(cells[i]);
  if (!numeric && !decimalComma && raw.includes(',')) {
    rowErrors.push(MSG.excelRowCoordinateComma(row, label, raw));
    return null;
  }
  const n = cellNumber(cells[i], decimalComma);
  if (!Number.isFinite(n)) rowErrors.push(MSG.excelRowBadNumber(row, label, raw));
  else if (n < -limit || n > limit) rowErrors.push(MSG.excelRowOutOfRange(row, label, raw, -limit, limit));
  else return truncateDecimals(n, LIMITS.geoDecimals);
  return null;
}


/** The fields of a pole that a later row of it fills when they are still blank. */
const POLE_FILLS = ['pole_id', 'line_id', 'street_address', 'geo_lat', 'geo_lon', 'primary_voltage', 'secondary_voltage', 'arc_rating'] as const satisfies readonly (keyof PoleDraft)[];
/** The same of the ticket itself. */
const TICKET_FILLS = ['street_address', 'geo_lat', 'geo_lon', 'due_date'] as const satisfies readonly (keyof TicketDraft)[];

/** What a ticket of TicketRows has sent so far (takeChanges). */
interface Sent {
  workOrders: number;
  tasks: number;
}

/**
 * The tickets sheet's rows, converted one at a time: rows of one pole + line become one ticket
 * (its first non-empty value of each field wins, work orders unique, a task per row). A row
 * with a problem is skipped and its problems kept in `errors`.
 */
export class TicketRows {
  readonly errors: ImportError[] = [];
  private readonly byKey = new Map<string, TicketDraft>();
  private readonly workOrderSets = new Map<TicketDraft, Set<string>>();
  /** What takeChanges sent of each ticket, and the tickets grown since. */
  private readonly sent = new Map<TicketDraft, Sent>();
  private readonly changed = new Set<TicketDraft>();
  private readonly ehasp: string | null;
  private readonly overridden: { arc_rating: string | null; primary_voltage: string | null; secondary_voltage: string | null };
  private readonly cols: number[];
  private readonly mapped: number[];
  private readonly decimalComma: boolean;
  private readonly date1904: boolean;

  constructor(tc: Partial<Record<TicketTarget, number>>, overrides?: JobOverrides | null, reading: Pick<ParsedSheet, 'decimalComma' | 'date1904'> = {}) {
    this.decimalComma = reading.decimalComma === true;
    this.date1904 = reading.date1904 === true;
    this.ehasp = isMapped(overrides?.ehasp_override) ? overrides.ehasp_override.trim() : null;
    this.overridden = {
      arc_rating: overrideFor('arc_rating', overrides),
      primary_voltage: overrideFor('primary_voltage', overrides),
      secondary_voltage: overrideFor('secondary_voltage', overrides),
    };
    // Column index per target, -1 when not mapped (or overridden).
    this.cols = TICKET_TARGETS.map((t) => tc[t] ?? -1);
    this.mapped = this.cols.filter((i) => i >= 0);
  }

  private push(e: ImportError) {
    if (this.errors.length < MAX_ERRORS) this.errors.push(e);
  }

  /** Tickets changed since the last takeChanges. */
  get changes(): number {
    return this.changed.size;
  }

  /** Every ticket, in the order of their first row. */
  all(): TicketDraft[] {
    return [...this.byKey.values()];
  }

  /**
   * The tickets new or grown since the last call, in the order of their first row: a new one
   * whole, one sent before as a continuation (its fields as they are now, its work orders and
   * tasks added since). Copies: the rows that follow do not change what was taken.
   */
  takeChanges(): TicketDraft[] {
    const out: TicketDraft[] = [];
    for (const t of this.changed) {
      const was = this.sent.get(t);
      const copy: TicketDraft = { ...t, pole: { ...t.pole }, work_orders: t.work_orders.slice(was?.workOrders ?? 0), tasks: t.tasks.slice(was?.tasks ?? 0) };
      if (was) copy.continued = true;
      out.push(copy);
      this.sent.set(t, { workOrders: t.work_orders.length, tasks: t.tasks.length });
    }
    this.changed.clear();
    return out;
  }

  /** One data row of the tickets sheet. Plain locals: this runs once per row of tens of thousands. */
  add(row: number, cells: CellValue[]): void {
    const [iWo, iPole, iLine, iPoleId, iLineId, iDue, iLat, iLon, iPrim, iSec, iArc, iStreet, iUnit, iDesc, iQty] = this.cols;
    // A mapped formula without a saved result would read as blank or 0: refused (docs/product/imports.md §7).
    let uncached = false;
    for (const i of this.mapped) {
      const c = cells[i];
      if (isNoResult(c)) {
        this.push({ row, sheet: 'tickets', message: MSG.excelFormulaNoResult(row, columnOfRef(c.noResult)) });
        uncached = true;
      }
    }
    if (uncached) return;
    const rowErrors: string[] = [];
    // Names and codes as they are stored and matched (docs/product/sessions-and-safety.md §9): look-alikes group together.
    const poleName = normalizeCode(limited(cells, iPole, 'pole', LIMITS.shortTextMax, row, rowErrors));
    const lineName = normalizeCode(limited(cells, iLine, 'line', LIMITS.shortTextMax, row, rowErrors));
    const code = normalizeCode(limited(cells, iUnit, 'unit_task', LIMITS.shortTextMax, row, rowErrors));
    const description = limited(cells, iDesc, 'desc', LIMITS.textMax, row, rowErrors);
    if (!poleName) rowErrors.push(MSG.excelRowMissingPole(row));
    if (!code) rowErrors.push(MSG.excelRowMissingUnit(row));

    let qty = 0;
    const qtyText = iQty < 0 ? '' : text(cells[iQty]);
    if (qtyText !== '') {
      qty = cellNumber(cells[iQty], this.decimalComma);
      if (!Number.isFinite(qty)) rowErrors.push(MSG.excelRowBadNumber(row, TICKET_TARGET_INFO.qty.label, qtyText));
      else if (qty < 0) rowErrors.push(MSG.excelRowNegativeQty(row, qtyText));
      // The ticket window refuses more, so an import that stored it would leave a ticket nobody can save.
      else if (qty > MAX_TASK_QTY) rowErrors.push(MSG.excelRowQtyTooLarge(row, qtyText, MAX_TASK_QTY));
    }
    const lat = coordinate(cells, iLat, 'geo_lat', 90, row, rowErrors, this.decimalComma);
    const lon = coordinate(cells, iLon, 'geo_lon', 180, row, rowErrors, this.decimalComma);

    let due: string | null = null;
    const dueText = iDue < 0 ? '' : text(cells[iDue]);
    if (dueText !== '') {
      const d = importDate(cells[iDue], this.date1904);
      if (d?.ok) due = d.date;
      else rowErrors.push(MSG.excelRowBadDate(row, dueText));
    }

    const woText = limited(cells, iWo, 'work_order', LIMITS.textMax, row, rowErrors);
    const workOrders = woText === '' ? [] : woText.split(WORK_ORDER_SPLIT).map((w) => w.trim()).filter(Boolean);
    if (workOrders.some((w) => w.length > LIMITS.shortTextMax)) {
      rowErrors.push(MSG.excelRowTooLong(row, TICKET_TARGET_INFO.work_order.label, LIMITS.shortTextMax));
    }
    const street = orNull(limited(cells, iStreet, 'street', LIMITS.textMax, row, rowErrors));

    if (rowErrors.length) {
      for (const message of rowErrors) this.push({ row, sheet: 'tickets', message });
      return;
    }

    const key = `${poleName.toLowerCase()}\u0000${lineName.toLowerCase()}`;
    let ticket = this.byKey.get(key);
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
          primary_voltage: this.overridden.primary_voltage,
          secondary_voltage: this.overridden.secondary_voltage,
          arc_rating: this.overridden.arc_rating,
        },
        street_address: null,
        geo_lat: null,
        geo_lon: null,
        due_date: null,
        ehasp: this.ehasp,
        work_orders: [],
        tasks: [],
      };
      this.byKey.set(key, ticket);
      this.workOrderSets.set(ticket, new Set());
    }
    this.changed.add(ticket);
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
    const seen = this.workOrderSets.get(ticket)!;
    for (const w of workOrders) {
      if (!seen.has(w)) {
        seen.add(w);
        ticket.work_orders.push(w);
      }
    }
    ticket.tasks.push({ code, description, qty, row });
  }
}

/**
 * A continuation (TicketRows.takeChanges) folded into the ticket it continues, as if the rows
 * had been converted together: blank fields take its values, its work orders and tasks are added.
 */
export function mergeContinued(into: TicketDraft, more: TicketDraft): void {
  const set = <T extends object, K extends keyof T>(o: T, k: K, v: T[K]) => {
    if (o[k] == null) o[k] = v;
  };
  for (const f of POLE_FILLS) set(into.pole, f, more.pole[f]);
  for (const f of TICKET_FILLS) set(into, f, more[f]);
  for (const w of more.work_orders) if (!into.work_orders.includes(w)) into.work_orders.push(w);
  into.tasks.push(...more.tasks);
}

