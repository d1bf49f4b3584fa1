import { createHash } from 'node:crypto';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { toIsoDate } from '../../../shared/dates';
import type { PoleDraft, TaskDraft, TicketDraft, UnitDraft } from '../../../shared/excel';
import { LIMITS } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { ChangedQuantity } from '../../../shared/reimport';
import { rowsOf, type DbOrTx } from '../../db/client';
import { poles, tickets, ticketTasks, units, workOrders } from '../../db/schema/index';
import { AppError, badRequest } from '../../errors';

/**
 * Ticket import (DESIGN §4 Excel workbook, Atomicity): ticket drafts (from a workbook through
 * the Excel converter, or `job.newTickets`) and unit-library drafts become unit-library rows,
 * poles, tickets, tasks and work orders, with multi-row statements in chunks, so that 10,000
 * rows take a few dozen statements instead of tens of thousands.
 *
 * Run it inside the caller's transaction: every problem is found before the first write and
 * answered with a 400 naming the row; a database failure rolls the whole save back.
 *
 * The server keeps answering other requests meanwhile (issue 6): no step holds the event loop
 * for long. Lists travel as ONE JSON parameter (drizzle's query builder takes tens of
 * milliseconds for a statement with thousands of parameters), and the loops over every row give
 * the event loop back every few hundred drafts.
 *
 * Used by PUT /jobs/ (job creation with newTickets / ticketsFile) and POST /tickets/xls-upload.
 */

export interface ImportScope {
  companyId: number;
  jobId: number;
  /** The job's utility: unit library rows and poles are looked up and created for it. */
  utilityId: number;
  /** Who imports (kept for audit; no column records it yet). */
  userId: number;
}

/** A task of a draft: the converter's TaskDraft, optionally with an actual change. */
export type ImportTask = Omit<TaskDraft, 'row' | 'description'> & { row?: number; description?: string; additional_qty?: number };

/** The pole of a draft: the converter's PoleDraft, plus the pole fields only newTickets carries. */
export type ImportPole = PoleDraft & {
  utility_spec?: string | null;
  sub_curcuit?: string | null;
  sap_curcuit?: string | null;
};

/** A ticket draft: the Excel converter's TicketDraft is one; newTickets are converted to it. */
export interface ImportTicket extends Omit<TicketDraft, 'key' | 'tasks' | 'pole' | 'row'> {
  /** Grouping key; derived from pole + line when absent. */
  key?: string;
  /** Excel row of its first row. */
  row?: number;
  /** How messages name the draft ('Row 12', 'Ticket 3'); default `Row ${row}`. */
  label?: string;
  pole: ImportPole;
  description?: string | null;
  ambulance_meetup?: string | null;
  tasks: ImportTask[];
}

export type ImportUnit = Omit<UnitDraft, 'row'> & { row?: number };

export interface ImportCounts {
  /** Tickets created (drafts merged into a ticket already in the job are not counted). */
  tickets: number;
  /** Tasks created. */
  tasks: number;
  workOrders: number;
  /** Unit-library rows inserted or updated. */
  units: number;
  /** Poles created. */
  poles: number;
}

/**
 * What an import does to a job that may already have some of its tickets (issue 12 item 1,
 * decision 018). A draft row is MATCHED when its pole + line is already ticketed in the job and
 * that ticket already has a task of the row's unit (code, case-insensitive): a matched row never
 * creates a task. The file's quantity of a matched (ticket, unit) is the sum of its rows, the
 * job's the sum of the ticket's tasks of that unit (more than one only after the old duplicating
 * import); they are 'changed' when they differ, else the rows are 'unchanged'.
 */
export interface ImportPlan {
  newTickets: number;
  newTasks: number;
  changed: ChangedQuantity[];
  unchanged: number;
  /** Hex SHA-256 of everything the plan was computed from: the drafts and the matched records. */
  token: string;
}

/**
 * - `add_new`: create what is new; matched rows change nothing (what every caller got before
 *   this option existed, minus the duplicated tasks).
 * - `update_quantities`: that, and each changed (ticket, unit) gets the file's bid quantity.
 * - `preview`: compute the plan, write nothing.
 */
export type ImportMode = 'preview' | 'add_new' | 'update_quantities';

