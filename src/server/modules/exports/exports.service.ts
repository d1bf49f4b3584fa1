import { buildExportTable, exportFileName, exportProblems, type ExportOption } from '../../../shared/export';
import type { AppContext } from '../../context';
import { notFound, unprocessable } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { companyTimeZone } from '../auth/auth.service';
import { findJob } from '../job-record/job-record.service';
import { buildExportXlsx } from './export-xlsx-thread';
import { selectExportTickets } from './exports.repository';

/**
 * GET /jobs/{id}/export.xlsx (docs/product/imports.md §10 exports): an option of the Export modal as a
 * workbook. The rows come from the builder the web page's CSV uses (buildExportTable), read with
 * the same values as its tickets (GET /jobs/tickets/{id}), narrowed to what the rows hold
 * (selectExportTickets), so both files of an option hold the same columns and rows; the job is
 * refused for the reasons the modal shows (docs/product/imports.md §3 Export), as 422.
 */
export async function jobExportXlsx(ctx: AppContext, me: CurrentUser, id: number, option: ExportOption): Promise<{ fileName: string; body: Buffer }> {
  // At once: the tickets of another company's job are none, and the job's 404 is answered below.
  const [job, tickets, timeZone] = await Promise.all([findJob(ctx.db, me.companyId, id), selectExportTickets(ctx.db, me.companyId, id), companyTimeZone(ctx.db, me.companyId)]);
  if (!job) throw notFound('job');
  const problem = exportProblems({ job_number: job.jobNumber, tickets });
  if (problem) throw unprocessable(problem);
  const table = buildExportTable({ job_number: job.jobNumber }, tickets, option, timeZone);
  return { fileName: exportFileName(job.jobNumber, option, 'xlsx'), body: await buildExportXlsx(table) };
}
