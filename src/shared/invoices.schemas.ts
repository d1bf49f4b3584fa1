import { z } from 'zod';
import { toIsoDate } from './dates';
import { MSG } from './messages';

/**
 * The invoice contract (docs/product/billing.md §4 invoices): POST /jobs/{id}/invoices (and its /preview),
 * GET /jobs/{id}/invoices, GET /invoices/{id}, and POST /tickets/{id}/unlock. Amounts are money
 * strings with two decimals ("1234.50", src/shared/money.ts); quantities are numbers.
 */

const money = z.string().regex(/^-?\d+\.\d{2}$/);
const rowId = z.number().int().positive().max(2_147_483_647);

/** A calendar day 'YYYY-MM-DD' (MM/DD/YYYY accepted and normalised), never shifted by a time zone. */
const calendarDay = z
  .string()
  .max(10)
  .transform((v, ctx) => {
    const day = toIsoDate(v);
    if (!day) {
      ctx.addIssue({ code: 'custom', message: 'Choose a date (YYYY-MM-DD or MM/DD/YYYY).' });
      return z.NEVER;
    }
    return day;
  });

/**
 * What to bill: nothing (every Complete ticket of the job not yet billed), `through_date` (those
 * completed on or before that day in the company's time zone) or `ticket_ids` (exactly these).
 * The web app confirms a preview by sending the previewed ticket ids, so the invoice it makes is
 * the one the user saw, or a 409 naming what changed meanwhile.
 */
export const invoiceCreateBody = z
  .object({
    ticket_ids: z.array(rowId).min(1, 'Choose at least one ticket.').max(50_000).optional(),
    through_date: calendarDay.optional(),
    /**
     * Leave out the tickets that are not evidenced (docs/product/records.md §9): they are not
     * billed and the reply lists them in `skipped`, with the reason.
     */
    require_evidence: z.boolean().optional(),
  })
  .strict();
export type InvoiceCreateInput = z.input<typeof invoiceCreateBody>;

/**
 * The Create invoice dialog's choice (what to bill), before it is made into an invoiceCreateBody:
 * a date for 'date', at least one ticket for 'tickets'.
 */
export const invoiceChoiceForm = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('all') }),
  z.object({ mode: z.literal('date'), through: z.string().min(1, 'Choose a date.') }),
  z.object({ mode: z.literal('tickets'), chosen: z.array(rowId).min(1, 'Choose at least one ticket.') }),
]);
export interface InvoiceChoice {
  mode: 'all' | 'date' | 'tickets';
  /** 'YYYY-MM-DD' or '' (mode 'date'). */
  through: string;
  /** Ticket ids (mode 'tickets'). */
  chosen: number[];
}

/** The body of the preview (and so of the invoice) for a valid choice. */
export const invoiceBodyOf = (c: InvoiceChoice, requireEvidence = false): InvoiceCreateInput => ({
  ...(c.mode === 'date' ? { through_date: c.through } : c.mode === 'tickets' ? { ticket_ids: c.chosen } : {}),
  ...(requireEvidence ? { require_evidence: true } : {}),
});
export type InvoiceCreate = z.output<typeof invoiceCreateBody>;

