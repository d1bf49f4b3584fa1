import { describe, expect, it } from 'vitest';
import { count, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/client';
import { history, jobs } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';
import { countOf, importFootprint } from '../../test/import-footprint';
import { warmUpImports } from './warm-up';

/** The start-up warm-up of the import (decision 034): it runs an import of one ticket and leaves nothing of it. */

const t = await createTestApp();
const db = t.ctx.db;

const lastTicketId = async () => Number(rowsOf<{ v: number }>(await db.execute(sql`select last_value as v from tickets_id_seq`))[0].v);

describe('warmUpImports', () => {
  it('writes a ticket under a hidden job, then leaves every table as it was and no pending job', async () => {
    const before = { ...(await importFootprint(db)), history: await countOf(db.select({ n: count() }).from(history)) };
    const ticketSeq = await lastTicketId();
    await warmUpImports(db);
    // It did write a ticket (the id sequence moved on by one) ...
    expect(await lastTicketId()).toBe(ticketSeq + 1);
    // ... and nothing of it stayed.
    expect({ ...(await importFootprint(db)), history: await countOf(db.select({ n: count() }).from(history)) }).toEqual(before);
    expect(rowsOf(await db.execute(sql`select id from ${jobs} where import_pending`))).toEqual([]);
  });
});