export interface ImportOptions {
  mode?: ImportMode;
  /** A preview's token: the import is refused (StalePreviewError) when the plan differs now. */
  expectedToken?: string;
}

/** 409: the job changed between the preview and the import; carries the plan as it is now. */
export class StalePreviewError extends AppError {
  constructor(readonly plan: ImportPlan) {
    super(409, MSG.reimportStale);
  }
}

/** Quantities are compared to a millionth: sums of decimals are not exact in binary. */
const sameQty = (a: number, b: number) => Math.abs(a - b) < 1e-6;
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Rows per multi-row INSERT: ~1,000 rows × ≤ 17 columns stays far below PostgreSQL's 65,535 parameters. */
const CHUNK = 1000;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

type PgType = 'text' | 'int' | 'float8' | 'date';

/** Let other requests' callbacks run between two synchronous pieces of an import. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Drafts (or groups) handled between two breaths: a few milliseconds of work. */
const BREATHE_EVERY = 250;

/**
 * `expr in (list)` with the list as one JSON parameter instead of one parameter per value. A
 * sub-select, not `= any(array(…))`: PostgreSQL hashes the sub-select, while it compares every
 * row against every element of an array that is not a constant (40× slower for 2,500 poles).
 */
function inJsonList(expr: SQL, list: readonly (string | number)[], type: 'int' | 'text'): SQL {
  return sql`${expr} in (select v::${sql.raw(type)} from jsonb_array_elements_text(${JSON.stringify(list)}::jsonb) as v)`;
}

/**
 * INSERT of many rows as ONE parameter: the rows travel as a JSON array that PostgreSQL expands
 * with jsonb_to_recordset. Building a 1,000-row VALUES list with 15,000 bound parameters costs
 * far more in the query builder and the drivers than the insert itself. Table and column
 * names are constants of this file, never input.
 */
async function insertRecords<R>(
  tx: DbOrTx,
  table: string,
  fixed: Record<string, number>,
  columns: readonly (readonly [string, PgType])[],
  rows: readonly Record<string, unknown>[],
  /** Raw SQL after the select: `on conflict …`, `returning …` (constants of this file). */
  tail?: string,
): Promise<R[]> {
  // PGlite runs statements synchronously on this thread and a chain of awaited statements never
  // returns to the event loop by itself: give it back before each one.
  await breathe();
  const fixedNames = Object.keys(fixed);
  const target = [...fixedNames, ...columns.map(([c]) => c)].join(', ');
  const fixedValues = sql.join(
    fixedNames.map((n) => sql`${fixed[n]}::int`),
    sql`, `,
  );
  const picked = columns.map(([c]) => `x.${c}`).join(', ');
  const shape = columns.map(([c, type]) => `${c} ${type}`).join(', ');
  const result = await tx.execute(
    sql`insert into ${sql.raw(table)} (${sql.raw(target)}) select ${fixedValues}, ${sql.raw(picked)} from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${sql.raw(shape)})${sql.raw(tail ? ` ${tail}` : '')}`,
  );
  return rowsOf<R>(result);
}

const norm = (s: string | null | undefined) => (s ?? '').trim().toLowerCase();
const poleKey = (pole: string, line: string) => `${norm(pole)}\u0000${norm(line)}`;
const blankToNull = (s: string | null | undefined) => {
  const t = (s ?? '').trim();
  return t === '' ? null : t;
};

interface Group {
  label: string;
  first: ImportTicket;
  poleName: string;
  lineName: string;
  workOrders: string[];
  tasks: (ImportTask & { where: string })[];
}

export interface ReimportResult {
  counts: ImportCounts;
  /** Matched (ticket, unit) pairs whose bid quantity was set to the file's (update_quantities). */
  updated: number;
  plan: ImportPlan;
}

/** The import of job saves: new rows only (mode add_new), the counts of what was created. */
export async function importTickets(
  tx: DbOrTx,
  scope: ImportScope,
  drafts: readonly ImportTicket[],
  libraryDrafts: readonly ImportUnit[] = [],
): Promise<ImportCounts> {
  return (await reimportTickets(tx, scope, drafts, libraryDrafts)).counts;
}

