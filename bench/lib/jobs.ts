import type { AppContext } from '../../src/server/context';
import type { CurrentUser } from '../../src/server/plugins/auth';
import { saveJob } from '../../src/server/modules/jobs/jobs.service';
import type { z } from 'zod';
import { jobSaveSchema, type JobSaveInput, type newTicketDraftSchema, type newUnitDraftSchema } from '../../src/shared/jobs.schemas';

export type BenchTicket = z.input<typeof newTicketDraftSchema>;
export type BenchUnit = z.input<typeof newUnitDraftSchema>;

/**
 * One job with its tickets exactly as PUT /jobs/ {job} with newTickets / newUnits makes it: the
 * body through the route's zod schema, then the jobs service (validation, one transaction with
 * the import service: unit library upsert, poles, tickets, tasks, work orders).
 */
export async function createBenchJob(
  ctx: AppContext,
  me: CurrentUser,
  fields: Omit<JobSaveInput, 'newTickets' | 'newUnits'>,
  newTickets: BenchTicket[],
  newUnits: BenchUnit[],
): Promise<number> {
  const input = jobSaveSchema.parse({ ...fields, ...(newTickets.length ? { newTickets } : {}), ...(newUnits.length ? { newUnits } : {}) });
  const reply = await saveJob(ctx, me, input);
  return reply.job.id;
}
