import type { NeedsMergeReply } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';

/** GET /tickets/needsMerge/{jobId}?pole_id=: the tickets of this job that already hold the pole. */
export const getNeedsMerge = (jobId: number, poleId: number) =>
  apiFetch<NeedsMergeReply>(`/tickets/needsMerge/${jobId}?pole_id=${poleId}`).then((b) => b.ticket_ids);
