import { and, eq, sql } from 'drizzle-orm';
import type { LibraryMappings, SavedMapping, TicketsMappings } from '../../../shared/excel';
import type { DbOrTx } from '../../db/client';
import { savedMappings, utilities } from '../../db/schema/index';

/**
 * Saved mappings (docs/product/records.md §4): the column mapping last imported with, per company and utility.
 * Read into the columns reply of the mapping step; written after an import that used a mapping.
 */

/** The utility's saved mapping, or null; another company's utility has none. */
export async function findSavedMapping(db: DbOrTx, companyId: number, utilityId: number): Promise<SavedMapping | null> {
  const [row] = await db
    .select({ ticketsMappings: savedMappings.ticketsMappings, libraryMappings: savedMappings.libraryMappings })
    .from(savedMappings)
    .where(and(eq(savedMappings.companyId, companyId), eq(savedMappings.utilityId, utilityId)));
  return row ?? null;
}

/**
 * Keeps `tickets` (and `library`, when the import mapped a library sheet; otherwise the library
 * mapping saved before stays) as the utility's mapping. Only a utility of the company is saved:
 * the insert selects it by both ids.
 */
export async function saveMapping(db: DbOrTx, companyId: number, utilityId: number, tickets: TicketsMappings, library: LibraryMappings | undefined) {
  const t = JSON.stringify(tickets);
  const l = library ? JSON.stringify(library) : null;
  await db.execute(sql`
    insert into ${savedMappings} (company_id, utility_id, tickets_mappings, library_mappings, updated_at)
    select ${companyId}, u.id, ${t}::jsonb, coalesce(${l}::jsonb, '{}'::jsonb), now()
    from ${utilities} u where u.id = ${utilityId} and u.company_id = ${companyId}
    on conflict (company_id, utility_id) do update set
      tickets_mappings = excluded.tickets_mappings,
      library_mappings = coalesce(${l}::jsonb, ${savedMappings}.library_mappings),
      updated_at = now()`);
}