/** One task of one ticket, frozen when the invoice was made. */
export const invoiceLineSchema = z.object({
  /** null once the ticket was deleted (the line stays). */
  ticket_id: z.number().int().nullable(),
  pole_name: z.string(),
  line_name: z.string(),
  /** The ticket's work orders, joined by ", ". */
  work_order: z.string(),
  code: z.string(),
  description: z.string(),
  uom: z.string(),
  /** init_qty + additional_qty. */
  quantity: z.number(),
  /** null when the unit had no price: the line counts 0. */
  unit_price: money.nullable(),
  amount: money,
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

/** An invoice without its lines (the job's list). */
export const invoiceSummarySchema = z.object({
  id: z.number().int(),
  /** INV-000001…, unique in the company. */
  number: z.string(),
  job_id: z.number().int(),
  job_number: z.string(),
  currency: z.string(),
  total: money,
  /** ISO instant. */
  created_at: z.string(),
  /**
   * The invoice's date: the day of `created_at` in the company's time zone, 'YYYY-MM-DD'. The one
   * date the job page, the PDF and the XLSX all show (never the reader's own zone).
   */
  invoice_date: z.string(),
  created_by_name: z.string().nullable(),
  /** The day asked for, when the invoice was made "through a date". */
  through_date: z.string().nullable(),
  ticket_count: z.number().int(),
  line_count: z.number().int(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

/** Who is billed for what: the job's utility (with its address when one is known), the job, the work orders billed. */
export const billToSchema = z.object({
  /** The utility's code, as the job names it. */
  utility: z.string(),
  /** The utility's postal address; null while the company has none on file. */
  address: z.string().nullable(),
  job_number: z.string(),
  /** Every work order on the lines, once each, in the invoice's order. */
  work_orders: z.array(z.string()),
});
export type BillTo = z.infer<typeof billToSchema>;

export const invoiceSchema = invoiceSummarySchema.extend({
  bill_to: billToSchema,
  /** The tickets it bills (those still existing), by id. */
  ticket_ids: z.array(z.number().int()),
  lines: z.array(invoiceLineSchema),
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** A ticket left out by require_evidence, and why ("No photo at the pole (1 photo at the pole required)"). */
export const skippedTicketSchema = z.object({ ticket_id: z.number().int(), reason: z.string() });
export type SkippedTicket = z.infer<typeof skippedTicketSchema>;

/** A photo as the invoice check shows it (docs/product/records.md §7). */
export const evidencePhotoSchema = z.object({
  id: z.number().int(),
  thumbnailurl: z.string(),
  taken_at: z.string().nullable(),
  distance_m: z.number().nullable(),
  flags: z.array(z.string()),
});

/**
 * One ticket's evidence in the invoice preview (docs/product/records.md §9): its photos with their
 * checks, the completion record, and whether a quantity changed after it was completed.
 */
export const ticketEvidenceSchema = z.object({
  ticket_id: z.number().int(),
  pole_name: z.string().nullable(),
  line_name: z.string().nullable(),
  evidenced: z.boolean(),
  /** Why not evidenced (null when it is). */
  reason: z.string().nullable(),
  photo_count: z.number().int(),
  evidence_photo_count: z.number().int(),
  photos: z.array(evidencePhotoSchema),
  actual_completion_date: z.string().nullable(),
  completed_by_name: z.string().nullable(),
  completed_lat: z.number().nullable(),
  completed_lon: z.number().nullable(),
  completed_accuracy_m: z.number().nullable(),
  /** A task's quantity was set after the ticket was completed (ticket_tasks.qty_changed_at > actual_completion_date). */
  qty_changed_after_completion: z.boolean(),
});
export type TicketEvidence = z.infer<typeof ticketEvidenceSchema>;

/** What POST /jobs/{id}/invoices/preview answers: the same shape, nothing written (no id or number yet), dated today, with each ticket's evidence. */
export const invoicePreviewSchema = invoiceSchema.extend({
  id: z.null(),
  number: z.null(),
  created_at: z.null(),
  /** The evidence of every ticket the choice picked, the ones left out by require_evidence too. */
  evidence: z.array(ticketEvidenceSchema),
  /** Left out by require_evidence (empty without it). */
  skipped: z.array(skippedTicketSchema),
  /** The company's evidence_photos_required the evidence was judged by. */
  evidence_photos_required: z.number().int(),
});
export type InvoicePreview = z.infer<typeof invoicePreviewSchema>;

/** POST /jobs/{id}/invoices answers the invoice and, with require_evidence, the tickets it left out. */
export const invoiceCreateReply = z.object({ invoice: invoiceSchema, skipped: z.array(skippedTicketSchema) });
export const invoiceReply = z.object({ invoice: invoiceSchema });
export const invoicePreviewReply = z.object({ invoice: invoicePreviewSchema });
export const invoiceListReply = z.object({ invoices: z.array(invoiceSummarySchema) });

/** POST /tickets/{id}/unlock: why a billed ticket's tasks or status must change. */
export const UNLOCK_REASON_MAX = 500;
export const unlockBody = z.object({ reason: z.string().max(UNLOCK_REASON_MAX, `Keep the reason under ${UNLOCK_REASON_MAX} characters.`) });
/** The Unlock dialog's form: unlockBody with the rule the service applies after it (a reason that is not blank). */
export const unlockForm = z.object({
  reason: z.string().trim().min(1, MSG.unlockReasonRequired).max(UNLOCK_REASON_MAX, `Keep the reason under ${UNLOCK_REASON_MAX} characters.`),
});
export type UnlockInput = z.infer<typeof unlockBody>;

/** The work orders of these lines, each once, in line order (a line holds its ticket's, joined by ", "). */
export function workOrdersOf(lines: readonly Pick<InvoiceLine, 'work_order'>[]): string[] {
  const seen = new Set<string>();
  for (const l of lines) for (const wo of l.work_order.split(', ')) if (wo.trim()) seen.add(wo);
  return [...seen];
}

/** The name of an invoice's downloads: "J-1001 INV-000001.xlsx", "J-1001 INV-000001 evidence.zip". */
export const invoiceFileName = (jobNumber: string, number: string, ext: InvoiceFileKind) =>
  ext.startsWith('evidence.') ? `${jobNumber} ${number} ${ext}` : `${jobNumber} ${number}.${ext}`;

export const INVOICE_FILE_TYPE = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  'evidence.pdf': 'application/pdf',
  'evidence.zip': 'application/zip',
} as const;
/** The downloads of an invoice: GET /invoices/{id}/{kind}. */
export type InvoiceFileKind = keyof typeof INVOICE_FILE_TYPE;

/** INV-000001: the company's counter, six digits at least. */
export const invoiceNumber = (n: number) => `INV-${String(n).padStart(6, '0')}`;
