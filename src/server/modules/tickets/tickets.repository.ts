import { and, asc, count, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { CREW_STATUS, ROLE } from '../../../shared/constants';
import type { DbOrTx } from '../../db/client';
import { images, notes, permits, permitTypes, poles, tickets, ticketTasks, units, users, workOrders } from '../../db/schema/index';

/** The only SQL of the tickets area (writes and checks; the read model is in ticket-reads.repository.ts). */

export type TicketRow = typeof tickets.$inferSelect;

/** The ticket row, locked until the transaction ends (version check, image count, merge). */
export const lockTicket = async (db: DbOrTx, companyId: number, id: number): Promise<TicketRow | undefined> =>
  (await db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, id))).for('update'))[0];

/**
 * Several ticket rows of the company, locked in id order until the transaction ends. One fixed
 * order for every caller, so two transactions locking an overlapping pair (two opposite merges)
 * wait for each other instead of deadlocking. Ids that are missing or another company's are
 * simply not in the result: the caller looks each one up by id.
 */
export const lockTickets = async (db: DbOrTx, companyId: number, ids: readonly number[]): Promise<TicketRow[]> =>
  ids.length === 0
    ? []
    : db
        .select()
        .from(tickets)
        .where(and(eq(tickets.companyId, companyId), inArray(tickets.id, [...ids])))
        .orderBy(tickets.id)
        .for('update');

const assignee = alias(users, 'locked_assignee');
const completer = alias(users, 'locked_completer');

/**
 * The ticket row locked for a change (a save, a task patch, an unlock), with what its history
 * names it by, read in the same statement: its pole's name and line, the assignee's name and
 * the name of who completed it (the completion record, docs/product/records.md §6).
 * Only the ticket row is locked (FOR UPDATE OF tickets).
 */
export async function lockTicketForChange(db: DbOrTx, companyId: number, id: number) {
  const [r] = await db
    .select({
      row: tickets,
      poleId: poles.id,
      poleName: poles.poleName,
      lineName: poles.lineName,
      assigneeFirst: assignee.firstName,
      assigneeLast: assignee.lastName,
      completerFirst: completer.firstName,
      completerLast: completer.lastName,
    })
    .from(tickets)
    .leftJoin(poles, and(eq(poles.id, tickets.poleId), eq(poles.companyId, tickets.companyId)))
    .leftJoin(assignee, and(eq(assignee.id, tickets.assignedTo), eq(assignee.companyId, tickets.companyId)))
    .leftJoin(completer, and(eq(completer.id, tickets.completedBy), eq(completer.companyId, tickets.companyId)))
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)))
    .for('update', { of: tickets });
  if (!r) return undefined;
  const { row, poleId, poleName, lineName, assigneeFirst, assigneeLast, completerFirst, completerLast } = r;
  return {
    row,
    pole: poleId == null ? null : { pole_name: poleName!, line_name: lineName! },
    assignee: { first: assigneeFirst, last: assigneeLast },
    completer: { first: completerFirst, last: completerLast },
  };
}
export type LockedTicket = NonNullable<Awaited<ReturnType<typeof lockTicketForChange>>>;

export const findTicketRow = async (db: DbOrTx, companyId: number, id: number): Promise<TicketRow | undefined> =>
  (await db.select().from(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, id))))[0];

export async function insertTicket(db: DbOrTx, values: typeof tickets.$inferInsert): Promise<number> {
  const [row] = await db.insert(tickets).values(values).returning({ id: tickets.id });
  return row.id;
}

export async function updateTicket(db: DbOrTx, companyId: number, id: number, set: Partial<typeof tickets.$inferInsert>) {
  await db
    .update(tickets)
    .set(set)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
}

export const deleteTicketRow = (db: DbOrTx, companyId: number, id: number) =>
  db.delete(tickets).where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));

