import { useMutation } from '@tanstack/react-query';
import { exportFileName, type ExportOption } from '../../../../shared/export';
import { apiDownload } from '../../../api/client';
import { saveFile } from '../../../components/saveFile';

/**
 * GET /jobs/{id}/export.xlsx?option=: an Export option as an Excel workbook, built by the server
 * from the rows the modal's CSV holds (exceljs stays out of the browser's bundle) and saved as
 * '{job number}_Export-Option1.xlsx' etc. Fetched (not a plain link) so that a refusal shows its
 * message in the modal instead of a broken download.
 */
export const getJobExportXlsx = (id: number, option: ExportOption) => apiDownload(`/jobs/${id}/export.xlsx?option=${option}`);

export const useJobExportXlsxDownload = (job: { id: number; job_number: string }) =>
  useMutation({
    mutationFn: async (option: ExportOption) => saveFile(await getJobExportXlsx(job.id, option), exportFileName(job.job_number, option, 'xlsx')),
  });
