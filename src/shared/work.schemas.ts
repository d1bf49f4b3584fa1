import { z } from 'zod';
import { ticketRowSchema } from './tickets.schemas';
import { WORK_LIMIT, WORK_LIMIT_MAX } from './constants';

/**
 * My Work (docs/product/field-mode.md §1): GET /api/v1/work. Used by the server's work module
 * (src/server/modules/work/) and the web's My Work page. Types are z.infer: never re-declare them.
 */

/** ?foreman_id= narrows the list to the jobs of that foreman (an office role's filter); ?limit= bounds it. */
export const workQuery = z.object({
  foreman_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  limit: z.coerce.number().int().min(1).max(WORK_LIMIT_MAX).default(WORK_LIMIT),
});
export type WorkQuery = z.infer<typeof workQuery>;

/** One open ticket: the job page's ticket row (GET /jobs/{id}) plus the number of its job. */
export const workTicketSchema = ticketRowSchema.extend({
  job_number: z.string(),
});
export type WorkTicket = z.infer<typeof workTicketSchema>;

/**
 * The first `limit` open tickets that concern the caller, in work order (work.list.ts
 * `sortWorkTickets`), and how many open tickets concern the caller in all (`total` ≥ the list's
 * length: the page says how many more there are).
 */
export const workReply = z.object({
  tickets: z.array(workTicketSchema),
  total: z.number().int().nonnegative(),
  /**
   * Complete, unbilled tickets in the same scope that are not evidenced (docs/product/records.md §8):
   * fewer photos without far_from_pole / before_job than the company requires. Newest completion first, at most 100.
   */
  needs_photos: z.array(workTicketSchema),
  /** The company's evidence_photos_required (0: the rule is off and needs_photos is empty). */
  evidence_photos_required: z.number().int(),
});
export type WorkReply = z.infer<typeof workReply>;
