import { and, asc, eq, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { units } from '../../db/schema/index';

export const UNIT_SEARCH_LIMIT = 50;

const containsPattern = (text: string) => `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The company's unit library matching `search` in the code or the description (case-insensitive),
 * codes starting with the text first; optionally one utility's library only.
 */
export function searchUnits(db: DbOrTx, companyId: number, search: string, utilityId: number | null, limit = UNIT_SEARCH_LIMIT) {
  const text = search.trim().toLowerCase();
  const where = [eq(units.companyId, companyId)];
  if (utilityId != null) where.push(eq(units.utilityId, utilityId));
  if (text) {
    const like = containsPattern(text);
    where.push(or(sql`lower(${units.code}) like ${like}`, sql`lower(${units.description}) like ${like}`)!);
  }
  const prefix = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const order = text
    ? [asc(sql`case when lower(${units.code}) like ${prefix} then 0 else 1 end`), asc(sql`lower(${units.code})`), asc(units.id)]
    : [asc(sql`lower(${units.code})`), asc(units.id)];
  return db
    .select({
      id: units.id,
      code: units.code,
      description: units.description,
      family: units.family,
      type: units.type,
      action: units.action,
      uom: units.uom,
      utility_id: units.utilityId,
    })
    .from(units)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit);
}
