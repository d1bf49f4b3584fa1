import { boolean, date, doublePrecision, foreignKey, index, integer, pgTable, serial, type PgColumn, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { companies, users } from './core';
import { permitTypes, units, utilities } from './reference';
import { poles } from './poles';

const stamp = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A ticket's rows point at their ticket AND its company (migration 0014): the database itself
 * refuses a task, note or photo whose company is not its ticket's, and one check per row
 * replaces two (the company's and the ticket's; ~25 % of a 10,000-task import on PGlite).
 */
const ofTicket = (name: string, t: { ticketId: PgColumn; companyId: PgColumn }) =>
  foreignKey({ name, columns: [t.ticketId, t.companyId], foreignColumns: [tickets.id, tickets.companyId] }).onDelete('cascade');

/** A work packet for a utility. Its status is derived from its tickets (docs/product/roles-and-statuses.md §5), not stored. */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull().references(() => companies.id, { onDelete: 'cascade' }),
    jobNumber: text('job_number').notNull(),
    jobType: integer('job_type').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    foremanId: integer('foreman_id').references(() => users.id, { onDelete: 'set null' }),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    utilityId: integer('utility_id').notNull().references(() => utilities.id),
    workPacketUrl: text('work_packet_url'),
    workPacketName: text('work_packet_name'),
    workPacketSize: integer('work_packet_size'),
    workPacketType: text('work_packet_type'),
    workContactPhone: text('work_contact_phone'),
    hospitalName: text('hospital_name'),
    hospitalAddress: text('hospital_address'),
    ehaspOverride: text('ehasp_override'),
    arcRatingOverride: text('arc_rating_override'),
    primaryVoltageOverride: text('primary_voltage_override'),
    secondaryVoltageOverride: text('secondary_voltage_override'),
    version: integer('version').notNull().default(1),
    /**
     * True while the job's ticket import is being written in short transactions (decision 027):
     * readers treat the job as not there yet; publishing the import sets it false in one statement.
     */
    importPending: boolean('import_pending').notNull().default(false),
    createdAt: stamp('created_at').notNull().defaultNow(),
    updatedAt: stamp('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('jobs_company_number_unique').on(t.companyId, t.jobNumber),
    unique('jobs_id_company_unique').on(t.id, t.companyId),
    // The paged jobs list (docs/product/scale.md §2, migration 0029): its default order, job number
    // as sortJobs compares it (linecrew_text_key, byte order), read from an index rather than sorted;
    // due date the same way; "contains" on the number by trigrams; the utility and the foreman
    // of a search looked up by id (also what deleting a person's or a utility's row needs).
    index('jobs_number_key_idx').on(t.companyId, sql`linecrew_text_key(${t.jobNumber}) COLLATE "C"`, t.id),
    index('jobs_due_idx').on(t.companyId, t.dueDate, t.id),
    index('jobs_number_trgm_idx').using('gin', sql`linecrew_lower(${t.jobNumber}) gin_trgm_ops`),
    index('jobs_utility_idx').on(t.utilityId),
    // How many jobs the company has (every page of the paged list says it, decision 053): an
    // index-only count of 100,000 small entries rather than a scan of the table's 3,000 pages.
    index('jobs_published_idx').on(t.companyId).where(sql`not ${t.importPending}`),
    // A foreman's jobs (My Work, the dashboard's foreman filter: 1,000 of 100,000, decision 054;
    // a person belongs to one company, so the foreman's id alone finds them). The other columns
    // are what My Work reads of those jobs: an index-only scan, not 1,000 heap pages scattered
    // over the table (a foreman's jobs span ten years).
    index('jobs_foreman_idx').on(t.foremanId, t.companyId, t.importPending, t.id, t.jobNumber),
  ],
);

