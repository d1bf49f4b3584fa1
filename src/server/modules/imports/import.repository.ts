import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';
import { poles, tickets, ticketTasks, units, workOrders } from '../../db/schema/index';
import { notFromPendingImport } from '../../db/sql';

/**
 * The SQL of the ticket import (the only place with it). Lists travel as ONE JSON parameter:
 * drizzle's query builder takes tens of milliseconds for a statement with thousands of
 * parameters, and the drivers more again. Every statement is scoped by the caller's company.
 */

/** Let other requests' callbacks run between two synchronous pieces of an import. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Rows per multi-row INSERT. Small enough that one statement is a few tens of milliseconds on
 * PGlite, which runs it on this thread: a staged import (decision 027) lets other requests in
 * between two statements, and a long one would keep them waiting all the same. Tried and undone:
 * 500 or 1,000 task rows a statement (fewer re-locks of the units for the foreign-key checks)
 * saved under 10 % of the bench import but let GET /health wait up to 119–166 ms during it. A
 * request waits for the statement running when each of its queries comes: bigger statements,
 * longer waits for everyone else. (/health then also made three thread-pool trips, each behind
 * a statement; it makes none now, so its figures since are lower for the same statements.)
 */
const CHUNK = 250;
/** Ids or names per look-up statement: a few tens of milliseconds on PGlite, as CHUNK. */
const LOOKUP_CHUNK = 1000;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** One look-up statement per chunk of `list`, the rows of all of them in chunk order. */
async function lookUp<T, R>(list: readonly T[], query: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const part of chunks(list, LOOKUP_CHUNK)) {
    await breathe();
    out.push(...(await query(part)));
  }
  return out;
}

type PgType = 'text' | 'int' | 'float8' | 'date' | 'numeric';
type Columns = readonly (readonly [string, PgType])[];
/** The row a column list takes: numbers for int and float8, strings for text and date. */
type RecordOf<C extends Columns> = { [K in C[number] as K[0]]: (K[1] extends 'int' | 'float8' ? number : string) | null };

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
  columns: Columns,
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

/** Inserts `rows` in chunks of one statement each; the returned rows of all of them. */
async function insertChunked<R>(tx: DbOrTx, table: string, fixed: Record<string, number>, columns: Columns, rows: readonly Record<string, unknown>[], tail?: string) {
  const out: R[] = [];
  for (const part of chunks(rows)) out.push(...(await insertRecords<R>(tx, table, fixed, columns, part, tail)));
  return out;
}

interface ImportTarget {
  companyId: number;
  jobId: number;
  utilityId: number;
}

/** The utility's unit library as it is. */
export const unitsOfUtility = (tx: DbOrTx, { companyId, utilityId }: ImportTarget) =>
  tx
    .select({ id: units.id, code: units.code })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.utilityId, utilityId)));

/** The utility's poles whose trimmed, lower-case name is one of `names`, oldest first. */
export const polesNamed = (tx: DbOrTx, { companyId, utilityId }: ImportTarget, names: readonly string[]) =>
  lookUp(names, (part) =>
    tx
      .select({ id: poles.id, poleName: poles.poleName, lineName: poles.lineName })
      .from(poles)
      .where(
        and(
          eq(poles.companyId, companyId),
          eq(poles.utilityId, utilityId),
          inJsonList(sql`lower(trim(${poles.poleName}))`, part, 'text'),
          // Another import's pending poles may yet be discarded: never build on them.
          notFromPendingImport(poles.importJobId),
        ),
      )
      .orderBy(asc(poles.id)),
  );

/** The job's tickets on these poles, oldest first. */
export const ticketsOnPoles = (tx: DbOrTx, { companyId, jobId }: ImportTarget, poleIds: readonly number[]) =>
  lookUp(poleIds, (part) =>
    tx
      .select({ id: tickets.id, poleId: tickets.poleId })
      .from(tickets)
      .where(and(eq(tickets.companyId, companyId), eq(tickets.jobId, jobId), inJsonList(sql`${tickets.poleId}`, part, 'int')))
      .orderBy(asc(tickets.id)),
  );

