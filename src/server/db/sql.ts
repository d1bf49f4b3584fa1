import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { DISQUALIFYING_FLAGS } from '../../shared/evidence';
import { jobs } from './schema/index';

/**
 * Pieces of SQL that the repositories of several modules share. They sit here, below every
 * module, so that a repository never imports another module's repository for them
 * (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */

/**
 * Readers' condition on `jobs`: a job whose import is still being written is not there yet
 * (staged imports, decision 027; the imports module writes and publishes them).
 */
export const jobIsPublished: SQL = sql`not ${jobs.importPending}`;

/** Readers' condition on poles and units: not created by an import that is still pending. */
export const notFromPendingImport = (importJobId: AnyColumn): SQL =>
  sql`(${importJobId} is null or not exists (select 1 from jobs pj where pj.id = ${importJobId} and pj.import_pending))`;

/** `abc` → `abc%` with LIKE's wildcards escaped, lower-cased for the lower(name) indexes. */
export function prefixPattern(text: string): string {
  return `${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** An instant from either driver (Date or text) as an ISO string. */
export function isoInstant(v: Date | string | null | undefined): string | null {
  if (v == null) return null;
  const d = v instanceof Date ? v : new Date(v);
  return Number.isNaN(d.getTime()) ? String(v) : d.toISOString();
}

/** A photo whose flags (a text[] column or expression) leave it evidence: none of DISQUALIFYING_FLAGS (src/shared/evidence.ts). */
export const countsAsEvidenceSql = (flags: SQL | AnyColumn) => sql`not (${flags} && array[${sql.raw(DISQUALIFYING_FLAGS.map((f) => `'${f}'`).join(', '))}]::text[])`;
