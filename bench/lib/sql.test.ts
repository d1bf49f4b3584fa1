import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client';
import { capture, stagesOf } from './sql';

// The bare-SQL replay follows the route's own stages: what a route sends together is replayed
// together, what waited for a reply waits again (a replay more parallel than the route
// under-states the SQL it waits for).
describe('bench: the stages of a captured request', () => {
  let database: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    database = await openDatabase({});
  });
  afterAll(() => database.close());

  it('groups statements sent together and splits those sent after a reply', async () => {
    const { db } = database;
    const { result, statements } = await capture(async () => {
      await db.execute(sql`select 1 as session`);
      const [keys] = await Promise.all([db.execute(sql`select 2 as keys`), db.execute(sql`select 3 as total`)]);
      await Promise.all([db.execute(sql`select 4 as rows`), db.execute(sql`select 5 as percents`)]);
      await db.execute(sql`select 6 as last`);
      return keys;
    }, db);
    expect(result).toBeDefined();
    const names = stagesOf(statements).map((stage) => stage.map((s) => s.query.replace(/^select \d as /, '')));
    expect(names).toEqual([['session'], ['keys', 'total'], ['rows', 'percents'], ['last']]);
  });

  it('one statement after another is one stage each', async () => {
    const { db } = database;
    const { statements } = await capture(async () => {
      for (let i = 0; i < 3; i++) await db.execute(sql`select ${i}::int`);
    }, db);
    expect(stagesOf(statements).map((stage) => stage.length)).toEqual([1, 1, 1]);
  });
});
