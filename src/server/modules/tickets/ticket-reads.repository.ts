import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias, type SelectedFields } from 'drizzle-orm/pg-core';
import { TICKET_STATUS } from '../../../shared/constants';
import { clearToDig, earliestExpiry } from '../../../shared/dig-safe';
import { fullName } from '../../../shared/names';
import type { Note, Permit, Pole, Ticket, TicketImage, TicketRow, TicketRowFields, TicketTask } from '../../../shared/tickets.schemas';
import type { DbOrTx } from '../../db/client';
import { countsAsEvidenceSql, isoInstant } from '../../db/sql';
import { accessTypes, companies, images, notes, permits, permitTypes, poles, tickets, ticketTasks, units, users, utilities, workOrders } from '../../db/schema/index';

/**
 * The ticket read model (docs/product/entities.md §2 Ticket) loaded in a fixed number of statements, whatever the
 * number of tickets: one for tickets + pole + assignee, then one each for tasks, notes, work
 * orders, permits and images, filtered by a sub-select of the same tickets (no N+1, no id list
 * sent back to the server). Every statement is scoped by the caller's company.
 * Used by the jobs routes (GET /jobs/{id}, GET /jobs/tickets/{id}), the tickets routes and My
 * Work (GET /work, through `selectTicketRows`).
 */

const isoRequired = (v: Date | string | null | undefined) => isoInstant(v) ?? '';

const assignee = alias(users, 'ticket_assignee');
const unlocker = alias(users, 'ticket_unlocker');
const completer = alias(users, 'ticket_completer');
const noteAuthor = alias(users, 'note_author');
const qtyChanger = alias(users, 'task_qty_changer');
const poleUtility = alias(utilities, 'pole_utility');
const imagePole = alias(poles, 'image_pole');
const imageTicket = alias(tickets, 'image_ticket');

type Scope = { jobId: number } | { ticketId: number };

function ticketWhere(companyId: number, scope: Scope): SQL {
  const company = eq(tickets.companyId, companyId);
  if ('jobId' in scope) return and(company, eq(tickets.jobId, scope.jobId))!;
  return and(company, eq(tickets.id, scope.ticketId))!;
}

/** The ticket columns a table row needs (GET /jobs/{id}); the full loader reads all of them. */
const rowColumns = {
  id: tickets.id,
  jobId: tickets.jobId,
  poleId: tickets.poleId,
  dueDate: tickets.dueDate,
  createdDate: tickets.createdDate,
  actualCompletionDate: tickets.actualCompletionDate,
  assignedTo: tickets.assignedTo,
  streetAddress: tickets.streetAddress,
  geoLat: tickets.geoLat,
  geoLon: tickets.geoLon,
  digSafeRequired: tickets.digSafeRequired,
  digSafeUrl: tickets.digSafeUrl,
  digSafeNumber: tickets.digSafeNumber,
  digSafeValidFrom: tickets.digSafeValidFrom,
  digSafeExpiresOn: tickets.digSafeExpiresOn,
  nraRequired: tickets.nraRequired,
  nraUrl: tickets.nraUrl,
  version: tickets.version,
  billedAt: tickets.billedAt,
  invoiceNumber: tickets.invoiceNumber,
  unlockedAt: tickets.unlockedAt,
  unlockReason: tickets.unlockReason,
};
type RowRecord = Pick<typeof tickets.$inferSelect, keyof typeof rowColumns>;

/** A ticket's status: Complete once it has a completion date (the one thing that says so). */
export const ticketStatus = (actualCompletionDate: Date | null) => (actualCompletionDate ? TICKET_STATUS.COMPLETE : TICKET_STATUS.PENDING);

/**
 * What a ticket row and a full ticket share; status, names and Clear to dig (on the company's
 * calendar day `today`, src/shared/dig-safe.ts) are derived here only.
 */
