/*
 * Kept apart from excel.ts (and its zod schemas): the job page's Upload Spreadsheet reads a
 * workbook's columns with it (web/components/workbookRead.ts), and zod stays off that page's first
 * load (decision 061). excel.ts re-exports it for everyone else.
 */

/** Is this target mapped to a column? */
export function isMapped(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
