import { z } from 'zod';
import { LIMITS, TICKET_STATUS } from './constants';
import { toIsoDate } from './dates';
import { MSG } from './messages';
import { PHOTO_FLAGS } from './evidence';
import { latitudeSchema, longitudeSchema } from './geo.schemas';
import { checkPositionPair, photoCaptureFields } from './photo-capture';
import { poleFieldsSchema } from './poles.schemas';
import { MAX_TASK_QTY } from './tasks';

/**
 * The ticket contract (docs/product/entities.md §3 Ticket, Pole, Task, Note, Permit, Image; docs/product/api.md §1).
 * Used by: the server's batched ticket loaders (src/server/modules/tickets/ticket-reads.repository.ts), the
 * jobs routes (GET /jobs/{id}, GET /jobs/tickets/{id}), the tickets routes (GET /tickets/{id},
 * PUT /tickets/ …), the web job-detail page, ticket window and the CSV export
 * (src/shared/export.ts). Types are z.infer of these schemas: never re-declare them.
 *
 * Conventions: calendar dates are 'YYYY-MM-DD' strings; instants (created_date,
 * actual_completion_date, uploaded_at, …) are ISO-8601 strings in UTC; absent values are null.
 */

const ts = z.string(); // ISO-8601 instant
const day = z.string(); // 'YYYY-MM-DD'

/** docs/product/entities.md §7 Pole. `id` is our row id; `pole_id` / `line_id` are the utility's own identifiers. */
export const poleSchema = z.object({
  id: z.number().int(),
  pole_id: z.string().nullable(),
  pole_name: z.string(),
  line_id: z.string().nullable(),
  line_name: z.string(),
  utility_id_owning_pole: z.number().int().nullable(),
  utility_name: z.string().nullable(),
  street_address: z.string().nullable(),
  /** True-Y latitude. */
  geo_lat: z.number().nullable(),
  /** True-X longitude. */
  geo_lon: z.number().nullable(),
  accessibility_id: z.number().int().nullable(),
  accessibility_label: z.string().nullable(),
  utility_spec: z.string().nullable(),
  primary_voltage: z.string().nullable(),
  secondary_voltage: z.string().nullable(),
  arc_rating: z.string().nullable(),
  /** Substation (sic: the spec's spelling). */
  sub_curcuit: z.string().nullable(),
  /** Substation circuit. */
  sap_curcuit: z.string().nullable(),
});
export type Pole = z.infer<typeof poleSchema>;

/** docs/product/entities.md §3 Task: a unit of the library on a ticket. additional_qty is the actual change. */
export const ticketTaskSchema = z.object({
  /** Row id of the ticket task. */
  ticket_task_id: z.number().int(),
  /** The unit-library unit's id. */
  task_id: z.number().int(),
  code: z.string(),
  /** The task's own description (its workbook row's Description, docs/product/imports.md §12), else the unit library's. */
  description: z.string(),
  family: z.string(),
  type: z.string(),
  uom: z.string(),
  action: z.string(),
  date_completed: ts.nullable(),
  init_qty: z.number(),
  additional_qty: z.number(),
  /**
   * When and by whom the quantities were last set in the app (null: not since the import). A
   * crew's change refused as stale shows whose number it meets (docs/product/field-mode.md §7 conflicts). Absent
   * on a task drafted on the device.
   */
  qty_changed_at: ts.nullable().optional(),
  qty_changed_by_name: z.string().nullable().optional(),
});
export type TicketTask = z.infer<typeof ticketTaskSchema>;

export const noteSchema = z.object({
  id: z.number().int(),
  /** The author's display name ('First Last'), '' when the author was deleted. */
  author: z.string(),
  author_id: z.number().int().nullable(),
  created_date: ts,
  note_text: z.string(),
});
export type Note = z.infer<typeof noteSchema>;

