import { z } from 'zod';
import { JOB_STATUS, JOB_TYPE, LIMITS } from './constants';
import { toIsoDate } from './dates';
import { codeText } from './text';
import { ticketsFileSchema } from './excel';
import { MSG } from './messages';
import { MAX_TASK_QTY } from './tasks';
import { JOB_PAGE_MAX, JOB_SORT_COLUMNS, JOB_STATUS_FILTERS, type JobStatusFilter } from './jobs.list';
import { ticketRowSchema } from './tickets.schemas';

/**
 * The jobs contract (docs/product/entities.md §1 Job, §5 Job creation / Job save, §7 Jobs; docs/product/roles-and-statuses.md §5 statuses,
 * §5 "create or update a job").
 * Used by: the jobs server module (src/server/modules/jobs/*: GET /jobs, GET /jobs/{id},
 * PUT /jobs/, GET /jobs/job_exists/{n}, GET /utilities), the import service
 * (src/server/modules/imports/job-import.service.ts), the web jobs list, Create Job and Edit Job
 * modals and the job-detail header (src/web/features/jobs/*), and the CSV export
 * (src/shared/export.ts). Types are z.infer of these schemas: never re-declare them.
 */

const ts = z.string(); // ISO-8601 instant
const short = z.string().max(LIMITS.shortTextMax);
const optText = short.nullable().optional();
const url = z.string().max(2048);

export const jobStatus = z.enum([JOB_STATUS.ESTIMATION, JOB_STATUS.IN_PROGRESS, JOB_STATUS.COMPLETE]);
export const jobType = z.union([z.literal(JOB_TYPE.NORMAL), z.literal(JOB_TYPE.ESTIMATION)]);

// ---------------------------------------------------------------------------------------------
// Read model

/** One row of GET /jobs (docs/product/entities.md §2 Job without tickets). Every derived field is computed in SQL. */
export const jobListItemSchema = z.object({
  id: z.number().int(),
  job_number: z.string(),
  /** 0 Normal, 1 Estimation. */
  job_type: z.number().int(),
  /** Derived (docs/product/roles-and-statuses.md): 'In Estimation' when job_type = 1; else 'Complete' when it has tickets
   *  and all are complete; else 'In Progress'. */
  status: jobStatus,
  ticket_count: z.number().int(),
  /** 'First Last' of the user who created the job ('' when unknown). */
  created_name: z.string(),
  created_by: z.number().int().nullable(),
  foreman_id: z.number().int().nullable(),
  /** 'First Last' of the job's foreman, null when none. The list's Created By cell shows this. */
  foreman_name: z.string().nullable(),
  /** 'YYYY-MM-DD', never shifted by a time zone. */
  due_date: z.string(),
  /** The latest ticket completion when the job is Complete, else null (ISO instant). */
  date_completed: ts.nullable(),
  selected_utility_id: z.number().int(),
  selected_utility_name: z.string(),
  work_packet_url: z.string().nullable(),
  work_packet_name: z.string().nullable(),
  work_packet_size: z.number().int().nullable(),
  work_packet_type: z.string().nullable(),
  work_contact_phone: z.string().nullable(),
  hospital_name: z.string().nullable(),
  hospital_address: z.string().nullable(),
  ehasp_override: z.string().nullable(),
  arc_rating_override: z.string().nullable(),
  primary_voltage_override: z.string().nullable(),
  secondary_voltage_override: z.string().nullable(),
  /** Send it back with an update; a stale one answers 409 (docs/product/api.md §1.5 Concurrency). */
  version: z.number().int(),
  created_at: ts,
  /** Tickets Complete but not evidenced (docs/product/records.md §8: fewer unflagged photos than the company requires). */
  unevidenced_count: z.number().int(),
});
export type JobListItem = z.infer<typeof jobListItemSchema>;

/**
 * A row of the GET /jobs list: the job and its "% Complete" (docs/product/billing.md §3; 0–100, one decimal,
 * the rule of computeProduction's totals). For every role: a percentage, not a price
 * (decision 024). Not in the job's own header, whose cached reply changes only with the job.
 */
export const jobListRowSchema = jobListItemSchema.extend({ percent_complete: z.number() });
export type JobListRow = z.infer<typeof jobListRowSchema>;

/**
 * GET /jobs?limit= (docs/product/scale.md §2): one page of the list, filtered, searched and sorted by
 * the database in the order of sortJobs (src/shared/jobs.list.ts). `cursor` is the previous
 * page's `next_cursor` (opaque; valid for the same sort and dir). Without `limit` the route answers
 * the whole list as before, and the other parameters are refused.
 */
