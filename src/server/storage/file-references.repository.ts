import { sql } from 'drizzle-orm';
import { rowsOf, type DbOrTx } from '../db/client';

/**
 * Of these urls, the ones a record of the company still points at: the only SQL that knows
 * every column holding a stored file's url. A new such column must be added to `refs`, or its
 * files may be deleted while it still shows them. A stored url is compared
 * without its query string or fragment, so "/files/…/a.pdf?x" still holds "/files/…/a.pdf".
 * One statement.
 */
export async function urlsStillReferenced(db: DbOrTx, companyId: number, urls: readonly string[]): Promise<Set<string>> {
  if (urls.length === 0) return new Set();
  const list = JSON.stringify(urls);
  const result = await db.execute<{ u: string }>(sql`
    with wanted as (select jsonb_array_elements_text(${list}::jsonb) as u),
    refs as (
      select work_packet_url as u from jobs where company_id = ${companyId}
      union all select dig_safe_url from tickets where company_id = ${companyId}
      union all select nra_url from tickets where company_id = ${companyId}
      union all select permit_url from permits where company_id = ${companyId}
      union all select url from images where company_id = ${companyId}
      union all select thumbnail_url from images where company_id = ${companyId}
    )
    select distinct u from wanted
    where u in (select split_part(split_part(r.u, '#', 1), '?', 1) from refs r where r.u is not null)`);
  return new Set(rowsOf<{ u: string }>(result).map((r) => r.u));
}

/**
 * Serialises "attach a stored file to a record" with "delete it because nothing points at it".
 * Both take a transaction-scoped advisory lock per url (released at commit): the deleter an
 * exclusive one, around its reference check and the delete; a writer that attaches an existing
 * upload a shared one, before checking that the object exists. So either the deleter sees the
 * new reference and keeps the file, or the writer sees the file gone and answers 400 — never a
 * record pointing at a deleted file. Urls are locked in sorted order, so two deleters cannot
 * deadlock; writers share their locks, so they never wait for each other.
 */
export async function lockFileUrls(db: DbOrTx, urls: readonly string[], mode: 'attach' | 'delete'): Promise<void> {
  const sorted = [...new Set(urls)].sort();
  if (sorted.length === 0) return;
  const fn = mode === 'delete' ? sql`pg_advisory_xact_lock` : sql`pg_advisory_xact_lock_shared`;
  // 'linecrew-file:' keeps these keys apart from other advisory locks of the app.
  await db.execute(
    sql`select ${fn}(hashtextextended('linecrew-file:' || u, 0)) from jsonb_array_elements_text(${JSON.stringify(sorted)}::jsonb) with ordinality as x(u, n) order by n`,
  );
}
