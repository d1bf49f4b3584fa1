import { z } from 'zod';
import { formatImportErrors, libraryMappingsSchema, sheetNameSchema, ticketsMappingsSchema, type WorkbookColumns } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { PREVIEW_CHANGES_LISTED, previewTokenSchema, REIMPORT_MODES, type ReimportPreview } from '../../../shared/reimport';
import type { AppContext } from '../../context';
import { AppError, badRequest, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { importIntoJob } from './import-into-job';
import { reimportTickets } from './reimport';
import { importScope, StalePreviewError, type ImportPlan } from './types';
import { importOptions } from './uploaded-workbook';
import { sheetColumnsOffThread, sheetUploadOffThread } from './worker/off-thread';
import { findJob } from '../job-record/job-record.service';
import { findSavedMapping, saveMapping } from './saved-mapping.repository';

/**
 * POST /tickets/xls-upload: a workbook's tickets added to an existing job with the
 * mapping logic of job creation (src/shared/excel.ts, the Excel converter, importTickets), in one
 * transaction. Decision: like job creation, a file with any bad row adds nothing; the reply is a
 * 422 that lists every rejected row, so the user fixes the file and uploads it again.
 *
 * Re-import (decision 018): `mode` asks for the columns, a preview, or an
 * import that adds new rows only (the default) or also updates the bid of matched tasks; a
 * matched row never adds a second task. The preview and the import share importTickets' plan.
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
  mode: z.enum(REIMPORT_MODES).default('add_new'),
  /** The preview's token: the import is refused with 409 (and a new preview) if the job changed since. */
  preview_token: previewTokenSchema.optional(),
  /** Sheets picked on the mapping step (docs/product/imports.md); absent: chosen by their names and headers. */
  ticketsSheet: sheetNameSchema.optional(),
  librarySheet: sheetNameSchema.optional(),
});
export type XlsUploadBody = z.infer<typeof xlsUploadBody>;

export interface XlsResult {
  tickets: number;
  tasks: number;
  /** Matched tasks whose bid quantity was updated (mode update_quantities). */
  updated: number;
  rejectedRows: { row: number; message: string }[];
}

export type XlsOutcome =
  | { kind: 'columns'; columns: WorkbookColumns }
  | { kind: 'preview'; preview: ReimportPreview }
  | { kind: 'imported'; result: XlsResult }
  | { kind: 'rejected'; result: XlsResult & { error: string } }
  | { kind: 'stale'; error: string; preview: ReimportPreview };

const previewOf = (plan: ImportPlan): ReimportPreview => ({
  mode: 'preview',
  new_tickets: plan.newTickets,
  new_tasks: plan.newTasks,
  changed_quantities: plan.changed.slice(0, PREVIEW_CHANGES_LISTED),
  changed_total: plan.changed.length,
  unchanged: plan.unchanged,
  preview_token: plan.token,
});

export async function uploadSpreadsheet(ctx: AppContext, user: CurrentUser, body: XlsUploadBody, log?: (err: unknown) => void): Promise<XlsOutcome> {
  if (!Buffer.isBuffer(body.file) || body.file.length === 0) throw badRequest(MSG.xlsFileMissing, { file: 'required' });
  const job = await findJob(ctx.db, user.companyId, body.job_id);
  if (!job) throw notFound('job');
  const sheets = { ticketsSheet: body.ticketsSheet, librarySheet: body.librarySheet };
  if (body.mode === 'columns') {
    const columns = await sheetColumnsOffThread(body.file, importOptions(ctx, user), sheets);
    // The job's utility's saved mapping, for the mapping step to start from (docs/product/records.md §4).
    return { kind: 'columns', columns: { ...columns, saved: await findSavedMapping(ctx.db, user.companyId, job.utilityId) } };
  }

  // Parsed, mapped (the sent mapping or the default one; the library sheet too when it is
  // mapped) and converted in the workbook worker, so the server keeps answering meanwhile.
  const result = await sheetUploadOffThread(
    body.file,
    {
      ticketsMappings: body.ticketsMappings,
      libraryMappings: body.libraryMappings,
      overrides: {
        ehasp_override: job.ehaspOverride,
        arc_rating_override: job.arcRatingOverride,
        primary_voltage_override: job.primaryVoltageOverride,
        secondary_voltage_override: job.secondaryVoltageOverride,
      },
      sheets,
    },
    importOptions(ctx, user),
  );
  const rejected = (rows: { row: number; message: string }[], error?: string): XlsOutcome => ({
    kind: 'rejected',
    result: {
      error: error ?? (rows.length === 1 && rows[0].row === 0 ? rows[0].message : MSG.xlsRejected(rows.length)),
      tickets: 0,
      tasks: 0,
      updated: 0,
      rejectedRows: rows,
    },
  });
  if (result.errors.length) {
    const rows = result.errors.map((e) => ({ row: e.row, message: e.message }));
    return rejected(rows, `${MSG.xlsRejected(rows.length)} ${formatImportErrors(result.errors)}`);
  }
  if (result.tickets.length === 0) return rejected([{ row: 0, message: MSG.excelNoRows }]);

  const scope = importScope(user, job.id, job.utilityId);
  try {
    if (body.mode === 'preview') {
      // Reads only; in a transaction so that the plan sees one state of the job.
      const { plan } = await ctx.db.transaction((tx) => reimportTickets(tx, scope, result.tickets, result.library, { mode: 'preview' }));
      return { kind: 'preview', preview: previewOf(plan) };
    }
    // All or nothing, one import of a job at a time; a big one staged (decision 032).
    const done = await importIntoJob(ctx.db, scope, result.tickets, result.library, { mode: body.mode, expectedToken: body.preview_token }, log);
    // The mapping used becomes the utility's (docs/product/records.md §4); without one sent, the defaults were used.
    if (body.ticketsMappings) await saveMapping(ctx.db, user.companyId, job.utilityId, body.ticketsMappings, body.libraryMappings);
    return { kind: 'imported', result: { tickets: done.counts.tickets, tasks: done.counts.tasks, updated: done.updated, rejectedRows: [] } };
  } catch (err) {
    if (err instanceof StalePreviewError) return { kind: 'stale', error: err.message, preview: previewOf(err.plan) };
    // reimportTickets checks rows against the library before writing and names the row it refuses.
    if (err instanceof AppError && err.statusCode === 400) {
      const row = Number(/Row (\d+)/.exec(err.message)?.[1] ?? 0);
      return rejected([{ row, message: err.message }], `${MSG.xlsRejected(1)} ${err.message}`);
    }
    throw err;
  }
}