function toRow(
  t: RowRecord,
  poleName: string | null,
  lineName: string | null,
  aFirst: string | null,
  aLast: string | null,
  permitExpiresOn: string | null,
  today: string,
): TicketRowFields {
  const status = ticketStatus(t.actualCompletionDate);
  const dig = {
    dig_safe_number: t.digSafeNumber,
    dig_safe_valid_from: t.digSafeValidFrom,
    dig_safe_expires_on: t.digSafeExpiresOn,
    permit_expires_on: permitExpiresOn,
  };
  const clear = clearToDig({ status, due_date: t.dueDate, dig_safe_required: t.digSafeRequired, dig_safe_url: t.digSafeUrl, ...dig }, today);
  return {
    id: t.id,
    job_id: t.jobId,
    pole_id: t.poleId,
    pole_name: poleName,
    line_name: lineName,
    status,
    due_date: t.dueDate,
    created_date: isoRequired(t.createdDate),
    actual_completion_date: isoInstant(t.actualCompletionDate),
    assigned_to: t.assignedTo,
    assigned_to_name: t.assignedTo == null ? null : fullName(aFirst, aLast),
    street_address: t.streetAddress,
    geo_lat: t.geoLat,
    geo_lon: t.geoLon,
    dig_safe_required: t.digSafeRequired,
    dig_safe_url: t.digSafeUrl,
    ...dig,
    ...clear,
    nra_required: t.nraRequired,
    nra_url: t.nraUrl,
    version: t.version,
    billed_at: isoInstant(t.billedAt),
    invoice_number: t.invoiceNumber,
    unlocked_at: isoInstant(t.unlockedAt),
    unlock_reason: t.unlockReason,
  };
}

/** The tickets in scope, as a sub-select for the child tables. */
type TicketIds = ReturnType<typeof idsIn>;
const idsIn = (db: DbOrTx, where: SQL) => db.select({ id: tickets.id }).from(tickets).where(where);
/**
 * A child table's rows of these tickets, each found through its ticket_id index. `in (select …)`
 * let PostgreSQL hash-join a whole child table instead: at ten years of data a job's read scanned
 * all 1 M work orders and 200,000 notes (docs/product/scale.md §1; the map exports' and export's reads, decision 011).
 */
const ofTickets = (ticketId: AnyColumn, ids: TicketIds) => sql`${ticketId} = any(array(${ids}))`;

/** The tickets with their pole (and its utility and access type) and the assignee's name. */
const selectTickets = (db: DbOrTx, companyId: number, where: SQL) =>
  db
    .select({
      today: companyDaySql(companyId),
      t: tickets,
      p: poles,
      utilityName: poleUtility.code,
      accessLabel: accessTypes.title,
      aFirst: assignee.firstName,
      aLast: assignee.lastName,
      uFirst: unlocker.firstName,
      uLast: unlocker.lastName,
      cFirst: completer.firstName,
      cLast: completer.lastName,
    })
    .from(tickets)
    .leftJoin(poles, and(eq(poles.id, tickets.poleId), eq(poles.companyId, tickets.companyId)))
    .leftJoin(unlocker, and(eq(unlocker.id, tickets.unlockedBy), eq(unlocker.companyId, tickets.companyId)))
    .leftJoin(completer, and(eq(completer.id, tickets.completedBy), eq(completer.companyId, tickets.companyId)))
    .leftJoin(poleUtility, eq(poleUtility.id, poles.utilityId))
    .leftJoin(accessTypes, eq(accessTypes.id, poles.accessibilityId))
    .leftJoin(assignee, and(eq(assignee.id, tickets.assignedTo), eq(assignee.companyId, tickets.companyId)))
    .where(where)
    .orderBy(asc(tickets.id));

/**
 * A task's description (docs/product/imports.md §12): its workbook row's own text, else (null: the row had none,
 * or the task was added in the app) the unit library's.
 */
const taskDescription = sql<string>`coalesce(${ticketTasks.description}, ${units.description})`;

const selectTasks = (db: DbOrTx, companyId: number, ids: TicketIds) =>
  db
    .select({
      ticketId: ticketTasks.ticketId,
      ticket_task_id: ticketTasks.id,
      task_id: ticketTasks.unitId,
      code: units.code,
      description: taskDescription,
      family: units.family,
      type: units.type,
      uom: units.uom,
      action: units.action,
      date_completed: ticketTasks.dateCompleted,
      init_qty: ticketTasks.initQty,
      additional_qty: ticketTasks.additionalQty,
      qty_changed_at: ticketTasks.qtyChangedAt,
      qty_changed_by: ticketTasks.qtyChangedBy,
      cFirst: qtyChanger.firstName,
      cLast: qtyChanger.lastName,
    })
    .from(ticketTasks)
    .innerJoin(units, eq(units.id, ticketTasks.unitId))
    .leftJoin(qtyChanger, eq(qtyChanger.id, ticketTasks.qtyChangedBy))
    .where(and(eq(ticketTasks.companyId, companyId), ofTickets(ticketTasks.ticketId, ids)))
    .orderBy(asc(ticketTasks.id));

const selectNotes = (db: DbOrTx, companyId: number, ids: TicketIds) =>
  db
    .select({
      ticketId: notes.ticketId,
      id: notes.id,
      author_id: notes.authorId,
      first: noteAuthor.firstName,
      last: noteAuthor.lastName,
      created_date: notes.createdDate,
      note_text: notes.noteText,
    })
    .from(notes)
    .leftJoin(noteAuthor, eq(noteAuthor.id, notes.authorId))
    .where(and(eq(notes.companyId, companyId), ofTickets(notes.ticketId, ids)))
    .orderBy(asc(notes.createdDate), asc(notes.id));

