import { z } from 'zod';
import { getColumnsReply } from './excel';
import { xlsUploadReply } from './tickets.schemas';

/**
 * Re-importing a workbook into a job that already has tickets (decision 018).
 * POST /tickets/xls-upload takes a `mode`:
 * - `columns`: the workbook's headers, for the Excel Column Mapping (writes nothing);
 * - `preview`: what an import would do (writes nothing), with a `preview_token`;
 * - `add_new` (the default, what older clients get): new tickets and new tasks only;
 * - `update_quantities`: that, and the bid quantity (`init_qty`) of matched tasks set to the file's.
 * A row whose ticket (pole + line) is already in the job and whose unit code that ticket already
 * has never creates a second task, in any mode.
 */
export const REIMPORT_MODES = ['columns', 'preview', 'add_new', 'update_quantities'] as const;
export type ReimportMode = (typeof REIMPORT_MODES)[number];
export const APPLY_MODES = ['add_new', 'update_quantities'] as const;
export type ApplyMode = (typeof APPLY_MODES)[number];

/** At most this many changed quantities are listed in a preview; `changed_total` counts them all. */
export const PREVIEW_CHANGES_LISTED = 200;

export const changedQuantitySchema = z.object({
  pole: z.string(),
  line: z.string(),
  code: z.string(),
  /** The bid now: the sum of init_qty of the ticket's tasks of this unit. */
  from: z.number(),
  /** The file's quantity: the sum of its rows for this pole, line and unit. */
  to: z.number(),
});
export type ChangedQuantity = z.infer<typeof changedQuantitySchema>;

/** The reply of mode `preview`, and the `preview` of a 409 when the job changed since. */
export const reimportPreviewSchema = z.object({
  mode: z.literal('preview'),
  /** Tickets the import creates (pole + line not yet ticketed in the job). */
  new_tickets: z.number().int(),
  /** Tasks it creates: every row of a new ticket, and rows of a unit their ticket lacks. */
  new_tasks: z.number().int(),
  /** Matched (ticket, unit) pairs whose quantity differs, first PREVIEW_CHANGES_LISTED of them. */
  changed_quantities: z.array(changedQuantitySchema),
  changed_total: z.number().int(),
  /** Rows that match a task with the same quantity: nothing to do. */
  unchanged: z.number().int(),
  /** Send it back with the chosen mode: the import is refused (409) if the job changed meanwhile. */
  preview_token: z.string(),
});
export type ReimportPreview = z.infer<typeof reimportPreviewSchema>;

/** 409 of an import whose preview is stale: the message and the preview as the job is now. */
export const reimportStaleReply = z.object({ error: z.string(), status: z.string().optional(), preview: reimportPreviewSchema });

/** The preview token as sent back: the hex SHA-256 of the plan. */
export const previewTokenSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be the preview_token of a preview');

/** The reply of an import (modes add_new and update_quantities). */
export const xlsImportReply = xlsUploadReply.extend({
  /** Matched (ticket, unit) pairs whose bid quantity was set to the file's. */
  updated: z.number().int(),
});
export type XlsImportReply = z.infer<typeof xlsImportReply>;

/** 200 of POST /tickets/xls-upload, by mode: a preview, the workbook's columns, or an import. */
export const xlsUploadModesReply = z.union([reimportPreviewSchema, getColumnsReply, xlsImportReply]);
