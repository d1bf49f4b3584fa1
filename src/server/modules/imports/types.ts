import type { PoleDraft, TaskDraft, TicketDraft, UnitDraft } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import type { ChangedQuantity } from '../../../shared/reimport';
import { AppError } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';

/** The shapes of an import: its scope, its drafts, its plan and what it wrote (see reimport.ts). */

export interface ImportScope {
  companyId: number;
  jobId: number;
  /** The job's utility: unit library rows and poles are looked up and created for it. */
  utilityId: number;
  /** Who imports: the history's import entries name them (and the API token they used, if any). */
  userId: number;
  apiToken?: { id: number; name: string } | null;
}

/** The scope of an import into this job by this caller. */
export const importScope = (me: Pick<CurrentUser, 'id' | 'companyId' | 'apiToken'>, jobId: number, utilityId: number): ImportScope => ({
  companyId: me.companyId,
  jobId,
  utilityId,
  userId: me.id,
  apiToken: me.apiToken ?? null,
});

/** A task of a draft: the converter's TaskDraft, optionally with an actual change. */
export type ImportTask = Omit<TaskDraft, 'row' | 'description'> & { row?: number; description?: string; additional_qty?: number };

/** The pole of a draft: the converter's PoleDraft, plus the pole fields only newTickets carries. */
export type ImportPole = PoleDraft & {
  utility_spec?: string | null;
  sub_curcuit?: string | null;
  sap_curcuit?: string | null;
};

/** A ticket draft: the Excel converter's TicketDraft is one; newTickets are converted to it. */
export interface ImportTicket extends Omit<TicketDraft, 'key' | 'tasks' | 'pole' | 'row'> {
  /** Grouping key; derived from pole + line when absent. */
  key?: string;
  /** Excel row of its first row. */
  row?: number;
  /** How messages name the draft ('Row 12', 'Ticket 3'); default `Row ${row}`. */
  label?: string;
  pole: ImportPole;
  description?: string | null;
  ambulance_meetup?: string | null;
  tasks: ImportTask[];
}

export type ImportUnit = Omit<UnitDraft, 'row'> & { row?: number };

export interface ImportCounts {
  /** Tickets created (drafts merged into a ticket already in the job are not counted). */
  tickets: number;
  /** Tasks created. */
  tasks: number;
  workOrders: number;
  /** Unit-library rows inserted or updated. */
  units: number;
  /** Poles created. */
  poles: number;
}

/**
 * What an import does to a job that may already have some of its tickets (decision 018).
 * A draft row is MATCHED when its pole + line is already ticketed in the job and
 * that ticket already has a task of the row's unit (code, case-insensitive): a matched row never
 * creates a task. The file's quantity of a matched (ticket, unit) is the sum of its rows, the
 * job's the sum of the ticket's tasks of that unit (more than one only after the old duplicating
 * import); they are 'changed' when they differ, else the rows are 'unchanged'.
 */
export interface ImportPlan {
  newTickets: number;
  newTasks: number;
  changed: ChangedQuantity[];
  unchanged: number;
  /** Hex SHA-256 of everything the plan was computed from: the drafts and the matched records. */
  token: string;
}

/**
 * - `add_new`: create what is new; matched rows change nothing (what every caller got before
 *   this option existed, minus the duplicated tasks).
 * - `update_quantities`: that, and each changed (ticket, unit) gets the file's bid quantity.
 * - `preview`: compute the plan, write nothing.
 */
export type ImportMode = 'preview' | 'add_new' | 'update_quantities';

export interface ImportOptions {
  mode?: ImportMode;
  /** A preview's token: the import is refused (StalePreviewError) when the plan differs now. */
  expectedToken?: string;
}

/** 409: the job changed between the preview and the import; carries the plan as it is now. */
export class StalePreviewError extends AppError {
  constructor(readonly plan: ImportPlan) {
    super(409, MSG.reimportStale);
  }
}

export interface ReimportResult {
  counts: ImportCounts;
  /** Matched (ticket, unit) pairs whose bid quantity was set to the file's (update_quantities). */
  updated: number;
  plan: ImportPlan;
}

/** Drafts of a staged import as they come: the library with the first batch (ImportBatch of the workbook worker). */
export interface ImportBatch {
  tickets: readonly ImportTicket[];
  library?: readonly ImportUnit[];
  /** Everything sent before is void: the drafts start over (the workbook is read again). */
  restart?: boolean;
}
