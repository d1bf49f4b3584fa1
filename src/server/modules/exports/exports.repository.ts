import { sql } from 'drizzle-orm';
import type { ExportTicket } from '../../../shared/export';
import { rowsOf, type DbOrTx } from '../../db/client';
import { isoInstant } from '../../db/sql';
import { ticketStatus } from '../tickets/tickets.service';

/**
 * The job's tickets as the exports read them (src/shared/export.ts ExportTicket), in ONE statement:
 * only the fields the rows are built from, where the full read model (loadTicketsOfJob: six
 * statements, photos, permits, names…) of a 5,000-ticket job is ~12 MB of objects the workbook
 * never looks at. The values are the full read's: pole and line from the ticket's pole, the
 * ticket's own address and coordinates, the pole's as fallbacks, work orders by id, tasks by id
 * with their description (the row's own, else the unit library's, docs/product/imports.md §12),
 * notes by date then id; status from the completion date (ticketStatus). Each child list is one
 * index look-up per ticket (ticket_id indexes), which stays bounded by the job at any size of the
 * company (a join of the whole child table was a sequential scan of 1 M work orders, decision
 * 011). The rows come back as one JSON text, ordered by ticket id: PGlite hands over one value far
 * faster than thousands of rows of arrays. Empty for another company's job.
 */
export async function selectExportTickets(db: DbOrTx, companyId: number, jobId: number): Promise<ExportTicket[]> {
  const result = await db.execute<{ rows: string }>(sql`
    select coalesce(json_agg(r order by r.id), '[]')::text as rows from (
      select t.id, p.pole_name, p.line_name, t.street_address, t.geo_lat, t.geo_lon,
        floor(extract(epoch from t.actual_completion_date) * 1000) as completed_ms,
        case when p.id is null then null else json_build_object('street_address', p.street_address, 'geo_lat', p.geo_lat, 'geo_lon', p.geo_lon) end as pole,
        array(select wo.work_order from work_orders wo where wo.ticket_id = t.id and wo.company_id = t.company_id order by wo.id) as work_orders,
        coalesce((
          select json_agg(json_build_object('code', un.code, 'description', coalesce(tt.description, un.description), 'init_qty', tt.init_qty, 'additional_qty', tt.additional_qty) order by tt.id)
          from ticket_tasks tt join units un on un.id = tt.unit_id
          where tt.ticket_id = t.id and tt.company_id = t.company_id
        ), '[]') as tasks,
        coalesce((
          select json_agg(json_build_object('note_text', n.note_text) order by n.created_date, n.id)
          from notes n where n.ticket_id = t.id and n.company_id = t.company_id
        ), '[]') as notes
      from tickets t
      left join poles p on p.id = t.pole_id and p.company_id = t.company_id
      where t.company_id = ${companyId} and t.job_id = ${jobId}
    ) r`);
  const rows = JSON.parse(rowsOf<{ rows: string }>(result)[0]?.rows ?? '[]') as (Omit<ExportTicket, 'actual_completion_date' | 'status'> & { completed_ms: number | null })[];
  return rows.map(({ completed_ms, ...t }) => {
    // The instant and the status as the full read gives them.
    const completed = completed_ms == null ? null : new Date(completed_ms);
    return { ...t, actual_completion_date: isoInstant(completed), status: ticketStatus(completed) };
  });
}