/** The tasks of these tickets with their unit's code, oldest first. */
export const tasksOfTickets = (tx: DbOrTx, { companyId }: ImportTarget, ticketIds: readonly number[]) =>
  lookUp(ticketIds, (part) =>
    tx
      .select({ id: ticketTasks.id, ticketId: ticketTasks.ticketId, code: units.code, initQty: ticketTasks.initQty, additionalQty: ticketTasks.additionalQty })
      .from(ticketTasks)
      .innerJoin(units, eq(units.id, ticketTasks.unitId))
      .where(and(eq(ticketTasks.companyId, companyId), inJsonList(sql`${ticketTasks.ticketId}`, part, 'int')))
      .orderBy(asc(ticketTasks.id)),
  );

export const workOrdersOfTickets = (tx: DbOrTx, { companyId }: ImportTarget, ticketIds: readonly number[]) =>
  lookUp(ticketIds, (part) =>
    tx
      .select({ ticketId: workOrders.ticketId, wo: workOrders.workOrder })
      .from(workOrders)
      .where(and(eq(workOrders.companyId, companyId), inJsonList(sql`${workOrders.ticketId}`, part, 'int'))),
  );

const UNIT_TEXT = ['description', 'family', 'type', 'action', 'uom', 'notes'] as const;
type UnitRecord = { code: string; unit_price: string | null } & Record<(typeof UNIT_TEXT)[number], string>;

/**
 * Unit-library rows inserted, or updated by code; a blank cell keeps what the library already
 * says, and so does a null price (Price not mapped, or its cell blank: docs/product/billing.md §2).
 */
export const upsertUnits = (tx: DbOrTx, { companyId, utilityId }: ImportTarget, rows: readonly UnitRecord[]) => {
  const keep = [...UNIT_TEXT.map((c) => `${c} = coalesce(nullif(excluded.${c}, ''), units.${c})`), 'unit_price = coalesce(excluded.unit_price, units.unit_price)'].join(', ');
  return insertChunked<{ id: number; code: string }>(
    tx,
    'units',
    { company_id: companyId, utility_id: utilityId },
    [['code', 'text'], ...UNIT_TEXT.map((c) => [c, 'text'] as const), ['unit_price', 'numeric']],
    rows,
    `on conflict (company_id, utility_id, code) do update set ${keep} returning id, code`,
  );
};

/**
 * The codes of a staged import that the library does not have yet, inserted marked with the
 * import's job (hidden until it is published; decision 027). A code another import has just
 * added is left as it is. Their fields are written at publication, with the rest of the library.
 */
export const insertStagedUnits = (tx: DbOrTx, { companyId, utilityId, jobId }: ImportTarget, codes: readonly string[]) =>
  insertChunked(
    tx,
    'units',
    { company_id: companyId, utility_id: utilityId, import_job_id: jobId },
    [['code', 'text']],
    codes.map((code) => ({ code })),
    'on conflict (company_id, utility_id, code) do nothing',
  );

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
type PoleRecord = RecordOf<typeof poleColumns>;

/** New poles; with `stagedFor`, marked as created by that job's staged import (decision 027). */
export const insertPoles = (tx: DbOrTx, { companyId, utilityId }: ImportTarget, rows: readonly PoleRecord[], stagedFor?: number) =>
  insertChunked<{ id: number; pole_name: string; line_name: string }>(
    tx,
    'poles',
    { company_id: companyId, utility_id: utilityId, ...(stagedFor === undefined ? {} : { import_job_id: stagedFor }) },
    poleColumns,
    rows,
    'returning id, pole_name, line_name',
  );

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
type TicketRecord = RecordOf<typeof ticketColumns>;

export const insertTickets = (tx: DbOrTx, { companyId, jobId }: ImportTarget, rows: readonly TicketRecord[]) =>
  insertChunked<{ id: number; pole_id: number }>(
    tx,
    'tickets',
    { company_id: companyId, job_id: jobId },
    ticketColumns,
    rows,
    'returning id, pole_id',
  );

export const insertWorkOrders = (tx: DbOrTx, { companyId }: ImportTarget, rows: readonly { ticket_id: number; work_order: string }[]) =>
  insertChunked(tx, 'work_orders', { company_id: companyId }, [['ticket_id', 'int'], ['work_order', 'text']], rows);

const taskColumns = [
  ['ticket_id', 'int'],
  ['unit_id', 'int'],
  ['init_qty', 'float8'],
  ['additional_qty', 'float8'],
  // The row's own Description, null when blank (a read then shows the library's: docs/product/imports.md).
  ['description', 'text'],
] as const;
export type TaskRecord = { ticket_id: number; unit_id: number; init_qty: number; additional_qty: number; description: string | null };