const selectWorkOrders = (db: DbOrTx, companyId: number, ids: TicketIds) =>
  db
    .select({ ticketId: workOrders.ticketId, workOrder: workOrders.workOrder })
    .from(workOrders)
    .where(and(eq(workOrders.companyId, companyId), ofTickets(workOrders.ticketId, ids)))
    .orderBy(asc(workOrders.id));

const selectPermits = (db: DbOrTx, companyId: number, ids: TicketIds) =>
  db
    .select({
      ticketId: permits.ticketId,
      id: permits.id,
      permit_type: permits.permitTypeId,
      permit_type_title: permitTypes.title,
      permit_url: permits.permitUrl,
      permit_name: permits.permitName,
      permit_file_type: permits.permitFileType,
      filename: permits.filename,
      number: permits.number,
      valid_from: permits.validFrom,
      expires_on: permits.expiresOn,
    })
    .from(permits)
    .leftJoin(permitTypes, eq(permitTypes.id, permits.permitTypeId))
    .where(and(eq(permits.companyId, companyId), ofTickets(permits.ticketId, ids)))
    .orderBy(asc(permits.id));

const selectImages = (db: DbOrTx, companyId: number, ids: TicketIds) =>
  db
    .select({
      ticketId: images.ticketId,
      id: images.id,
      url: images.url,
      thumbnailurl: images.thumbnailUrl,
      pole_name: imagePole.poleName,
      line_name: imagePole.lineName,
      uploaded_at: images.uploadedAt,
      taken_at: images.takenAt,
      geo_lat: images.geoLat,
      geo_lon: images.geoLon,
      distance_m: images.distanceM,
      flags: images.flags,
    })
    .from(images)
    .innerJoin(imageTicket, eq(imageTicket.id, images.ticketId))
    .leftJoin(imagePole, eq(imagePole.id, imageTicket.poleId))
    .where(and(eq(images.companyId, companyId), ofTickets(images.ticketId, ids)))
    .orderBy(asc(images.uploadedAt), asc(images.id));

/** The rows of a child table by ticket id, each mapped to its read-model shape, in the rows' order. */
function groupByTicket<R extends { ticketId: number }, O>(list: R[], map: (r: R) => O): Map<number, O[]> {
  const out = new Map<number, O[]>();
  for (const r of list) {
    let arr = out.get(r.ticketId);
    if (!arr) out.set(r.ticketId, (arr = []));
    arr.push(map(r));
  }
  return out;
}

function toPole(p: typeof poles.$inferSelect, utilityName: string | null, accessLabel: string | null): Pole {
  return {
    id: p.id,
    pole_id: p.poleId,
    pole_name: p.poleName,
    line_id: p.lineId,
    line_name: p.lineName,
    utility_id_owning_pole: p.utilityId,
    utility_name: utilityName,
    street_address: p.streetAddress,
    geo_lat: p.geoLat,
    geo_lon: p.geoLon,
    accessibility_id: p.accessibilityId,
    accessibility_label: accessLabel,
    utility_spec: p.utilitySpec,
    primary_voltage: p.primaryVoltage,
    secondary_voltage: p.secondaryVoltage,
    arc_rating: p.arcRating,
    sub_curcuit: p.subCurcuit,
    sap_curcuit: p.sapCurcuit,
  };
}

/**
 * The company's calendar day as a column of the rows' own statement (docs/product/records.md §5):
 * expiry and Clear to dig are read on the company's day in its time zone, whatever zone the server
 * runs in, with no statement more (the sub-select is uncorrelated: PostgreSQL runs it once).
 */
export const companyDaySql = (companyId: number) =>
  sql<string>`((now() at time zone (select ${companies.timeZone} from ${companies} where ${companies.id} = ${companyId}))::date)::text`;

/** The day of a list's rows (they all carry the same); an empty list needs none. */
const dayOf = (rows: readonly { today: string }[]) => rows[0]?.today ?? '';

