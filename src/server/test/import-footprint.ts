import { count } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs, poles, tickets, ticketTasks, units, workOrders } from '../db/schema/index';

/** The count of a `select({ n: count() })`. */
export const countOf = async (q: Promise<{ n: number }[]>) => (await q)[0].n;

/** Rows of every table an import writes: an import that fails must leave each as it was. */
export async function importFootprint(db: Db) {
  return {
    jobs: await countOf(db.select({ n: count() }).from(jobs)),
    tickets: await countOf(db.select({ n: count() }).from(tickets)),
    tasks: await countOf(db.select({ n: count() }).from(ticketTasks)),
    workOrders: await countOf(db.select({ n: count() }).from(workOrders)),
    poles: await countOf(db.select({ n: count() }).from(poles)),
    units: await countOf(db.select({ n: count() }).from(units)),
  };
}