export const permitSchema = z.object({
  id: z.number().int(),
  /** Permit type id (GET /permits/types), null when none chosen. */
  permit_type: z.number().int().nullable(),
  permit_type_title: z.string().nullable(),
  permit_url: z.string().nullable(),
  permit_name: z.string().nullable(),
  /** Content type of the uploaded document. */
  permit_file_type: z.string().nullable(),
  filename: z.string().nullable(),
  /** The permit's own number and its validity (docs/product/records.md §2): calendar dates, expires_on the last valid day. */
  number: z.string().nullable(),
  valid_from: day.nullable(),
  expires_on: day.nullable(),
});
export type Permit = z.infer<typeof permitSchema>;

export const imageSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  thumbnailurl: z.string(),
  pole_name: z.string().nullable(),
  line_name: z.string().nullable(),
  uploaded_at: ts,
  /** When the photo was taken (from the client or the file's EXIF), null when unknown (docs/product/field-mode.md §8). */
  taken_at: ts.nullable(),
  /** Where it was taken, in degrees; both null when unknown. */
  geo_lat: z.number().nullable(),
  geo_lon: z.number().nullable(),
  /**
   * Photo checks (docs/product/records.md §7): metres from where it was taken to the ticket's
   * place (its coordinates, else its pole's); null when either is unknown. Computed by the server.
   */
  distance_m: z.number().nullable(),
  /** far_from_pole, before_job, no_position, no_time (src/shared/evidence.ts PHOTO_FLAGS). */
  flags: z.array(z.enum(PHOTO_FLAGS)),
});
export type TicketImage = z.infer<typeof imageSchema>;

export const ticketStatus = z.enum([TICKET_STATUS.PENDING, TICKET_STATUS.COMPLETE]);

