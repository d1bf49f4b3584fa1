import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../../db/client';

/**
 * The evidence of billed tickets (docs/product/billing.md §7), read per batch of tickets so that a
 * 1,000-ticket invoice is never one huge result. Scoped by the caller's company.
 */

/** `expr` is one of the ids of `list`, sent as ONE JSON parameter however long the list. */
const inIds = (expr: ReturnType<typeof sql>, list: readonly number[]) =>
  sql`${expr} in (select v::int from jsonb_array_elements_text(${JSON.stringify(list)}::jsonb) as v)`;

/** One photo of a ticket as the pack reads it (no bytes: those come from storage one at a time). */
export interface EvidencePhotoRow {
  id: number;
  url: string;
  thumbnail_url: string;
  taken_at: string | null;
  uploaded_at: string;
  /** The photo checks (docs/product/records.md §7). */
  distance_m: number | null;
  flags: string[];
}

/** A ticket's completion record and photos. */
export interface EvidenceRecordRow {
  ticket_id: number;
  completed_at: string | null;
  /** The completion record's who and where (docs/product/records.md §6). */
  completed_by_name: string | null;
  completed_lat: number | null;
  completed_lon: number | null;
  completed_accuracy_m: number | null;
  photos: EvidencePhotoRow[];
}

/**
 * THE query of the pack's per-ticket evidence: the completion record's who/where and each photo
 * with its checks (docs/product/records.md §6–§7). Photos in the order they were taken (then uploaded).
 */
export async function evidenceRecords(db: DbOrTx, companyId: number, ticketIds: readonly number[]): Promise<EvidenceRecordRow[]> {
  if (ticketIds.length === 0) return [];
  const result = await db.execute(sql`
    select coalesce(json_agg(r), '[]')::text as rows from (
      select t.id as ticket_id, t.actual_completion_date as completed_at,
        (select trim(u.first_name || ' ' || u.last_name) from users u where u.id = t.completed_by) as completed_by_name,
        t.completed_lat, t.completed_lon, t.completed_accuracy_m,
        coalesce((
          select json_agg(json_build_object(
            'id', i.id, 'url', i.url, 'thumbnail_url', i.thumbnail_url, 'taken_at', i.taken_at, 'uploaded_at', i.uploaded_at,
            'distance_m', i.distance_m, 'flags', i.flags
          ) order by i.taken_at nulls last, i.uploaded_at, i.id)
          from images i where i.company_id = t.company_id and i.ticket_id = t.id
        ), '[]'::json) as photos
      from tickets t
      where t.company_id = ${companyId} and ${inIds(sql`t.id`, ticketIds)}
    ) r`);
  return JSON.parse(rowsOf<{ rows: string }>(result)[0]?.rows ?? '[]') as EvidenceRecordRow[];
}
