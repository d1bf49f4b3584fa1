import { eq, sql } from 'drizzle-orm';
import type { CompanySettings, CompanyUpdate } from '../../../shared/company.schemas';
import { MSG } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db/client';
import { companies } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';

const columns = {
  id: companies.id,
  name: companies.name,
  time_zone: companies.timeZone,
  evidence_radius_m: companies.evidenceRadiusM,
  evidence_photos_required: companies.evidencePhotosRequired,
};

export async function companySettings(ctx: AppContext, companyId: number): Promise<CompanySettings> {
  const [row] = await ctx.db.select(columns).from(companies).where(eq(companies.id, companyId));
  if (!row) throw notFound('company');
  return row;
}

/**
 * PUT /company: the settings sent, the rest kept. The zone is stored under its canonical name
 * (`US/Eastern` → `America/New_York`), and only one the database knows as well: invoices and the
 * dashboard read the company's calendar in SQL (`at time zone`), where an unknown name would fail
 * every such read afterwards. A new evidence radius rechecks every photo of the company in the
 * same statement (migration 0024's trigger on companies).
 */
export async function updateCompany(ctx: AppContext, companyId: number, body: CompanyUpdate): Promise<CompanySettings> {
  const set: Partial<typeof companies.$inferInsert> = {};
  if (body.time_zone !== undefined) {
    const zone = new Intl.DateTimeFormat('en-US', { timeZone: body.time_zone }).resolvedOptions().timeZone;
    const known = await ctx.db.execute(sql`select 1 from pg_timezone_names where name = ${zone}`);
    if (rowsOf(known).length === 0) throw badRequest(MSG.timeZoneInvalid, { time_zone: MSG.timeZoneInvalid });
    set.timeZone = zone;
  }
  if (body.evidence_radius_m !== undefined) set.evidenceRadiusM = body.evidence_radius_m;
  if (body.evidence_photos_required !== undefined) set.evidencePhotosRequired = body.evidence_photos_required;
  if (Object.keys(set).length === 0) return companySettings(ctx, companyId);
  const [row] = await ctx.db.update(companies).set(set).where(eq(companies.id, companyId)).returning(columns);
  if (!row) throw notFound('company');
  return row;
}