/** The import with its plan: a preview (no writes), add_new, or update_quantities. */
export async function reimportTickets(
  tx: DbOrTx,
  scope: ImportScope,
  drafts: readonly ImportTicket[],
  libraryDrafts: readonly ImportUnit[] = [],
  options: ImportOptions = {},
): Promise<ReimportResult> {
  const { companyId, jobId, utilityId } = scope;
  const mode = options.mode ?? 'add_new';
  const counts: ImportCounts = { tickets: 0, tasks: 0, workOrders: 0, units: 0, poles: 0 };
  let updated = 0;

  // 1. Validate and group the drafts by pole + line (case-insensitive, trimmed) — no writes yet.
  const groups = new Map<string, Group>();
  for (const [i, d] of drafts.entries()) {
    if (i % BREATHE_EVERY === BREATHE_EVERY - 1) await breathe();
    const label = d.label ?? (d.row ? `Row ${d.row}` : `Ticket ${i + 1}`);
    const poleName = (d.pole?.pole_name ?? '').trim();
    const lineName = (d.pole?.line_name ?? '').trim();
    if (!poleName) throw badRequest(MSG.importTicketMissingPole(label));
    if (poleName.length > LIMITS.shortTextMax || lineName.length > LIMITS.shortTextMax) {
      throw badRequest(`${label}: Pole or line is longer than ${LIMITS.shortTextMax} characters`);
    }
    if (d.due_date != null && d.due_date !== '' && !toIsoDate(d.due_date)) {
      throw badRequest(`${label}: Due date '${d.due_date}' is not a date (use MM/DD/YYYY)`);
    }
    const key = poleKey(poleName, lineName);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { label, first: d, poleName, lineName, workOrders: [], tasks: [] }));
    for (const wo of d.work_orders ?? []) {
      const w = wo.trim();
      if (w && !g.workOrders.includes(w)) g.workOrders.push(w);
    }
    for (const t of d.tasks ?? []) {
      const where = t.row ? `Row ${t.row}` : label;
      if (!t.code?.trim()) throw badRequest(`${where}: Unit/task code is missing`);
      const add = t.additional_qty ?? 0;
      if (!Number.isFinite(t.qty) || t.qty < 0 || !Number.isFinite(add) || t.qty + add < 0) throw badRequest(MSG.importBadQty(where));
      g.tasks.push({ ...t, code: t.code.trim(), where });
    }
  }

  // 2. The unit library: the drafts (last row of a code wins) and what the utility already has.
  const libByCode = new Map<string, ImportUnit>();
  for (const [i, u] of libraryDrafts.entries()) {
    const code = (u.code ?? '').trim();
    if (!code) throw badRequest(MSG.excelLibraryRowMissingCode(u.row ?? i + 1));
    libByCode.set(code, { ...u, code });
  }
  const existingUnits = await tx
    .select({ id: units.id, code: units.code })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.utilityId, utilityId)));
  const known = new Set([...existingUnits.map((u) => u.code), ...libByCode.keys()]);
  const knownLower = new Map<string, string>();
  for (const code of known) if (!knownLower.has(code.toLowerCase())) knownLower.set(code.toLowerCase(), code);
  /** A task's code as the library spells it (exact, else case-insensitive). */
  const libraryCode = (code: string) => (known.has(code) ? code : knownLower.get(code.toLowerCase()));
  for (const g of groups.values()) {
    for (const t of g.tasks) if (!libraryCode(t.code)) throw badRequest(MSG.importUnknownUnit(t.where, t.code));
  }
  await breathe();

  // 4. Poles: find by utility + pole + line (case-insensitive), create the missing ones.
  const poleIds = new Map<string, number>();
  const names = [...new Set([...groups.values()].map((g) => norm(g.poleName)))];
  for (const part of chunks(names, 5000)) {
    await breathe();
    const found = await tx
      .select({ id: poles.id, poleName: poles.poleName, lineName: poles.lineName })
      .from(poles)
      .where(and(eq(poles.companyId, companyId), eq(poles.utilityId, utilityId), inJsonList(sql`lower(trim(${poles.poleName}))`, part, 'text')))
      .orderBy(asc(poles.id));
    for (const p of found) {
      const k = poleKey(p.poleName, p.lineName);
      if (groups.has(k) && !poleIds.has(k)) poleIds.set(k, p.id);
    }
  }
  // 5. Tickets: a pole already ticketed in this job receives the rows (merge), others get a new ticket.
  const ticketOfPole = new Map<number, number>();
  const allPoleIds = [...new Set(poleIds.values())];
  for (const part of chunks(allPoleIds, 5000)) {
    await breathe();
    const found = await tx
      .select({ id: tickets.id, poleId: tickets.poleId })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.jobId, jobId), inJsonList(sql`${tickets.poleId}`, part, 'int')))
      .orderBy(asc(tickets.id));
    for (const t of found) if (t.poleId != null && !ticketOfPole.has(t.poleId)) ticketOfPole.set(t.poleId, t.id);
  }
  const mergedTicketIds = [...ticketOfPole.values()];
  /** The job's ticket of a group, when its pole is already ticketed in the job. */
  const ticketOfGroup = (k: string) => (poleIds.has(k) ? ticketOfPole.get(poleIds.get(k)!) : undefined);

  // 6. The plan: which rows create tickets and tasks, and which match a task already there.
  const existingTasks = new Map<number, Map<string, { id: number; code: string; initQty: number; additionalQty: number }[]>>();
  for (const part of chunks(mergedTicketIds, 5000)) {
    await breathe();
    const rows = await tx
      .select({ id: ticketTasks.id, ticketId: ticketTasks.ticketId, code: units.code, initQty: ticketTasks.initQty, additionalQty: ticketTasks.additionalQty })
      .from(ticketTasks)
      .innerJoin(units, eq(units.id, ticketTasks.unitId))
      .where(and(eq(ticketTasks.companyId, companyId), inJsonList(sql`${ticketTasks.ticketId}`, part, 'int')))
      .orderBy(asc(ticketTasks.id));
    for (const r of rows) {
      let byCode = existingTasks.get(r.ticketId);
      if (!byCode) existingTasks.set(r.ticketId, (byCode = new Map()));
      const list = byCode.get(r.code.toLowerCase()) ?? [];
      list.push(r);
      byCode.set(r.code.toLowerCase(), list);
    }
  }
  const plan: Omit<ImportPlan, 'token'> = { newTickets: 0, newTasks: 0, changed: [], unchanged: 0 };
  /** Drafts' tasks that become tasks, by group key. */
  const tasksToCreate = new Map<string, (ImportTask & { where: string })[]>();
  /** Matched tasks whose bid is set: the first of a unit gets the file's total, the others 0. */
  const qtyUpdates: { id: number; ticketId: number; initQty: number; additionalQty: number; where: string }[] = [];
  /** What the token hashes: per group, its ticket and, per unit, the file's total and the matched tasks. */
  const basis: unknown[] = [];
  /** Groups whose ticket is already in the job. */
  const mergedKeys = new Set<string>();
  for (const [k, g] of [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const ticketId = ticketOfGroup(k);
    if (ticketId === undefined) {
      plan.newTickets += 1;
      plan.newTasks += g.tasks.length;
      tasksToCreate.set(k, g.tasks);
      basis.push([k, null, g.tasks.map((t) => [libraryCode(t.code), t.qty, t.additional_qty ?? 0])]);
      continue;
    }
    mergedKeys.add(k);
    const have = existingTasks.get(ticketId);
    const rowsByUnit = new Map<string, (ImportTask & { where: string })[]>();
    for (const t of g.tasks) {
      const unit = libraryCode(t.code)!.toLowerCase();
      rowsByUnit.set(unit, [...(rowsByUnit.get(unit) ?? []), t]);
    }
    const create: (ImportTask & { where: string })[] = [];
    const units_: unknown[] = [];
    for (const [unit, rows] of [...rowsByUnit.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const matched = have?.get(unit);
      const total = round6(rows.reduce((sum, t) => sum + t.qty, 0));
      units_.push([unit, total, rows.length, matched?.map((m) => [m.id, m.initQty]) ?? null]);
      if (!matched) {
        create.push(...rows);
        continue;
      }
      const from = round6(matched.reduce((sum, m) => sum + m.initQty, 0));
      if (sameQty(from, total)) {
        plan.unchanged += rows.length;
        continue;
      }
      plan.changed.push({ pole: g.poleName, line: g.lineName, code: matched[0].code, from, to: total });
      matched.forEach((m, i) => qtyUpdates.push({ id: m.id, ticketId, initQty: i === 0 ? total : 0, additionalQty: m.additionalQty, where: rows[0].where }));
    }
    plan.newTasks += create.length;
    if (create.length) tasksToCreate.set(k, create);
    basis.push([k, ticketId, units_]);
  }
  const token = createHash('sha256').update(JSON.stringify(basis)).digest('hex');
  const fullPlan: ImportPlan = { ...plan, token };
  if (mode === 'preview') return { counts, updated, plan: fullPlan };
  if (options.expectedToken !== undefined && options.expectedToken !== token) throw new StalePreviewError(fullPlan);
  if (mode === 'update_quantities') {
    // A bid below the change already recorded would make the total negative: refuse, name the row.
    for (const u of qtyUpdates) if (u.initQty + u.additionalQty < 0) throw badRequest(MSG.reimportBelowChange(u.where));
  }

  // 7. Write: the library rows, the missing poles, the missing tickets, then work orders and tasks.
  // Library rows: a blank cell keeps what the library already says.
  const unitIds = new Map(existingUnits.map((u) => [u.code, u.id]));
  const unitText = ['description', 'family', 'type', 'action', 'uom', 'notes'] as const;
  const unitColumns = [['code', 'text'], ...unitText.map((c) => [c, 'text'] as const)] as const;
  const keep = unitText.map((c) => `${c} = coalesce(nullif(excluded.${c}, ''), units.${c})`).join(', ');
  for (const part of chunks([...libByCode.values()])) {
    const rows = await insertRecords<{ id: number; code: string }>(
      tx,
      'units',
      { company_id: companyId, utility_id: utilityId },
      unitColumns,
      part.map((u) => ({ code: u.code, ...Object.fromEntries(unitText.map((c) => [c, u[c] ?? ''])) })),
      `on conflict (company_id, utility_id, code) do update set ${keep} returning id, code`,
    );
    for (const r of rows) unitIds.set(r.code, Number(r.id));
    counts.units += rows.length;
  }

  const newPoles = [...groups.entries()].filter(([k]) => !poleIds.has(k));
  const poleColumns = [
    ['pole_name', 'text'],
    ['line_name', 'text'],
    ['pole_id', 'text'],
    ['line_id', 'text'],
    ['street_address', 'text'],
    ['geo_lat', 'float8'],
    ['geo_lon', 'float8'],
    ['primary_voltage', 'text'],
    ['secondary_voltage', 'text'],
    ['arc_rating', 'text'],
    ['utility_spec', 'text'],
    ['sub_curcuit', 'text'],
    ['sap_curcuit', 'text'],
  ] as const;
  for (const part of chunks(newPoles)) {
    const rows = await insertRecords<{ id: number; pole_name: string; line_name: string }>(
      tx,
      'poles',
      { company_id: companyId, utility_id: utilityId },
      poleColumns,
      part.map(([, g]) => {
        const p = g.first.pole;
        return {
          pole_name: g.poleName,
          line_name: g.lineName,
          pole_id: blankToNull(p.pole_id),
          line_id: blankToNull(p.line_id),
          street_address: blankToNull(p.street_address ?? g.first.street_address),
          geo_lat: p.geo_lat ?? g.first.geo_lat ?? null,
          geo_lon: p.geo_lon ?? g.first.geo_lon ?? null,
          primary_voltage: blankToNull(p.primary_voltage),
          secondary_voltage: blankToNull(p.secondary_voltage),
          arc_rating: blankToNull(p.arc_rating),
          utility_spec: blankToNull(p.utility_spec),
          sub_curcuit: blankToNull(p.sub_curcuit),
          sap_curcuit: blankToNull(p.sap_curcuit),
        };
      }),
      'returning id, pole_name, line_name',
    );
    for (const r of rows) poleIds.set(poleKey(r.pole_name, r.line_name), Number(r.id));
    counts.poles += rows.length;
  }

  const toCreate = [...groups.entries()].filter(([k]) => !mergedKeys.has(k));
  const ticketColumns = [
    ['pole_id', 'int'],
    ['due_date', 'date'],
    ['street_address', 'text'],
    ['geo_lat', 'float8'],
    ['geo_lon', 'float8'],
    ['description', 'text'],
    ['ehasp', 'text'],
    ['ambulance_meetup', 'text'],
  ] as const;
  for (const part of chunks(toCreate)) {
    const rows = await insertRecords<{ id: number; pole_id: number }>(
      tx,
      'tickets',
      { company_id: companyId, job_id: jobId },
      ticketColumns,
      part.map(([k, g]) => {
        const d = g.first;
        return {
          pole_id: poleIds.get(k)!,
          due_date: d.due_date ? toIsoDate(d.due_date) : null,
          street_address: blankToNull(d.street_address ?? d.pole.street_address),
          geo_lat: d.geo_lat ?? d.pole.geo_lat ?? null,
          geo_lon: d.geo_lon ?? d.pole.geo_lon ?? null,
          description: blankToNull(d.description),
          ehasp: blankToNull(d.ehasp),
          ambulance_meetup: blankToNull(d.ambulance_meetup),
        };
      }),
      'returning id, pole_id',
    );
    for (const r of rows) ticketOfPole.set(Number(r.pole_id), Number(r.id));
    counts.tickets += rows.length;
  }

  // Work orders (no duplicate on a ticket, also against a merged ticket's own) and tasks.
  const existingWo = new Map<number, Set<string>>();
  for (const part of chunks(mergedTicketIds, 5000)) {
    await breathe();
    const rows = await tx
      .select({ ticketId: workOrders.ticketId, wo: workOrders.workOrder })
      .from(workOrders)
      .where(and(eq(workOrders.companyId, companyId), inJsonList(sql`${workOrders.ticketId}`, part, 'int')));
    for (const r of rows) {
      if (!existingWo.has(r.ticketId)) existingWo.set(r.ticketId, new Set());
      existingWo.get(r.ticketId)!.add(r.wo);
    }
  }
  const woRows: { ticket_id: number; work_order: string }[] = [];
  const taskRows: { ticket_id: number; unit_id: number; init_qty: number; additional_qty: number }[] = [];
  /** Tickets that were already in the job and receive something: their version moves on. */
  const touched = new Set<number>();
  let done = 0;
  for (const [k, g] of groups) {
    if (++done % BREATHE_EVERY === 0) await breathe();
    const ticketId = ticketOfPole.get(poleIds.get(k)!)!;
    const have = existingWo.get(ticketId);
    const merged = mergedKeys.has(k);
    for (const wo of g.workOrders) {
      if (have?.has(wo)) continue;
      woRows.push({ ticket_id: ticketId, work_order: wo });
      if (merged) touched.add(ticketId);
    }
    for (const t of tasksToCreate.get(k) ?? []) {
      taskRows.push({ ticket_id: ticketId, unit_id: unitIds.get(libraryCode(t.code)!)!, init_qty: t.qty, additional_qty: t.additional_qty ?? 0 });
      if (merged) touched.add(ticketId);
    }
  }
  for (const part of chunks(woRows)) {
    await insertRecords(tx, 'work_orders', { company_id: companyId }, [['ticket_id', 'int'], ['work_order', 'text']], part);
    counts.workOrders += part.length;
  }
  const taskColumns = [
    ['ticket_id', 'int'],
    ['unit_id', 'int'],
    ['init_qty', 'float8'],
    ['additional_qty', 'float8'],
  ] as const;
  for (const part of chunks(taskRows)) {
    await insertRecords(tx, 'ticket_tasks', { company_id: companyId }, taskColumns, part);
    counts.tasks += part.length;
  }
  if (mode === 'update_quantities') {
    for (const part of chunks(qtyUpdates)) {
      await breathe();
      await tx.execute(
        sql`update ticket_tasks set init_qty = x.init_qty from jsonb_to_recordset(${JSON.stringify(part.map((u) => ({ id: u.id, init_qty: u.initQty })))}::jsonb) as x(id int, init_qty float8) where ticket_tasks.id = x.id and ticket_tasks.company_id = ${companyId}`,
      );
    }
    updated = plan.changed.length;
    for (const u of qtyUpdates) touched.add(u.ticketId);
  }
  // A ticket window opened before the import must not save its old tasks over the new ones.
  for (const part of chunks([...touched], 5000)) {
    await tx.execute(sql`update tickets set version = version + 1 where company_id = ${companyId} and ${inJsonList(sql`id`, part, 'int')}`);
  }
  return { counts, updated, plan: fullPlan };
}