/** The full read model of the tickets in scope: six statements at once, then grouped by ticket. */
async function loadTickets(db: DbOrTx, companyId: number, scope: Scope): Promise<Ticket[]> {
  const where = ticketWhere(companyId, scope);
  const ids = idsIn(db, where);
  const [rows, taskRows, noteRows, woRows, permitRows, imageRows] = await Promise.all([
    selectTickets(db, companyId, where),
    selectTasks(db, companyId, ids),
    selectNotes(db, companyId, ids),
    selectWorkOrders(db, companyId, ids),
    selectPermits(db, companyId, ids),
    selectImages(db, companyId, ids),
  ]);
  const today = dayOf(rows);

  const tasksBy = groupByTicket(
    taskRows,
    ({ ticketId: _t, date_completed, qty_changed_at, qty_changed_by, cFirst, cLast, ...r }): TicketTask => ({
      ...r,
      date_completed: isoInstant(date_completed),
      qty_changed_at: isoInstant(qty_changed_at),
      qty_changed_by_name: qty_changed_by == null ? null : fullName(cFirst, cLast),
    }),
  );
  const notesBy = groupByTicket(
    noteRows,
    (r): Note => ({
      id: r.id,
      author: fullName(r.first, r.last),
      author_id: r.author_id,
      created_date: isoRequired(r.created_date),
      note_text: r.note_text,
    }),
  );
  const woBy = groupByTicket(woRows, (r) => r.workOrder);
  const permitsBy = groupByTicket(permitRows, ({ ticketId: _t, ...r }): Permit => r);
  const imagesBy = groupByTicket(
    imageRows,
    ({ ticketId: _t, uploaded_at, taken_at, flags, ...r }): TicketImage => ({
      ...r,
      uploaded_at: isoRequired(uploaded_at),
      taken_at: isoInstant(taken_at),
      flags: flags as TicketImage['flags'],
    }),
  );

  return rows.map(({ t, p, utilityName, accessLabel, aFirst, aLast, uFirst, uLast, cFirst, cLast }): Ticket => {
    const pole = p ? toPole(p, utilityName, accessLabel) : null;
    const ticketPermits = permitsBy.get(t.id) ?? [];
    return {
      ...toRow(t, pole?.pole_name ?? null, pole?.line_name ?? null, aFirst, aLast, earliestExpiry(ticketPermits), today),
      // The completion record (docs/product/records.md §6).
      completed_by: t.completedBy,
      completed_by_name: t.completedBy == null ? null : fullName(cFirst, cLast),
      completed_lat: t.completedLat,
      completed_lon: t.completedLon,
      completed_accuracy_m: t.completedAccuracyM,
      pole,
      line_id: pole?.line_id ?? null,
      pole_lat: pole?.geo_lat ?? null,
      description: t.description,
      dig_safe_name: t.digSafeName,
      nra_name: t.nraName,
      ehasp: t.ehasp,
      ambulance_meetup: t.ambulanceMeetup,
      unlocked_by: t.unlockedBy,
      unlocked_by_name: t.unlockedBy == null ? null : fullName(uFirst, uLast),
      work_orders: woBy.get(t.id) ?? [],
      notes: notesBy.get(t.id) ?? [],
      tasks: tasksBy.get(t.id) ?? [],
      permits: ticketPermits,
      images: imagesBy.get(t.id) ?? [],
    };
  });
}

/** Every ticket of a job (empty for another company's job), ordered by id. 6 statements. */
export function loadTicketsOfJob(db: DbOrTx, companyId: number, jobId: number): Promise<Ticket[]> {
  return loadTickets(db, companyId, { jobId });
}

/** One ticket, or null when it does not exist or belongs to another company. 6 statements. */
export async function loadTicket(db: DbOrTx, companyId: number, ticketId: number): Promise<Ticket | null> {
  const [ticket] = await loadTickets(db, companyId, { ticketId });
  return ticket ?? null;
}

// Counted in the row's own statement (each an index look-up on ticket_id), so a list of rows
// stays one statement however many tickets it has. The job's fingerprint covers these tables too.
const countOf = (table: typeof ticketTasks | typeof images | typeof notes) =>
  sql<number>`(select count(*) from ${table} where ${table.ticketId} = ${tickets.id})`.mapWith(Number);

/**
 * The ticket's work orders and its tasks' unit codes, in their order of entry: the search of My
 * Work and of the job page looks in them (docs/product/rules.md §4.1), and the table shows the work orders. Like the
 * counts, each is an index look-up on ticket_id inside the row's own statement; a change to either
 * table touches the ticket (migrations 0004, 0009 for tasks; 0016 for work orders), so the job
 * page's rows rebuilt by xmin stay right (decision 028). A unit's code never changes (the library
 * is upserted by code).
 */
const workOrdersOf = sql<string[]>`array(select ${workOrders.workOrder} from ${workOrders} where ${workOrders.ticketId} = ${tickets.id} and ${workOrders.companyId} = ${tickets.companyId} order by ${workOrders.id})`;
/**
 * How many of the ticket's photos count as evidence (docs/product/records.md §8: no far_from_pole
 * or before_job flag, src/shared/evidence.ts DISQUALIFYING_FLAGS). A photo whose checks change
 * touches its ticket (migration 0024), like one added.
 */
