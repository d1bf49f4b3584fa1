import type { JobExistsReply } from '../../../../shared/jobs.schemas';
import { apiFetch } from '../../../api/client';

/** GET /jobs/job_exists/{number}: SPEC §7, a non-empty list means the number is taken. */
export async function jobNumberExists(jobNumber: string, signal?: AbortSignal): Promise<boolean> {
  const list = await apiFetch<JobExistsReply>(`/jobs/job_exists/${encodeURIComponent(jobNumber)}`, { signal });
  return Array.isArray(list) && list.length > 0;
}