/** docs/product/entities.md §2 Ticket, as every read endpoint returns it. */
export const ticketSchema = z.object({
  id: z.number().int(),
  job_id: z.number().int(),
  /** Our pole row id (pole.id), null when the ticket has no pole. */
  pole_id: z.number().int().nullable(),
  pole: poleSchema.nullable(),
  pole_name: z.string().nullable(),
  line_name: z.string().nullable(),
  /** The utility's line identifier (pole.line_id). */
  line_id: z.string().nullable(),
  /** 'Pending' until actual_completion_date is set, then 'Complete' (docs/product/roles-and-statuses.md). */
  status: ticketStatus,
  due_date: day.nullable(),
  created_date: ts,
  actual_completion_date: ts.nullable(),
  /**
   * The completion record (docs/product/records.md §6): who marked it complete ('First Last' in
   * completed_by_name) and, when the device told, where (degrees; accuracy in metres). All null
   * while Pending; reopening clears them (the history keeps them).
   */
  completed_by: z.number().int().nullable(),
  completed_by_name: z.string().nullable(),
  completed_lat: z.number().nullable(),
  completed_lon: z.number().nullable(),
  completed_accuracy_m: z.number().nullable(),
  assigned_to: z.number().int().nullable(),
  /** 'First Last' of the assigned working foreman; null = 'Unassigned'. */
  assigned_to_name: z.string().nullable(),
  street_address: z.string().nullable(),
  geo_lat: z.number().nullable(),
  geo_lon: z.number().nullable(),
  /** The pole's latitude (pole.geo_lat), kept for the spec's field list. */
  pole_lat: z.number().nullable(),
  description: z.string().nullable(),
  dig_safe_required: z.number().int(),
  dig_safe_url: z.string().nullable(),
  dig_safe_name: z.string().nullable(),
  /** The dig-safe record (docs/product/records.md §2): the utility-locate ticket's number and validity, calendar dates. */
  dig_safe_number: z.string().nullable(),
  dig_safe_valid_from: day.nullable(),
  dig_safe_expires_on: day.nullable(),
  /** The earliest expires_on among the ticket's permits, null when none has one (the table's badge and filter). */
  permit_expires_on: day.nullable(),
  /**
   * Clear to dig (docs/product/records.md §5, src/shared/dig-safe.ts `clearToDig`, on the company's calendar
   * day): null when dig safe is not required (or the ticket is Complete); the reason when false.
   */
  clear_to_dig: z.boolean().nullable(),
  clear_to_dig_reason: z.string().nullable(),
  nra_required: z.number().int(),
  nra_url: z.string().nullable(),
  nra_name: z.string().nullable(),
  ehasp: z.string().nullable(),
  ambulance_meetup: z.string().nullable(),
  work_orders: z.array(z.string()),
  notes: z.array(noteSchema),
  tasks: z.array(ticketTaskSchema),
  permits: z.array(permitSchema),
  images: z.array(imageSchema),
  /** Optimistic-concurrency token: send it back with an update (docs/product/api.md §1.5 Concurrency). */
  version: z.number().int(),
  /**
   * Billing (docs/product/billing.md §5): when the ticket went on an invoice and its number; while billed and
   * not unlocked, its tasks and status answer 409. An unlock keeps who, when and why.
   */
  billed_at: ts.nullable(),
  invoice_number: z.string().nullable(),
  unlocked_at: ts.nullable(),
  unlock_reason: z.string().nullable(),
  unlocked_by: z.number().int().nullable(),
  /** 'First Last' of who unlocked it (the full ticket only). */
  unlocked_by_name: z.string().nullable(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/**
 * One row of the job page's ticket table (GET /jobs/{id}): what the table, its filters and its
 * sort read, without the pole record, tasks, notes, permits or images. A job of 5,000 tickets
 * is then about half the bytes, and the ticket window loads the full ticket (GET /tickets/{id});
 * the CSV export reads the full tickets from GET /jobs/tickets/{id} (docs/decisions/013).
 */
export const ticketRowSchema = ticketSchema.pick({
  id: true,
  job_id: true,
  pole_id: true,
  pole_name: true,
  line_name: true,
  status: true,
  due_date: true,
  created_date: true,
  actual_completion_date: true,
  assigned_to: true,
  assigned_to_name: true,
  street_address: true,
  geo_lat: true,
  geo_lon: true,
  dig_safe_required: true,
  dig_safe_url: true,
  dig_safe_number: true,
  dig_safe_valid_from: true,
  dig_safe_expires_on: true,
  permit_expires_on: true,
  clear_to_dig: true,
  clear_to_dig_reason: true,
  nra_required: true,
  nra_url: true,
  version: true,
  billed_at: true,
  invoice_number: true,
  unlocked_at: true,
  unlock_reason: true,
  work_orders: true,
}).extend({
  /** The codes of the ticket's tasks, in their order (a code twice when two tasks share a unit): searched, not shown. */
  unit_codes: z.array(z.string()),
  /** How many tasks, photos and notes the ticket has: the phone's ticket cards show them. */
  task_count: z.number().int().nonnegative(),
  photo_count: z.number().int().nonnegative(),
  note_count: z.number().int().nonnegative(),
  /**
   * How many of its photos count as evidence (no far_from_pole or before_job flag): what the
   * evidenced rule reads (src/shared/evidence.ts isEvidenced, with the company's
   * evidence_photos_required: job.evidence_photos_required, or the session's).
   */
  evidence_photo_count: z.number().int().nonnegative(),
});
export type TicketRow = z.infer<typeof ticketRowSchema>;
/** The fields a table row shares with the full ticket (the counts are of its lists). */
export type TicketRowFields = Omit<TicketRow, 'task_count' | 'photo_count' | 'note_count' | 'evidence_photo_count' | 'work_orders' | 'unit_codes'>;

// =============================================================================================
// TICKET WRITE BODIES: the {ticket} save body, merge body and their replies (PUT /tickets/, merge, …).
// =============================================================================================

const rowId = z.number().int().positive().max(2_147_483_647);
const saveText = z.string().max(LIMITS.shortTextMax).nullable().optional();
const saveUrl = z.string().max(2048).nullable().optional();
const flag = z.union([z.literal(0), z.literal(1)]);
const qty = z.number().min(-MAX_TASK_QTY).max(MAX_TASK_QTY);

/** A task in a ticket save: with ticket_task_id it updates that task, without it adds unit task_id. */
export const taskSaveSchema = z.object({
  ticket_task_id: rowId.nullable().optional(),
  task_id: rowId,
  init_qty: qty.min(0, 'The bid quantity cannot be negative'),
  /** Clamped to -init_qty by the server (clampAdditionalQty). */
  additional_qty: qty,
  /** When the task was done (ISO-8601 instant), null to clear; absent leaves it as stored. */
  date_completed: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type TaskSave = z.infer<typeof taskSaveSchema>;

/**
 * PATCH /tickets/{id}/tasks/{ticket_task_id} (docs/product/api.md §4 Tickets): one task of a ticket,
 * with the ticket's version as read. Absent fields stay as stored; the ticket's other tasks,
 * notes and fields are never touched. The same rules as a PUT /tickets/ that changes this task.
 */
export const taskPatchBody = z
  .object({
    version: z.number().int().nonnegative().describe("The ticket's version as read (a stale one answers 409)."),
    init_qty: qty.min(0, 'The bid quantity cannot be negative').optional(),
    additional_qty: qty.optional().describe('The actual change to the bid; clamped to -init_qty.'),
    date_completed: taskSaveSchema.shape.date_completed,
  })
  .strict();
export type TaskPatch = z.infer<typeof taskPatchBody>;

/** A note in a ticket save: notes with an id are kept as they are; notes without one are added. */
export const noteSaveSchema = z.object({
  id: rowId.nullable().optional(),
  note_text: z.string().max(LIMITS.textMax),
});

/**
 * A calendar date of a permit or the dig-safe record in a save: 'YYYY-MM-DD' or 'MM/DD/YYYY'
 * (src/shared/dates.ts `toIsoDate`), blank or null for none; anything else names the field.
 */
const recordDay = (what: string) =>
  z
    .string()
    .max(30)
    .nullable()
    .optional()
    .refine((v) => v == null || v.trim() === '' || toIsoDate(v) !== null, MSG.recordDateInvalid(what));

/** Valid from on or before the expiry (both given): otherwise the expiry date is refused, naming the record. */
function checkValidity(what: string, from: string | null | undefined, to: string | null | undefined, ctx: z.RefinementCtx, path: (string | number)[]) {
  const a = toIsoDate(from);
  const b = toIsoDate(to);
  if (a && b && a > b) ctx.addIssue({ code: 'custom', message: MSG.recordDatesOrder(what), path });
}

/** A permit in a ticket save: with id it updates that permit; without, it adds one. */
export const permitSaveSchema = z
  .object({
    id: rowId.nullable().optional(),
    permit_type: rowId.nullable().optional(),
    permit_url: saveUrl,
    permit_name: saveText,
    permit_file_type: saveText,
    filename: saveText,
    number: saveText,
    valid_from: recordDay('permit\'s "valid from" date'),
    expires_on: recordDay('permit\'s expiry date'),
  })
  .superRefine((p, ctx) => checkValidity('permit', p.valid_from, p.expires_on, ctx, ['expires_on']));
export type PermitSave = z.infer<typeof permitSaveSchema>;

/** The pole of a ticket save: an existing pole (id) or a new one (pole_name, line_name, utility). */
export const ticketPoleSaveSchema = poleFieldsSchema.extend({
  id: rowId.nullable().optional(),
  // Blank names are answered by the server with the one docs/product/rules.md add-pole message.
  pole_name: saveText,
  line_name: saveText,
});

/**
 * PUT /tickets/ `{ticket}` (docs/product/rules.md §1.3): no id creates (job_id and a pole); an update carries the
 * version it read. Absent fields are left as stored, so the client may send the whole read model
 * back (read-only fields such as assigned_to_name or images are ignored) or only what changed.
 * Lists replace the stored list: work_orders and permits and tasks as sent (a row missing from
 * the list is removed); notes are append-only (those without id are added, author = caller).
 */
export const ticketSaveSchema = z.object({
  id: rowId.nullable().optional(),
  version: z.number().int().nonnegative().optional(),
  job_id: rowId.optional(),
  pole_id: rowId.nullable().optional(),
  pole: ticketPoleSaveSchema.nullable().optional(),
  street_address: saveText,
  geo_lat: latitudeSchema.optional(),
  geo_lon: longitudeSchema.optional(),
  description: z.string().max(LIMITS.textMax).nullable().optional(),
  /** A working foreman (role 4) of the company, or null = unassigned ('Select...'). */
  assigned_to: rowId.nullable().optional(),
  due_date: z.string().max(30).nullable().optional(),
  dig_safe_required: flag.optional(),
  dig_safe_url: saveUrl,
  dig_safe_name: saveText,
  dig_safe_number: saveText,
  dig_safe_valid_from: recordDay('dig safe "valid from" date'),
  dig_safe_expires_on: recordDay('dig safe expiry date'),
  nra_required: flag.optional(),
  nra_url: saveUrl,
  nra_name: saveText,
  ehasp: saveText,
  ambulance_meetup: z.string().max(LIMITS.textMax).nullable().optional(),
  /**
   * 'Complete' sets actual_completion_date (now) and completed_by (the caller); 'Pending' clears
   * them and the position (docs/product/records.md §6).
   */
  status: ticketStatus.optional(),
  /**
   * Where the device was when the crew tapped Mark complete (the phone's Geolocation API): all
   * three or none; kept only by the save that completes the ticket (ignored otherwise, so a
   * client may send the whole read model back).
   */
  completed_lat: z.number({ error: MSG.completedLatInvalid }).min(-90, MSG.completedLatInvalid).max(90, MSG.completedLatInvalid).nullable().optional(),
  completed_lon: z.number({ error: MSG.completedLonInvalid }).min(-180, MSG.completedLonInvalid).max(180, MSG.completedLonInvalid).nullable().optional(),
  completed_accuracy_m: z.number({ error: MSG.completedAccuracyInvalid }).min(0, MSG.completedAccuracyInvalid).max(1e7, MSG.completedAccuracyInvalid).nullable().optional(),
  work_orders: z.array(z.string().trim().max(LIMITS.shortTextMax)).max(500).optional(),
  notes: z.array(noteSaveSchema).max(5000).optional(),
  permits: z.array(permitSaveSchema).max(200).optional(),
  tasks: z
    .array(taskSaveSchema)
    .max(2000)
    .optional()
    .describe(
      "The ticket's WHOLE list of tasks: a stored task missing from it is deleted, one without ticket_task_id is added. Omit `tasks` to leave the tasks as they are; to change one task use PATCH /tickets/{id}/tasks/{ticket_task_id}.",
    ),
}).superRefine((t, ctx) => {
  checkValidity('dig safe ticket', t.dig_safe_valid_from, t.dig_safe_expires_on, ctx, ['dig_safe_expires_on']);
  // All three or none: a position without its accuracy cannot be weighed as evidence.
  const given = [t.completed_lat, t.completed_lon, t.completed_accuracy_m].filter((v) => v != null).length;
  if (given !== 0 && given !== 3) ctx.addIssue({ code: 'custom', message: MSG.completedPositionPair, path: [t.completed_lat == null ? 'completed_lat' : t.completed_lon == null ? 'completed_lon' : 'completed_accuracy_m'] });
});
export type TicketSave = z.infer<typeof ticketSaveSchema>;
/**
 * The OpenAPI document says which fields each use needs: a create names its job (job_id), an
 * update its ticket and the version it read (the service refuses either missing with a 400).
 */
export const ticketSaveBody = z.object({
  ticket: ticketSaveSchema.meta({
    anyOf: [
      { title: 'Create', required: ['job_id'], properties: { job_id: { type: 'integer' } } },
      { title: 'Update', required: ['id', 'version'], properties: { id: { type: 'integer' }, version: { type: 'integer' } } },
    ],
  }),
});

/** PUT /tickets/ reply; the flags say the chosen pole is held by another ticket of the job (docs/product/entities.md §7). */
export const ticketSaveReply = z.object({
  ticket: ticketSchema,
  notifyMergeRequired: z.boolean().optional(),
  ticketIdToMerge: z.number().int().optional(),
});
export type TicketSaveReply = z.infer<typeof ticketSaveReply>;
/** PUT /tickets/merge/{id} reply: the ticket that stayed, with what it received. */
export const ticketReply = z.object({ ticket: ticketSchema });
export type TicketReply = z.infer<typeof ticketReply>;
/** DELETE /tickets/{id} reply. */
export const ticketDeleteReply = z.object({ success: z.literal(true) });
export type TicketDeleteReply = z.infer<typeof ticketDeleteReply>;

/** GET /tickets/needsMerge/{jobId}?pole_id=[&ticket_id= to leave that ticket out] → {ticket_ids}. */
export const needsMergeQuery = z.object({
  pole_id: z.coerce.number().int().positive().max(2_147_483_647),
  ticket_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export const needsMergeReply = z.object({ ticket_ids: z.array(z.number().int()) });
export type NeedsMergeReply = z.infer<typeof needsMergeReply>;

/** PUT /tickets/merge/{id} `{secondary_ticket}`: the ticket object (its id is used) or its id. */
export const mergeBody = z.object({
  secondary_ticket: z.union([rowId, z.object({ id: rowId }).loose()]).transform((v) => (typeof v === 'number' ? v : v.id)),
});

/**
 * POST /media_upload/s3-upload-complete form body (urlencoded or multipart: every value is text).
 * takenAt / lat / lon are optional (docs/product/field-mode.md §8 photos); what is absent the server reads from
 * the stored file's EXIF.
 */
export const imageCompleteBody = z
  .object({
    ticketId: z.coerce.number().int().positive().max(2_147_483_647),
    url: z.string().min(1).max(2048),
    /** Ignored: the server makes the thumbnail itself. */
    thumbUrl: z.string().max(2048).optional(),
    isVideo: z.union([z.string().max(10), z.boolean()]).optional(),
    ...photoCaptureFields,
  })
  .superRefine(checkPositionPair);
export type ImageComplete = z.infer<typeof imageCompleteBody>;
export type ImageCompleteBody = z.input<typeof imageCompleteBody>;
export const imageCompleteReply = z.object({ id: z.number().int(), image: imageSchema });
export type ImageCompleteReply = z.infer<typeof imageCompleteReply>;
/** DELETE /tickets/images/{id} reply. */
export const imageDeleteReply = z.object({ success: z.literal(true), id: z.number().int() });
export type ImageDeleteReply = z.infer<typeof imageDeleteReply>;

/** GET /poles/byUtility and /poles/polesByPoleOrLine reply; /poles/specificPole answers the bare list. */
export const polesReply = z.object({ poles: z.array(poleSchema) });
export type PolesReply = z.infer<typeof polesReply>;

/** PUT /poles/ reply: the pole as saved. */
export const poleReply = z.object({ pole: poleSchema });
export type PoleReply = z.infer<typeof poleReply>;

/** POST /poles/ reply: the new pole and, when job_id was sent, its new ticket (docs/product/rules.md §2.2). */
export const addPoleReply = z.object({ ok: z.literal(true), pole: poleSchema, ticket: ticketSchema.optional() });
export type AddPoleReply = z.infer<typeof addPoleReply>;

/** POST /tickets/xls-upload reply: how much was added. A file with any bad row adds nothing (422). */
export const xlsUploadReply = z.object({
  tickets: z.number().int(),
  tasks: z.number().int(),
  rejectedRows: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export const xlsRejectedReply = xlsUploadReply.extend({ error: z.string(), status: z.string().optional() });
export type XlsRejectedReply = z.infer<typeof xlsRejectedReply>;
