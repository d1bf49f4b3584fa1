import { and, asc, eq, or, sql } from 'drizzle-orm';
import { money } from '../../../shared/money';
import type { DbOrTx } from '../../db/client';
import { units } from '../../db/schema/index';
import { notFromPendingImport } from '../../db/sql';

export const UNIT_SEARCH_LIMIT = 50;
/** Most units one GET /units answers (the Unit Library page reads a utility's whole library). */
export const UNIT_LIBRARY_LIMIT = 5000;

const containsPattern = (text: string) => `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A unit as GET /units shows it (the price is added for the roles that may see it). */
const unitColumns = {
  id: units.id,
  code: units.code,
  description: units.description,
  family: units.family,
  type: units.type,
  action: units.action,
  uom: units.uom,
  utility_id: units.utilityId,
};

/**
 * The company's unit library matching `search` in the code or the description (case-insensitive),
 * codes starting with the text first; optionally one utility's library only.
 */
export async function searchUnits(db: DbOrTx, companyId: number, search: string, utilityId: number | null, limit = UNIT_SEARCH_LIMIT, withPrice = false) {
  const text = search.trim().toLowerCase();
  const where = [eq(units.companyId, companyId), notFromPendingImport(units.importJobId)];
  if (utilityId != null) where.push(eq(units.utilityId, utilityId));
  if (text) {
    const like = containsPattern(text);
    where.push(or(sql`lower(${units.code}) like ${like}`, sql`lower(${units.description}) like ${like}`)!);
  }
  const prefix = `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const order = text
    ? [asc(sql`case when lower(${units.code}) like ${prefix} then 0 else 1 end`), asc(sql`lower(${units.code})`), asc(units.id)]
    : [asc(sql`lower(${units.code})`), asc(units.id)];
  const rows = await db
    .select({
      ...unitColumns,
      // Only for the roles that may see prices (billing.read): otherwise not even selected.
      ...(withPrice ? { unit_price: units.unitPrice } : {}),
    })
    .from(units)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit);
  return withPrice ? rows.map(priced) : rows;
}

/**
 * A numeric as the wire has it: "12.50". PGlite hands numeric over as a number (12.5 → "12.5"),
 * node-postgres as the column's text ("12.50"): money() makes both the same.
 */
const priced = <T extends { unit_price?: string | null }>(row: T): T => ({ ...row, unit_price: row.unit_price == null ? null : money(row.unit_price) });

/** Sets (or clears, with null) one unit's price; the unit as GET /units shows it, or undefined when it is not the company's. */
export async function updateUnitPrice(db: DbOrTx, companyId: number, id: number, unitPrice: string | null) {
  const [row] = await db
    .update(units)
    .set({ unitPrice })
    .where(and(eq(units.companyId, companyId), eq(units.id, id)))
    .returning({
      ...unitColumns,
      unit_price: units.unitPrice,
    });
  return row && priced(row);
}