export const jobPageQuery = z.object({
  limit: z.coerce
    .number({ error: MSG.jobsPageLimit })
    .int({ error: MSG.jobsPageLimit })
    .min(1, { error: MSG.jobsPageLimit })
    .max(JOB_PAGE_MAX, { error: MSG.jobsPageLimit })
    .optional()
    .describe('Jobs per page, 1–200. With it the reply is one page {jobs, next_cursor, total}; without it, every job as an array (and no other parameter is allowed).'),
  cursor: z.string().max(1000, { error: MSG.jobsPageCursor }).optional().describe("The previous page's next_cursor (same sort and dir); absent for the first page."),
  status: z
    .enum(JOB_STATUS_FILTERS as [JobStatusFilter, ...JobStatusFilter[]], { error: MSG.jobsPageStatus })
    .optional()
    .describe('Only jobs with this status (All: every job, the default).'),
  q: z.string().max(LIMITS.shortTextMax).optional().describe("Contains, case-insensitive, in the job number, the utility's code or the foreman's name."),
  sort: z.enum(JOB_SORT_COLUMNS, { error: MSG.jobsPageSort }).optional().describe('The column to sort by (default job_number); ties by id.'),
  dir: z.enum(['asc', 'desc'], { error: MSG.jobsPageDir }).optional().describe('asc or desc (default desc).'),
});
export type JobPageQuery = z.infer<typeof jobPageQuery>;

export const jobPageReply = z.object({
  jobs: z.array(jobListRowSchema),
  /** Pass it as `cursor` for the next page; null on the last page. */
  next_cursor: z.string().nullable(),
  /** How many jobs match status and q, on every page. */
  total: z.number().int(),
});
export type JobPageReply = z.infer<typeof jobPageReply>;

/** GET /jobs/{id}: the job with its ticket-table rows, and the company's IANA zone for the CSV export. */
export const jobSchema = jobListItemSchema.extend({
  tickets: z.array(ticketRowSchema),
  /** IANA time zone of the caller's company (export Completion Date/Time, docs/product/rules.md §1.3). */
  company_time_zone: z.string(),
  /** The company's evidence_photos_required: what each row's evidence_photo_count is held to (src/shared/evidence.ts isEvidenced). */
  evidence_photos_required: z.number().int(),
});
export type Job = z.infer<typeof jobSchema>;

/** GET /utilities. */
export const utilitySchema = z.object({ id: z.number().int(), code: z.string() });
export type Utility = z.infer<typeof utilitySchema>;

/** GET /jobs/job_exists/{number}: a non-empty list means the number is taken (docs/product/api.md §3). */
export const jobExistsItemSchema = z.object({ id: z.number().int(), job_number: z.string() });
export const jobExistsReply = z.array(jobExistsItemSchema);
export type JobExistsReply = z.infer<typeof jobExistsReply>;

// ---------------------------------------------------------------------------------------------
// Ticket drafts sent with a new job (`job.newTickets`, docs/product/api.md §1)

/** The pole of a new ticket: found by utility + pole_name + line_name, or created. */
export const poleDraftSchema = z.object({
  pole_name: codeText().max(LIMITS.shortTextMax),
  line_name: codeText().max(LIMITS.shortTextMax).default(''),
  pole_id: optText,
  line_id: optText,
  street_address: optText,
  geo_lat: z.number().min(-90).max(90).nullable().optional(),
  geo_lon: z.number().min(-180).max(180).nullable().optional(),
  primary_voltage: optText,
  secondary_voltage: optText,
  arc_rating: optText,
  utility_spec: optText,
  sub_curcuit: optText,
  sap_curcuit: optText,
});
export type PoleDraftInput = z.infer<typeof poleDraftSchema>;

/** One task of a new ticket: a unit-library code and its bid quantity. */
export const taskDraftSchema = z.object({
  code: codeText().min(1).max(LIMITS.shortTextMax),
  description: z.string().max(LIMITS.textMax).optional(),
  /** Bid quantity (init_qty). */
  init_qty: z.number().min(0).max(MAX_TASK_QTY).default(0),
  additional_qty: z.number().min(-MAX_TASK_QTY).max(MAX_TASK_QTY).default(0),
  /** Excel row it came from, for messages. */
  row: z.number().int().positive().optional(),
});
export type TaskDraftInput = z.infer<typeof taskDraftSchema>;

/** One new ticket (docs/product/entities.md §7 Ticket fields with a pole object). */
export const newTicketDraftSchema = z.object({
  pole: poleDraftSchema,
  due_date: z.string().max(32).nullable().optional(),
  street_address: optText,
  geo_lat: z.number().min(-90).max(90).nullable().optional(),
  geo_lon: z.number().min(-180).max(180).nullable().optional(),
  description: z.string().max(LIMITS.textMax).nullable().optional(),
  ehasp: optText,
  ambulance_meetup: optText,
  work_orders: z.array(short).max(1000).default([]),
  tasks: z.array(taskDraftSchema).max(10_000).default([]),
  /** Excel row of the ticket's first row, for messages ('Row 12: …'); else 'Ticket N'. */
  row: z.number().int().positive().optional(),
});
export type NewTicketDraft = z.infer<typeof newTicketDraftSchema>;

