import { eq, sql } from 'drizzle-orm';
import type { CompanySettings, CompanyUpdate } from '../../../shared/company.schemas';
import { MSG } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { rowsOf } from '../../db/client';
import { companies } from '../../db/schema/index';
import { badRequest, notFound } from '../../errors';

const columns = { id: companies.id, name: companies.name, time_zone: companies.timeZone };

export async function companySettings(ctx: AppContext, companyId: number): Promise<CompanySettings> {
  const [row] = await ctx.db.select(columns).from(companies).where(eq(companies.id, companyId));
  if (!row) throw notFound('company');
  return row;
}

/**
 * Stores the zone under its canonical name (`US/Eastern` → `America/New_York`), and only one the
 * database knows as well: invoices and the dashboard read the company's calendar in SQL
 * (`at time zone`), where an unknown name would fail every such read afterwards.
 */
export async function updateCompany(ctx: AppContext, companyId: number, body: CompanyUpdate): Promise<CompanySettings> {
  const zone = new Intl.DateTimeFormat('en-US', { timeZone: body.time_zone }).resolvedOptions().timeZone;
  const known = await ctx.db.execute(sql`select 1 from pg_timezone_names where name = ${zone}`);
  if (rowsOf(known).length === 0) throw badRequest(MSG.timeZoneInvalid, { time_zone: MSG.timeZoneInvalid });
  const [row] = await ctx.db.update(companies).set({ timeZone: zone }).where(eq(companies.id, companyId)).returning(columns);
  if (!row) throw notFound('company');
  return row;
}