export const evidencePhotoCountOf = sql<number>`(select count(*) from ${images} where ${images.ticketId} = ${tickets.id} and ${countsAsEvidenceSql(images.flags)})`.mapWith(Number);
/** The earliest expiry among the ticket's permits (0021 touches the ticket when a permit changes). */
const permitExpiresOnOf = sql<string | null>`(select min(${permits.expiresOn})::text from ${permits} where ${permits.ticketId} = ${tickets.id} and ${permits.companyId} = ${tickets.companyId})`;
const unitCodesOf = sql<string[]>`array(select ${units.code} from ${ticketTasks} join ${units} on ${units.id} = ${ticketTasks.unitId} where ${ticketTasks.ticketId} = ${tickets.id} order by ${ticketTasks.id})`;

/** What a ticket-table row selects: the ticket's columns, its pole's name and line, the assignee's name, the counts, work orders and unit codes. */
const rowSelection = {
  t: rowColumns,
  poleName: poles.poleName,
  lineName: poles.lineName,
  aFirst: assignee.firstName,
  aLast: assignee.lastName,
  taskCount: countOf(ticketTasks),
  photoCount: countOf(images),
  evidencePhotoCount: evidencePhotoCountOf,
  noteCount: countOf(notes),
  workOrders: workOrdersOf,
  unitCodes: unitCodesOf,
  permitExpiresOn: permitExpiresOnOf,
};

/**
 * The one query of ticket-table rows (GET /jobs/{id}, GET /work): tickets with their pole and
 * assignee, selecting a row's columns plus `extra`. The caller adds its joins, where (always
 * scoped by company) and order, and maps each result with `toTicketRow`.
 */
export function selectTicketRows<E extends SelectedFields>(db: DbOrTx, extra: E) {
  return db
    .select({ ...rowSelection, ...extra })
    .from(tickets)
    .leftJoin(poles, and(eq(poles.id, tickets.poleId), eq(poles.companyId, tickets.companyId)))
    .leftJoin(assignee, and(eq(assignee.id, tickets.assignedTo), eq(assignee.companyId, tickets.companyId)))
    .$dynamic();
}

type RowResult = Awaited<ReturnType<typeof selectTicketRows<Record<never, never>>>>[number];

/**
 * A result of `selectTicketRows` as the shared row shape (status, names and Clear to dig derived
 * in toRow); `today` is the company's calendar day (`companyDaySql`, a column of the list's statement).
 */
export function toTicketRow(r: RowResult, today: string): TicketRow {
  return {
    ...toRow(r.t, r.poleName, r.lineName, r.aFirst, r.aLast, r.permitExpiresOn, today),
    task_count: r.taskCount,
    photo_count: r.photoCount,
    evidence_photo_count: r.evidencePhotoCount,
    note_count: r.noteCount,
    work_orders: r.workOrders,
    unit_codes: r.unitCodes,
  };
}

/**
 * The ticket-table rows of a job (GET /jobs/{id}) in ONE statement: tickets with their pole's
 * name and line and the assignee's name, ordered by id (empty for another company's job).
 */
export async function loadTicketRows(db: DbOrTx, companyId: number, jobId: number): Promise<TicketRow[]> {
  const rows = await selectTicketRows(db, { today: companyDaySql(companyId) }).where(ticketWhere(companyId, { jobId })).orderBy(asc(tickets.id));
  const today = dayOf(rows);
  return rows.map((r) => toTicketRow(r, today));
}

/**
 * The same rows with each ticket's `xmin`, read in the same statement (so a row and its version
 * always match): the job page's kept reply is rebuilt ticket by ticket from them
 * (jobs/job-page-reply.ts). `ids`: only these tickets of the job. One statement.
 */
export async function loadTicketRowVersions(
  db: DbOrTx,
  companyId: number,
  jobId: number,
  ids?: readonly number[],
): Promise<{ row: TicketRow; xmin: number }[]> {
  const where = ticketWhere(companyId, { jobId });
  const rows = await selectTicketRows(db, { xmin: sql<number>`${tickets}.xmin::text::bigint`.mapWith(Number), today: companyDaySql(companyId) })
    .where(ids ? and(where, inArray(tickets.id, [...ids])) : where)
    .orderBy(asc(tickets.id));
  const today = dayOf(rows);
  return rows.map((r) => ({ row: toTicketRow(r, today), xmin: r.xmin }));
}