/** Ids of the job's tickets on this pole, oldest first (docs/product/rules.md §2.4 merge check). */
export async function ticketsOnPole(db: DbOrTx, companyId: number, jobId: number, poleId: number, exceptTicketId?: number) {
  const rows = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.jobId, jobId),
        eq(tickets.poleId, poleId),
        exceptTicketId ? ne(tickets.id, exceptTicketId) : undefined,
      ),
    )
    .orderBy(tickets.id);
  return rows.map((r) => r.id);
}

export async function isActiveWorkingForeman(db: DbOrTx, companyId: number, userId: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(eq(users.companyId, companyId), eq(users.id, userId), eq(users.roleId, ROLE.WORKING_FOREMAN), eq(users.crewStatus, CREW_STATUS.ACTIVE)),
    );
  return rows.length > 0;
}

/** Which of these unit ids belong to the company's unit library. */
export async function companyUnitIds(db: DbOrTx, companyId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), inArray(units.id, ids)));
  return new Set(rows.map((r) => r.id));
}

// ---- child rows -------------------------------------------------------------------------------

// A ticket's tasks and permits in the read model's order, with what its history names them by
// (the unit's code, the permit type's title): a save's comparison reads them once, and they are
// also the "before" of its history entry.
export const tasksOf = (db: DbOrTx, ticketId: number) =>
  db
    .select({ ...getTableColumns(ticketTasks), code: units.code })
    .from(ticketTasks)
    .innerJoin(units, eq(units.id, ticketTasks.unitId))
    .where(eq(ticketTasks.ticketId, ticketId))
    .orderBy(asc(ticketTasks.id));
export const workOrdersOf = (db: DbOrTx, ticketId: number) =>
  db.select().from(workOrders).where(eq(workOrders.ticketId, ticketId)).orderBy(workOrders.id);
export const permitsOf = (db: DbOrTx, ticketId: number) =>
  db
    .select({ ...getTableColumns(permits), typeTitle: permitTypes.title })
    .from(permits)
    .leftJoin(permitTypes, eq(permitTypes.id, permits.permitTypeId))
    .where(eq(permits.ticketId, ticketId))
    .orderBy(asc(permits.id));
export const imagesOf = (db: DbOrTx, ticketId: number) => db.select().from(images).where(eq(images.ticketId, ticketId));

export async function replaceWorkOrders(db: DbOrTx, companyId: number, ticketId: number, list: string[]) {
  await db.delete(workOrders).where(eq(workOrders.ticketId, ticketId));
  if (list.length) await db.insert(workOrders).values(list.map((workOrder) => ({ companyId, ticketId, workOrder })));
}

export async function insertNotes(db: DbOrTx, companyId: number, ticketId: number, authorId: number, texts: string[]) {
  if (texts.length) await db.insert(notes).values(texts.map((noteText) => ({ companyId, ticketId, authorId, noteText })));
}

export async function deleteTasks(db: DbOrTx, ticketId: number, ids: number[]) {
  if (ids.length) await db.delete(ticketTasks).where(and(eq(ticketTasks.ticketId, ticketId), inArray(ticketTasks.id, ids)));
}

/** The quantities of a kept task; the rest of it (its unit, its workbook row's description) stays as stored. */
/** Sets a task's quantities, stamped with who set them and when (the conflict screen names them). */
export async function updateTask(db: DbOrTx, ticketId: number, id: number, initQty: number, additionalQty: number, by: number, dateCompleted?: Date | null) {
  await db
    .update(ticketTasks)
    .set({ initQty, additionalQty, qtyChangedAt: sql`now()`, qtyChangedBy: by, ...(dateCompleted !== undefined ? { dateCompleted } : {}) })
    .where(and(eq(ticketTasks.ticketId, ticketId), eq(ticketTasks.id, id)));
}

export async function insertTasks(db: DbOrTx, rows: (typeof ticketTasks.$inferInsert)[]) {
  if (rows.length) await db.insert(ticketTasks).values(rows);
}