/** One pole of a job. Complete exactly when actual_completion_date is set (docs/product/roles-and-statuses.md). */
export const tickets = pgTable(
  'tickets',
  {
    id: serial('id').primaryKey(),
    // The company through the job (tickets_job_company_fk): never another company's job.
    companyId: integer('company_id').notNull(),
    jobId: integer('job_id').notNull(),
    poleId: integer('pole_id').references(() => poles.id, { onDelete: 'set null' }),
    dueDate: date('due_date', { mode: 'string' }),
    createdDate: stamp('created_date').notNull().defaultNow(),
    actualCompletionDate: stamp('actual_completion_date'),
    /**
     * The completion record (docs/product/records.md §6): who marked it complete and, when the
     * device told, where (degrees, accuracy in metres). Set with actual_completion_date, cleared
     * with it on reopening (the history keeps them).
     */
    completedBy: integer('completed_by').references(() => users.id, { onDelete: 'set null' }),
    completedLat: doublePrecision('completed_lat'),
    completedLon: doublePrecision('completed_lon'),
    completedAccuracyM: doublePrecision('completed_accuracy_m'),
    assignedTo: integer('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    streetAddress: text('street_address'),
    geoLat: doublePrecision('geo_lat'),
    geoLon: doublePrecision('geo_lon'),
    description: text('description'),
    digSafeRequired: integer('dig_safe_required').notNull().default(0),
    digSafeUrl: text('dig_safe_url'),
    digSafeName: text('dig_safe_name'),
    /** The dig-safe record (docs/product/records.md §2): the locate ticket's number and its validity, calendar dates. */
    digSafeNumber: text('dig_safe_number'),
    digSafeValidFrom: date('dig_safe_valid_from', { mode: 'string' }),
    digSafeExpiresOn: date('dig_safe_expires_on', { mode: 'string' }),
    nraRequired: integer('nra_required').notNull().default(0),
    nraUrl: text('nra_url'),
    nraName: text('nra_name'),
    ehasp: text('ehasp'),
    ambulanceMeetup: text('ambulance_meetup'),
    version: integer('version').notNull().default(1),
    /**
     * Billing (docs/product/billing.md §4): set when the ticket goes on an invoice; its tasks and status then
     * answer 409 until a role 1–2 user unlocks it with a reason (kept here, shown on the ticket).
     */
    billedAt: stamp('billed_at'),
    invoiceNumber: text('invoice_number'),
    unlockedAt: stamp('unlocked_at'),
    unlockedBy: integer('unlocked_by').references(() => users.id, { onDelete: 'set null' }),
    unlockReason: text('unlock_reason'),
  },
  (t) => [
    foreignKey({ name: 'tickets_job_company_fk', columns: [t.jobId, t.companyId], foreignColumns: [jobs.id, jobs.companyId] }).onDelete('cascade'),
    unique('tickets_id_company_unique').on(t.id, t.companyId),
    index('tickets_job_idx').on(t.jobId),
    index('tickets_company_job_pole_idx').on(t.companyId, t.jobId, t.poleId),
    // A pole or person renamed touches the tickets showing it (migration 0002), and their
    // deletion sets these to null: both look tickets up by these columns.
    index('tickets_pole_idx').on(t.poleId),
    index('tickets_assigned_to_idx').on(t.assignedTo),
    // The open tickets of a job (My Work): a fifth of a million tickets at ten years' size,
    // found by job without reading the completed rest (decision 054); a job's status in
    // the paged list's filter and sort, "has an open ticket", is one probe of it (decision 053).
    index('tickets_open_job_idx').on(t.companyId, t.jobId).where(sql`${t.actualCompletionDate} is null`),
    // The Complete tickets not yet billed of a job (My Work's "needs photos", decision 054): the
    // crew's recent work, a tenth of the table, found by job without the billed years.
    index('tickets_unbilled_job_idx').on(t.companyId, t.jobId).where(sql`${t.actualCompletionDate} is not null and ${t.billedAt} is null`),
  ],
);

/** A unit of work on a ticket: bid quantity plus the actual change (docs/product/entities.md §3 Task). */
export const ticketTasks = pgTable(
  'ticket_tasks',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    unitId: integer('unit_id').notNull(),
    initQty: doublePrecision('init_qty').notNull().default(0),
    additionalQty: doublePrecision('additional_qty').notNull().default(0),
    /**
     * The workbook row's own Description (what the crew reads, docs/product/imports.md); null when the row
     * had none, and then a read shows the unit library's (`coalesce(description, units.description)`).
     */
    description: text('description'),
    dateCompleted: stamp('date_completed'),
    createdAt: stamp('created_at').notNull().defaultNow(),
    /**
     * Who last set the quantities in the app, and when (null: never since the import, or before
     * migration 0017): a crew's offline change refused as stale shows whose number it meets
     * (docs/product/field-mode.md §7 conflicts, decision 037).
     */
    qtyChangedAt: stamp('qty_changed_at'),
    qtyChangedBy: integer('qty_changed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    ofTicket('ticket_tasks_ticket_company_fk', t),
    // Of the task's company too: never another company's unit. DEFERRABLE INITIALLY DEFERRED in
    // migration 0014 (drizzle has no word for it): deleting a company reaches its tasks last.
    foreignKey({ name: 'ticket_tasks_unit_company_fk', columns: [t.unitId, t.companyId], foreignColumns: [units.id, units.companyId] }),
    index('ticket_tasks_ticket_idx').on(t.ticketId),
  ],
);

export const workOrders = pgTable(
  'work_orders',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    workOrder: text('work_order').notNull(),
  },
  (t) => [ofTicket('work_orders_ticket_company_fk', t), index('work_orders_ticket_idx').on(t.ticketId)],
);

export const notes = pgTable(
  'notes',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    noteText: text('note_text').notNull(),
    createdDate: stamp('created_date').notNull().defaultNow(),
  },
  (t) => [ofTicket('notes_ticket_company_fk', t), index('notes_ticket_idx').on(t.ticketId)],
);

export const permits = pgTable(
  'permits',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    permitTypeId: integer('permit_type_id').references(() => permitTypes.id, { onDelete: 'set null' }),
    permitUrl: text('permit_url'),
    permitName: text('permit_name'),
    permitFileType: text('permit_file_type'),
    filename: text('filename'),
    /** The permit's number and validity (docs/product/records.md §2): calendar dates, expires_on the last valid day. */
    number: text('number'),
    validFrom: date('valid_from', { mode: 'string' }),
    expiresOn: date('expires_on', { mode: 'string' }),
  },
  (t) => [ofTicket('permits_ticket_company_fk', t), index('permits_ticket_idx').on(t.ticketId)],
);

export const images = pgTable(
  'images',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    url: text('url').notNull(),
    thumbnailUrl: text('thumbnail_url').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: stamp('uploaded_at').notNull().defaultNow(),
    /** When and where the photo was taken (docs/product/field-mode.md §8 photos): sent by the client or read from EXIF; null when unknown. */
    takenAt: stamp('taken_at'),
    geoLat: doublePrecision('geo_lat'),
    geoLon: doublePrecision('geo_lon'),
    /**
     * Photo checks (docs/product/records.md §7): metres from where it was taken to its ticket's
     * place (null when either is unknown) and the flags far_from_pole, before_job, no_position,
     * no_time. Written by the database only (migration 0024 linecrew_recheck_photos), whenever
     * the photo, its ticket's or pole's coordinates or the company's radius change.
     */
    distanceM: doublePrecision('distance_m'),
    flags: text('flags').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [ofTicket('images_ticket_company_fk', t), index('images_ticket_idx').on(t.ticketId)],
);
