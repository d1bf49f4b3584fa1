import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** What the spreadsheet upload reports (read defensively: the server names its counts). */
export interface XlsUploadReply {
  tickets?: number;
  tasks?: number;
  imported?: { tickets?: number; tasks?: number };
  rejected?: { row?: number; error?: string; message?: string }[] | string[];
  errors?: string[];
  error?: string;
}

/** POST /tickets/xls-upload, multipart: `file` and `job_id`. Adds the workbook's tickets to the job. */
export function xlsUpload({ jobId, file }: { jobId: number; file: File }) {
  const form = new FormData();
  form.append('job_id', String(jobId));
  form.append('file', file);
  return apiFetch<XlsUploadReply>('/tickets/xls-upload', { method: 'POST', body: form });
}

export function useXlsUpload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: xlsUpload,
    onSettled: (_r, _e, { jobId }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
      void qc.invalidateQueries({ queryKey: queryKeys.jobs, exact: true });
    },
  });
}
