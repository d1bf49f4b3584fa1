import { count } from 'drizzle-orm';
import type { Db } from './client';
import { nameClashes } from './schema/index';

/** How many rows the look-alike migration listed and nobody has dealt with yet (main.ts logs it). */
export async function countNameClashes(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(nameClashes);
  return Number(row?.n ?? 0);
}