export const insertTasks = (tx: DbOrTx, { companyId }: ImportTarget, rows: readonly TaskRecord[]) =>
  insertChunked(tx, 'ticket_tasks', { company_id: companyId }, taskColumns, rows);

/**
 * `columns` of rows `id` set where they are still null (a staged import's later rows of a ticket
 * fill what its first rows left blank: decision 027). Table and column names are constants of
 * this file.
 */
async function fillBlanks(tx: DbOrTx, table: 'tickets' | 'poles', companyId: number, columns: Columns, rows: readonly ({ id: number } & Record<string, unknown>)[]) {
  const set = columns.map(([c]) => `${c} = coalesce(${table}.${c}, x.${c})`).join(', ');
  const shape = ['id int', ...columns.map(([c, type]) => `${c} ${type}`)].join(', ');
  for (const part of chunks(rows)) {
    await breathe();
    await tx.execute(
      sql`update ${sql.raw(table)} set ${sql.raw(set)} from jsonb_to_recordset(${JSON.stringify(part)}::jsonb) as x(${sql.raw(shape)}) where ${sql.raw(table)}.id = x.id and ${sql.raw(table)}.company_id = ${companyId}`,
    );
  }
}

/** The fields of tickets a later row may fill. */
const TICKET_FILLS = ticketColumns.filter(([c]) => c === 'due_date' || c === 'street_address' || c === 'geo_lat' || c === 'geo_lon');

export const fillTicketBlanks = (tx: DbOrTx, { companyId }: ImportTarget, rows: readonly ({ id: number } & Omit<TicketRecord, 'pole_id'>)[]) =>
  fillBlanks(tx, 'tickets', companyId, TICKET_FILLS, rows);

/** The fields of poles a later row may fill (not the name and line that identify it). */
const POLE_FILLS = poleColumns.filter(([c]) => c !== 'pole_name' && c !== 'line_name');

export const fillPoleBlanks = (tx: DbOrTx, { companyId }: ImportTarget, rows: readonly ({ id: number } & PoleRecord)[]) => fillBlanks(tx, 'poles', companyId, POLE_FILLS, rows);

/** Sets the bid quantity of existing tasks. */
export async function setBidQuantities(tx: DbOrTx, { companyId }: ImportTarget, updates: readonly { id: number; initQty: number }[]) {
  for (const part of chunks(updates)) {
    await breathe();
    await tx.execute(
      sql`update ticket_tasks set init_qty = x.init_qty from jsonb_to_recordset(${JSON.stringify(part.map((u) => ({ id: u.id, init_qty: u.initQty })))}::jsonb) as x(id int, init_qty float8) where ticket_tasks.id = x.id and ticket_tasks.company_id = ${companyId}`,
    );
  }
}

/** Moves the version of these tickets on, so that a window opened before cannot save over the change. */
export async function bumpTicketVersions(tx: DbOrTx, { companyId }: ImportTarget, ticketIds: readonly number[]) {
  for (const part of chunks(ticketIds, LOOKUP_CHUNK)) {
    await tx.execute(sql`update tickets set version = version + 1 where company_id = ${companyId} and ${inJsonList(sql`id`, part, 'int')}`);
  }
}

/**
 * Of these tickets, the billed ones not unlocked (docs/product/billing.md §5: their tasks are locked), with
 * their pole for the message. The rows are locked (FOR UPDATE) so an invoice being made at this
 * moment is waited for and then seen.
 */
export async function billedLockedTickets(tx: DbOrTx, { companyId }: ImportTarget, ticketIds: readonly number[]) {
  const out: { id: number; pole: string | null; line: string | null; invoice: string | null }[] = [];
  for (const part of chunks(ticketIds, LOOKUP_CHUNK)) {
    const rows = await tx
      .select({ id: tickets.id, billedAt: tickets.billedAt, unlockedAt: tickets.unlockedAt, pole: poles.poleName, line: poles.lineName, invoice: tickets.invoiceNumber })
      .from(tickets)
      .leftJoin(poles, eq(poles.id, tickets.poleId))
      .where(and(eq(tickets.companyId, companyId), inJsonList(sql`${tickets.id}`, part, 'int')))
      .orderBy(asc(tickets.id))
      .for('update', { of: tickets });
    out.push(...rows.filter((r) => r.billedAt != null && r.unlockedAt == null));
  }
  return out;
}