/** A unit-library row sent with newTickets (upserted by code for the job's utility). */
export const newUnitDraftSchema = z.object({
  code: codeText().min(1).max(LIMITS.shortTextMax),
  description: z.string().max(LIMITS.textMax).default(''),
  family: short.default(''),
  type: short.default(''),
  action: short.default(''),
  uom: short.default(''),
  notes: z.string().max(LIMITS.textMax).default(''),
  row: z.number().int().positive().optional(),
});
export type NewUnitDraft = z.infer<typeof newUnitDraftSchema>;

// ---------------------------------------------------------------------------------------------
// Job save (PUT /jobs/ with {job})

/** 'YYYY-MM-DD' or 'MM/DD/YYYY' (or an ISO timestamp) → 'YYYY-MM-DD' (docs/product/rules.md). */
const dueDate = z
  .string(MSG.jobDueDateRequired)
  .max(32, MSG.jobDueDateRequired)
  .transform((v, ctx) => {
    const iso = toIsoDate(v);
    if (!iso) {
      ctx.addIssue({ code: 'custom', message: MSG.jobDueDateRequired });
      return z.NEVER;
    }
    return iso;
  });

/**
 * The fields a person edits in the Create Job / Edit Job modals, with the rules of docs/product/rules.md
 * Job save: job number, due date, utility (not -1) and work packet url are required; foreman
 * is optional. The forms validate with this same schema.
 */
export const jobFieldsSchema = z.object({
  job_number: codeText(MSG.jobNumberRequired).min(1, MSG.jobNumberRequired).max(100, 'A job number can be at most 100 characters.'),
  job_type: jobType.default(JOB_TYPE.NORMAL),
  due_date: dueDate,
  selected_utility_id: z.number(MSG.jobUtilityRequired).int(MSG.jobUtilityRequired).positive(MSG.jobUtilityRequired),
  foreman_id: z.number().int().positive().nullable().optional(),
  work_packet_url: url.trim().min(1, MSG.jobPacketRequired),
  work_packet_name: optText,
  work_packet_size: z.number().int().nonnegative().nullable().optional(),
  work_packet_type: optText,
  work_contact_phone: optText,
  hospital_name: optText,
  hospital_address: z.string().max(1000).nullable().optional(),
  ehasp_override: optText,
  arc_rating_override: optText,
  primary_voltage_override: optText,
  secondary_voltage_override: optText,
});
export type JobFields = z.infer<typeof jobFieldsSchema>;
export type JobFieldsInput = z.input<typeof jobFieldsSchema>;

/**
 * `{job}` of PUT /jobs/ (docs/product/api.md §1): no `id` creates (optionally with `newTickets`,
 * `newUnits` and/or `ticketsFile`, all imported in the same transaction); with `id` updates
 * and must carry the `version` it read. Unknown fields (tickets, status, …) are ignored.
 */
export const jobSaveSchema = jobFieldsSchema.extend({
  id: z.number().int().positive().max(2_147_483_647).optional(),
  version: z.number().int().positive().optional(),
  newTickets: z.array(newTicketDraftSchema).max(20_000).optional(),
  newUnits: z.array(newUnitDraftSchema).max(20_000).optional(),
  ticketsFile: ticketsFileSchema.nullable().optional(),
});
export type JobSave = z.infer<typeof jobSaveSchema>;
export type JobSaveInput = z.input<typeof jobSaveSchema>;

/** OpenAPI: an update (with id) needs the version it read; the service refuses it without (400). */
export const jobSaveBody = z.object({
  job: jobSaveSchema.meta({
    anyOf: [
      { title: 'Create', not: { required: ['id'], properties: { id: { type: 'integer' } } } },
      { title: 'Update', required: ['id', 'version'], properties: { id: { type: 'integer' }, version: { type: 'integer' } } },
    ],
  }),
});
export type JobSaveBody = z.input<typeof jobSaveBody>;

/** Reply of PUT /jobs/: the saved job (list shape: with id, version and derived fields). */
export const jobSaveReply = z.object({
  job: jobListItemSchema,
  /** What the import created, when the save carried newTickets or ticketsFile. */
  imported: z
    .object({ tickets: z.number().int(), tasks: z.number().int(), workOrders: z.number().int(), units: z.number().int(), poles: z.number().int() })
    .optional(),
});
export type JobSaveReply = z.infer<typeof jobSaveReply>;

/** Reply of both delete routes. */
export const jobDeleteReply = z.object({ success: z.boolean(), id: z.number().int() });
export type JobDeleteReply = z.infer<typeof jobDeleteReply>;
