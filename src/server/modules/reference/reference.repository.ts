import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { permitTypes, specs, utilities } from '../../db/schema/index';
import { prefixPattern } from '../../db/sql';

/** Reference lists of the company (docs/product/entities.md §5 Spec, Utility; §7 specs, permits, utilities). */
export const listUtilities = (db: DbOrTx, companyId: number) =>
  db.select({ id: utilities.id, code: utilities.code }).from(utilities).where(eq(utilities.companyId, companyId)).orderBy(asc(utilities.code));

export const listPermitTypes = (db: DbOrTx, companyId: number) =>
  db.select({ id: permitTypes.id, title: permitTypes.title }).from(permitTypes).where(eq(permitTypes.companyId, companyId)).orderBy(asc(permitTypes.id));

/** Spec numbers starting with `partial` (case-insensitive), in order; empty lists the first ones. */
export const searchSpecs = (db: DbOrTx, companyId: number, partial: string, limit: number) =>
  db
    .select({ spec_number: specs.specNumber })
    .from(specs)
    .where(and(eq(specs.companyId, companyId), partial.trim() ? sql`lower(${specs.specNumber}) like ${prefixPattern(partial)}` : undefined))
    .orderBy(asc(sql`lower(${specs.specNumber})`), asc(specs.id))
    .limit(limit);

export async function permitTypeExists(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
  const rows = await db.select({ id: permitTypes.id }).from(permitTypes).where(and(eq(permitTypes.companyId, companyId), eq(permitTypes.id, id)));
  return rows.length > 0;
}

/** Utility of this company by id or code (case-insensitive), or undefined. */
export async function findUtility(db: DbOrTx, companyId: number, idOrCode: number | string) {
  const cond =
    typeof idOrCode === 'number' ? eq(utilities.id, idOrCode) : sql`lower(${utilities.code}) = ${idOrCode.trim().toLowerCase()}`;
  return (await db.select({ id: utilities.id, code: utilities.code }).from(utilities).where(and(eq(utilities.companyId, companyId), cond)))[0];
}
