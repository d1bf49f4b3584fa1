import { z } from 'zod';
import { formatImportErrors, libraryMappingsSchema, ticketsMappingsSchema } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import type { AppContext } from '../../context';
import { AppError, badRequest, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { importOptions } from '../excel/excel.service';
import { sheetUploadOffThread } from '../excel/workbook-import';
import { importTickets } from '../imports/import.service';
import { findJobForImport } from './tickets.repository';

/**
 * POST /tickets/xls-upload (issue 4): a workbook's tickets added to an existing job with the
 * mapping logic of job creation (src/shared/excel.ts, the Excel converter, importTickets), in one
 * transaction. Decision: like job creation, a file with any bad row adds nothing; the reply is a
 * 422 that lists every rejected row, so the user fixes the file and uploads it again.
 */
const jsonField = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .max(64 * 1024)
    .optional()
    .transform((text, c): z.infer<T> | undefined => {
      if (text === undefined || text.trim() === '') return undefined;
      try {
        const parsed = schema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
      } catch {
        // reported below
      }
      c.addIssue({ code: 'custom', message: 'must be a JSON object of target → column header' });
      return z.NEVER;
    });

/** The multipart fields (every value but the file is text). `file` is checked by the service. */
export const xlsUploadBody = z.object({
  file: z.any().optional().describe('the .xlsx or .csv workbook'),
  job_id: z.coerce.number().int().positive().max(2_147_483_647),
  ticketsMappings: jsonField(ticketsMappingsSchema),
  libraryMappings: jsonField(libraryMappingsSchema),
});
export type XlsUploadBody = z.infer<typeof xlsUploadBody>;

export interface XlsResult {
  tickets: number;
  tasks: number;
  rejectedRows: { row: number; message: string }[];
}

export async function uploadSpreadsheet(ctx: AppContext, user: CurrentUser, body: XlsUploadBody): Promise<XlsResult | (XlsResult & { error: string })> {
  if (!Buffer.isBuffer(body.file) || body.file.length === 0) throw badRequest(MSG.xlsFileMissing, { file: 'required' });
  const job = await findJobForImport(ctx.db, user.companyId, body.job_id);
  if (!job) throw notFound('job');

  // Parsed, mapped (the sent mapping or the default one; the library sheet too when it is
  // mapped) and converted in the workbook worker, so the server keeps answering meanwhile.
  const result = await sheetUploadOffThread(
    body.file,
    { ticketsMappings: body.ticketsMappings, libraryMappings: body.libraryMappings, overrides: job },
    importOptions(ctx, user),
  );
  const rejected = (rows: { row: number; message: string }[]) => ({
    error: rows.length === 1 && rows[0].row === 0 ? rows[0].message : MSG.xlsRejected(rows.length),
    tickets: 0,
    tasks: 0,
    rejectedRows: rows,
  });
  if (result.errors.length) {
    const rows = result.errors.map((e) => ({ row: e.row, message: e.message }));
    return { ...rejected(rows), error: `${MSG.xlsRejected(rows.length)} ${formatImportErrors(result.errors)}` };
  }
  if (result.tickets.length === 0) return rejected([{ row: 0, message: MSG.excelNoRows }]);

  try {
    const counts = await ctx.db.transaction((tx) =>
      importTickets(tx, { companyId: user.companyId, jobId: job.id, utilityId: job.utilityId, userId: user.id }, result.tickets, result.library),
    );
    return { tickets: counts.tickets, tasks: counts.tasks, rejectedRows: [] };
  } catch (err) {
    // importTickets checks rows against the library before writing and names the row it refuses.
    if (err instanceof AppError && err.statusCode === 400) {
      const row = Number(/Row (\d+)/.exec(err.message)?.[1] ?? 0);
      return { ...rejected([{ row, message: err.message }]), error: `${MSG.xlsRejected(1)} ${err.message}` };
    }
    throw err;
  }
}
