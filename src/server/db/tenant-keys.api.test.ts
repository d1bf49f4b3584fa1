import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../test/harness';
import { errorChain } from './errors';
import { companies, jobs, notes, ticketTasks, tickets, units, utilities, workOrders } from './schema';

/**
 * Migration 0014: a ticket's rows carry their ticket's company, a ticket its job's, a task's unit
 * the task's, and the database refuses anything else (the code checks the caller's company
 * first; this is the floor under it). Deleting a company still takes all of its rows.
 */
describe('rows of another company', async () => {
  const t = await createTestApp();
  const db = t.ctx.db;
  const demo = await t.demo();
  const [ticket] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .where(sql`${tickets.jobId} = ${demo.job['J-1001']}`)
    .limit(1);
  const [unit] = await db
    .select({ id: units.id })
    .from(units)
    .where(sql`${units.companyId} = ${demo.company}`)
    .limit(1);

  const [other] = await db.insert(companies).values({ name: 'Other Line Co' }).returning({ id: companies.id });
  const [otherUtility] = await db.insert(utilities).values({ companyId: other.id, code: 'OTHER' }).returning({ id: utilities.id });
  const [otherUnit] = await db.insert(units).values({ companyId: other.id, utilityId: otherUtility.id, code: 'OX-1' }).returning({ id: units.id });

  /** The driver's error code of a statement that must fail (23503: foreign key violation). */
  const codeOf = async (work: Promise<unknown>) => {
    try {
      await work;
    } catch (err) {
      for (const e of errorChain(err)) if (typeof e.code === 'string') return e.code;
      return 'no code';
    }
    return 'written';
  };

  it("refuses a task, work order or note on a ticket under another company's id", async () => {
    expect(await codeOf(db.insert(ticketTasks).values({ companyId: other.id, ticketId: ticket.id, unitId: otherUnit.id }))).toBe('23503');
    expect(await codeOf(db.insert(workOrders).values({ companyId: other.id, ticketId: ticket.id, workOrder: 'WO-1' }))).toBe('23503');
    expect(await codeOf(db.insert(notes).values({ companyId: other.id, ticketId: ticket.id, noteText: 'not mine' }))).toBe('23503');
    expect(await db.select().from(notes).where(sql`${notes.companyId} = ${other.id}`)).toEqual([]);
  });

  it("refuses a task of another company's unit, and a ticket in another company's job", async () => {
    expect(await codeOf(db.insert(ticketTasks).values({ companyId: demo.company, ticketId: ticket.id, unitId: otherUnit.id }))).toBe('23503');
    expect(await codeOf(db.insert(tickets).values({ companyId: other.id, jobId: demo.job['J-1001'] }))).toBe('23503');
    // The same rows under the right company are written.
    expect(await codeOf(db.insert(ticketTasks).values({ companyId: demo.company, ticketId: ticket.id, unitId: unit.id }))).toBe('written');
  });

  it("deleting a company deletes its jobs, tickets and their rows, and no other company's", async () => {
    const [job] = await db
      .insert(jobs)
      .values({ companyId: other.id, jobNumber: 'O-1', dueDate: '2027-01-01', utilityId: otherUtility.id })
      .returning({ id: jobs.id });
    const [own] = await db.insert(tickets).values({ companyId: other.id, jobId: job.id }).returning({ id: tickets.id });
    await db.insert(ticketTasks).values({ companyId: other.id, ticketId: own.id, unitId: otherUnit.id });
    await db.insert(workOrders).values({ companyId: other.id, ticketId: own.id, workOrder: 'WO-9' });
    const demoTasks = await db.$count(ticketTasks, sql`${ticketTasks.companyId} = ${demo.company}`);

    await db.delete(companies).where(sql`${companies.id} = ${other.id}`);

    expect(await db.$count(tickets, sql`${tickets.companyId} = ${other.id}`)).toBe(0);
    expect(await db.$count(ticketTasks, sql`${ticketTasks.companyId} = ${other.id}`)).toBe(0);
    expect(await db.$count(workOrders, sql`${workOrders.companyId} = ${other.id}`)).toBe(0);
    expect(await db.$count(ticketTasks, sql`${ticketTasks.companyId} = ${demo.company}`)).toBe(demoTasks);
  });
});
