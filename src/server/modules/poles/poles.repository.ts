import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { PoleFields } from '../../../shared/poles.schemas';
import type { Pole } from '../../../shared/tickets.schemas';
import type { DbOrTx } from '../../db/client';
import { accessTypes, poles, tickets, utilities } from '../../db/schema/index';
import { notFromPendingImport, prefixPattern } from '../../db/sql';

/** docs/product/entities.md §7 Pole as the routes answer it; utility and access type are joined, company-scoped. */
const poleColumns = {
  id: poles.id,
  pole_id: poles.poleId,
  pole_name: poles.poleName,
  line_id: poles.lineId,
  line_name: poles.lineName,
  utility_id_owning_pole: poles.utilityId,
  utility_name: utilities.code,
  street_address: poles.streetAddress,
  geo_lat: poles.geoLat,
  geo_lon: poles.geoLon,
  accessibility_id: poles.accessibilityId,
  accessibility_label: accessTypes.title,
  utility_spec: poles.utilitySpec,
  primary_voltage: poles.primaryVoltage,
  secondary_voltage: poles.secondaryVoltage,
  arc_rating: poles.arcRating,
  sub_curcuit: poles.subCurcuit,
  sap_curcuit: poles.sapCurcuit,
};

function selectPoles(db: DbOrTx) {
  return db
    .select(poleColumns)
    .from(poles)
    .leftJoin(utilities, and(eq(utilities.id, poles.utilityId), eq(utilities.companyId, poles.companyId)))
    .leftJoin(accessTypes, and(eq(accessTypes.id, poles.accessibilityId), eq(accessTypes.companyId, poles.companyId)));
}

export interface PoleSearch {
  companyId: number;
  utilityId?: number | null;
  /** Prefixes (case-insensitive); empty or undefined = any. */
  pole?: string;
  line?: string;
  /** Exact (case-insensitive, trimmed) instead of prefix. */
  exact?: boolean;
  orderBy?: 'pole' | 'line';
  limit: number;
}

export async function searchPoles(db: DbOrTx, s: PoleSearch): Promise<Pole[]> {
  const where: SQL[] = [eq(poles.companyId, s.companyId), notFromPendingImport(poles.importJobId)];
  if (s.utilityId != null) where.push(eq(poles.utilityId, s.utilityId));
  const match = (col: typeof poles.poleName | typeof poles.lineName, text: string | undefined) => {
    if (!text?.trim()) return;
    where.push(s.exact ? sql`lower(${col}) = ${text.trim().toLowerCase()}` : sql`lower(${col}) like ${prefixPattern(text)}`);
  };
  match(poles.poleName, s.pole);
  match(poles.lineName, s.line);
  const byPole = [asc(sql`lower(${poles.poleName})`), asc(sql`lower(${poles.lineName})`)];
  const byLine = [asc(sql`lower(${poles.lineName})`), asc(sql`lower(${poles.poleName})`)];
  return selectPoles(db)
    .where(and(...where))
    .orderBy(...(s.orderBy === 'line' ? byLine : byPole), asc(poles.id))
    .limit(s.limit);
}

export const findPole = async (db: DbOrTx, companyId: number, id: number): Promise<Pole | undefined> =>
  (await selectPoles(db).where(and(eq(poles.companyId, companyId), eq(poles.id, id))))[0];

/** A ticket of the job whose pole has this pole name and line name (trimmed, case-insensitive). */
export async function ticketWithPoleLine(db: DbOrTx, companyId: number, jobId: number, poleName: string, lineName: string) {
  const [row] = await db
    .select({ id: tickets.id })
    .from(tickets)
    .innerJoin(poles, and(eq(poles.id, tickets.poleId), eq(poles.companyId, tickets.companyId)))
    .where(
      and(
        eq(tickets.companyId, companyId),
        eq(tickets.jobId, jobId),
        sql`lower(trim(${poles.poleName})) = ${poleName.trim().toLowerCase()}`,
        sql`lower(trim(${poles.lineName})) = ${lineName.trim().toLowerCase()}`,
      ),
    )
    .limit(1);
  return row?.id;
}

/** The company's access types of poles (docs/product/entities.md §7 Access type), for the Pole tab's list. */
export const listAccessTypes = (db: DbOrTx, companyId: number) =>
  db.select({ id: accessTypes.id, title: accessTypes.title }).from(accessTypes).where(eq(accessTypes.companyId, companyId)).orderBy(asc(accessTypes.id));

export async function accessTypeExists(db: DbOrTx, companyId: number, id: number): Promise<boolean> {
  const rows = await db.select({ id: accessTypes.id }).from(accessTypes).where(and(eq(accessTypes.companyId, companyId), eq(accessTypes.id, id)));
  return rows.length > 0;
}

/** Pole fields of the API → columns. Only keys present in `f` are set. */
function toColumns(f: PoleFields): Partial<typeof poles.$inferInsert> {
  const map: Record<keyof PoleFields, keyof typeof poles.$inferInsert> = {
    pole_id: 'poleId',
    pole_name: 'poleName',
    line_id: 'lineId',
    line_name: 'lineName',
    utility_id_owning_pole: 'utilityId',
    street_address: 'streetAddress',
    geo_lat: 'geoLat',
    geo_lon: 'geoLon',
    accessibility_id: 'accessibilityId',
    utility_spec: 'utilitySpec',
    primary_voltage: 'primaryVoltage',
    secondary_voltage: 'secondaryVoltage',
    arc_rating: 'arcRating',
    sub_curcuit: 'subCurcuit',
    sap_curcuit: 'sapCurcuit',
  };
  const out: Record<string, unknown> = {};
  for (const [k, col] of Object.entries(map) as [keyof PoleFields, string][]) {
    const v = f[k];
    if (v !== undefined) out[col] = typeof v === 'string' && v.trim() === '' && k !== 'pole_name' && k !== 'line_name' ? null : v;
  }
  return out as Partial<typeof poles.$inferInsert>;
}

export async function updatePole(db: DbOrTx, companyId: number, id: number, fields: PoleFields): Promise<boolean> {
  const set = toColumns(fields);
  if (Object.keys(set).length === 0) return (await findPole(db, companyId, id)) !== undefined;
  const rows = await db
    .update(poles)
    .set(set)
    .where(and(eq(poles.companyId, companyId), eq(poles.id, id)))
    .returning({ id: poles.id });
  return rows.length > 0;
}

export async function insertPole(
  db: DbOrTx,
  companyId: number,
  fields: PoleFields & { pole_name: string; line_name: string; utility_id_owning_pole: number },
): Promise<number> {
  const [row] = await db
    .insert(poles)
    .values({ ...toColumns(fields), companyId, poleName: fields.pole_name, lineName: fields.line_name } as typeof poles.$inferInsert)
    .returning({ id: poles.id });
  return row.id;
}