export async function deletePermits(db: DbOrTx, ticketId: number, ids: number[]) {
  if (ids.length) await db.delete(permits).where(and(eq(permits.ticketId, ticketId), inArray(permits.id, ids)));
}

export async function updatePermit(db: DbOrTx, ticketId: number, id: number, set: Partial<typeof permits.$inferInsert>) {
  await db
    .update(permits)
    .set(set)
    .where(and(eq(permits.ticketId, ticketId), eq(permits.id, id)));
}

export async function insertPermits(db: DbOrTx, rows: (typeof permits.$inferInsert)[]) {
  if (rows.length) await db.insert(permits).values(rows);
}

/** Moves every child row of `fromId` to `toId` (merge). Work orders the target already has are dropped. */
export async function moveChildren(db: DbOrTx, companyId: number, fromId: number, toId: number) {
  const where = (t: { ticketId: AnyPgColumn; companyId: AnyPgColumn }) => and(eq(t.ticketId, fromId), eq(t.companyId, companyId));
  const moved = {
    tasks: (await db.update(ticketTasks).set({ ticketId: toId }).where(where(ticketTasks)).returning({ id: ticketTasks.id })).length,
    notes: (await db.update(notes).set({ ticketId: toId }).where(where(notes)).returning({ id: notes.id })).length,
    permits: (await db.update(permits).set({ ticketId: toId }).where(where(permits)).returning({ id: permits.id })).length,
    images: (await db.update(images).set({ ticketId: toId }).where(where(images)).returning({ id: images.id })).length,
  };
  const have = new Set((await workOrdersOf(db, toId)).map((w) => w.workOrder.trim().toLowerCase()));
  const theirs = await workOrdersOf(db, fromId);
  const add = theirs.filter((w) => {
    const k = w.workOrder.trim().toLowerCase();
    if (have.has(k)) return false;
    have.add(k);
    return true;
  });
  if (add.length) await db.insert(workOrders).values(add.map((w) => ({ companyId, ticketId: toId, workOrder: w.workOrder })));
  await db.delete(workOrders).where(where(workOrders));
  return { ...moved, workOrders: add.length };
}

// ---- images -----------------------------------------------------------------------------------

export async function countImages(db: DbOrTx, ticketId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(images).where(eq(images.ticketId, ticketId));
  return Number(row.n);
}

export async function findImageByUrl(db: DbOrTx, companyId: number, ticketId: number, url: string) {
  return (
    await db
      .select()
      .from(images)
      .where(and(eq(images.companyId, companyId), eq(images.ticketId, ticketId), eq(images.url, url)))
  )[0];
}

export async function insertImage(db: DbOrTx, values: typeof images.$inferInsert) {
  const [row] = await db.insert(images).values(values).returning();
  return row;
}

export const findImage = async (db: DbOrTx, companyId: number, id: number) =>
  (await db.select().from(images).where(and(eq(images.companyId, companyId), eq(images.id, id))))[0];

export const deleteImageRow = (db: DbOrTx, companyId: number, id: number) =>
  db.delete(images).where(and(eq(images.companyId, companyId), eq(images.id, id)));

/** The pole and line names shown with an image (docs/product/entities.md §6 Image). */
export async function poleLineOfTicket(db: DbOrTx, ticketId: number) {
  const [row] = await db
    .select({ pole_name: poles.poleName, line_name: poles.lineName })
    .from(tickets)
    .leftJoin(poles, eq(poles.id, tickets.poleId))
    .where(eq(tickets.id, ticketId));
  return row ?? { pole_name: null, line_name: null };
}

/** Stores who unlocked a billed ticket, when and why; bumps its version (an open window must reload). */
export const unlockTicket = (db: DbOrTx, companyId: number, id: number, userId: number, reason: string) =>
  db
    .update(tickets)
    .set({ unlockedAt: new Date(), unlockedBy: userId, unlockReason: reason, version: sql`${tickets.version} + 1` })
    .where(and(eq(tickets.companyId, companyId), eq(tickets.id, id)));
