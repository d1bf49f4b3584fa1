import { recordMany } from '../history/history.service';
import { billingLabel } from '../tickets/ticket-history.service';
import Big from 'big.js';
import { ERROR_CODE } from '../../../shared/error-codes';
import {
  invoiceNumber,
  workOrdersOf,
  type BillTo,
  type Invoice,
  type InvoiceCreate,
  type InvoiceLine,
  type InvoicePreview,
  type InvoiceSummary,
  type SkippedTicket,
  type TicketEvidence,
} from '../../../shared/invoices.schemas';
import { formatDateTimeInZone } from '../../../shared/dates';
import { TICKET_STATUS } from '../../../shared/constants';
import { countsAsEvidence, missingEvidence } from '../../../shared/evidence';
import { evidencePhotosRequired } from '../auth/auth.service';
import { MSG } from '../../../shared/messages';
import { amountOf, sumMoney } from '../../../shared/money';
import { compareLinePole } from '../../../shared/sorting';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { isoInstant } from '../../db/sql';
import { badRequest, conflict, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { findJob, lockJob } from '../job-record/job-record.service';
import { emitWebhookEvent } from '../webhooks/webhooks.service';
import { evidenceTicketCount, evidenceTickets } from './evidence';
import { evidencePdf } from './evidence-pdf';
import { evidenceZip } from './evidence-zip';
import * as repo from './invoices.repository';

/**
 * Invoices (docs/product/billing.md §5; docs/decisions/025-invoices.md): a job's Complete tickets billed once,
 * their tasks frozen into lines, numbered INV-000001… per company, all in one transaction.
 */

/** Whether the job has an invoice: such a job is kept (docs/product/billing.md §4), the jobs module refuses to delete it. */
export const jobHasInvoices = repo.jobHasInvoices;

const where = (t: { pole_name: string | null; line_name: string | null; id: number }) =>
  t.pole_name ? `${t.pole_name}${t.line_name ? ` / ${t.line_name}` : ''}` : `ticket ${t.id}`;

/** At most a few names in a message; the rest counted. */
function listed(items: readonly string[], max = 8): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

/** quantity = init + additional, added exactly (0.1 + 0.2 is 0.3 on an invoice). */
const quantityOf = (init: number, additional: number) => Number(new Big(init).plus(additional).toString());

/**
 * The lines of an invoice in its order: line, then pole, naturally (compareLinePole); a pole's
 * tickets by id and a ticket's tasks as entered. `sources` come by ticket and task.
 */
function toLines(sources: readonly repo.LineSource[]) {
  return [...sources]
    .sort((a, b) => compareLinePole(a, b) || a.ticket_id - b.ticket_id)
    .map(({ init_qty, additional_qty, task_id: _task, ...s }) => {
      const quantity = quantityOf(init_qty, additional_qty);
      const unit_price = s.unit_price == null ? null : new Big(s.unit_price).toFixed(2);
      return { ...s, quantity, unit_price, amount: amountOf(quantity, unit_price) };
    });
}

/** The company's calendar day of an instant, 'YYYY-MM-DD'. */
const dayIn = (at: Date | string, timeZone: string) => formatDateTimeInZone(at, timeZone).slice(0, 10);

/** The bill-to block (docs/product/billing.md §4). Utilities have no address on file yet: null. */
const billTo = (utility: string, jobNumber: string, lines: readonly Pick<InvoiceLine, 'work_order'>[]): BillTo => ({
  utility,
  address: null,
  job_number: jobNumber,
  work_orders: workOrdersOf(lines),
});

interface Draft {
  ticketIds: number[];
  lines: ReturnType<typeof toLines>;
  total: string;
  /** The evidence of every ticket picked, those left out too. */
  evidence: TicketEvidence[];
  skipped: SkippedTicket[];
  required: number;
}

/**
 * Each ticket's evidence (docs/product/records.md §9), judged by the one rule (src/shared/evidence.ts): its
 * photos that count, against the company's evidence_photos_required.
 */
async function evidenceOf(tx: DbOrTx, companyId: number, ticketIds: readonly number[], required: number): Promise<TicketEvidence[]> {
  return (await repo.evidenceSources(tx, companyId, ticketIds)).map((s) => {
    const facts = { status: TICKET_STATUS.COMPLETE, evidence_photo_count: s.photos.filter((p) => countsAsEvidence(p.flags)).length };
    const reason = missingEvidence(facts, required);
    return { ...s, evidenced: reason === null, reason, photo_count: s.photos.length, evidence_photo_count: facts.evidence_photo_count };
  });
}

/**
 * Picks and locks the tickets to bill and prices their tasks (no write). A ticket asked for by id
 * that is not this job's answers 400; one not Complete, or already billed, 409 naming them.
 */
async function draftInvoice(tx: DbOrTx, me: CurrentUser, jobId: number, input: InvoiceCreate, timeZone: string): Promise<Draft> {
  if (input.ticket_ids && input.through_date) throw badRequest(MSG.invoiceTicketsOrDate, { through_date: MSG.invoiceTicketsOrDate });
  const picked = await repo.lockCandidates(tx, me.companyId, jobId, { ticketIds: input.ticket_ids, throughDate: input.through_date, timeZone });
  if (input.ticket_ids) {
    const found = new Set(picked.map((t) => t.id));
    const missing = [...new Set(input.ticket_ids)].filter((id) => !found.has(id));
    if (missing.length) throw badRequest(MSG.invoiceTicketsNotInJob(listed(missing.map(String))), { ticket_ids: 'not tickets of this job' });
    const billed = picked.filter((t) => t.invoice_number != null);
    if (billed.length) throw conflict(MSG.invoiceTicketsAlreadyBilled(listed(billed.map((t) => `${where(t)} (${t.invoice_number})`))), ERROR_CODE.alreadyBilled);
    const pending = picked.filter((t) => !t.complete);
    if (pending.length) throw conflict(MSG.invoiceTicketsNotComplete(listed(pending.map(where))));
  }
  if (picked.length === 0) throw conflict(MSG.invoiceNothingToBill, ERROR_CODE.nothingToInvoice);
  const required = await evidencePhotosRequired(tx, me.companyId);
  const evidence = await evidenceOf(tx, me.companyId, picked.map((t) => t.id), required);
  // require_evidence leaves out the tickets that are not evidenced, and says which and why.
  const skipped: SkippedTicket[] = input.require_evidence ? evidence.filter((e) => !e.evidenced).map((e) => ({ ticket_id: e.ticket_id, reason: e.reason ?? '' })) : [];
  const left = new Set(skipped.map((s) => s.ticket_id));
  const ticketIds = picked.map((t) => t.id).filter((id) => !left.has(id));
  if (ticketIds.length === 0) throw conflict(MSG.invoiceNothingEvidenced, ERROR_CODE.nothingToInvoice);
  const lines = toLines(await repo.lineSources(tx, me.companyId, ticketIds));
  return { ticketIds, lines, total: sumMoney(lines.map((l) => l.amount)), evidence, skipped, required };
}

/** POST /jobs/{id}/invoices/preview: the invoice that would be made now, nothing written. */
export async function previewInvoice(ctx: AppContext, me: CurrentUser, jobId: number, input: InvoiceCreate): Promise<{ invoice: InvoicePreview }> {
  const job = await findJob(ctx.db, me.companyId, jobId);
  if (!job) throw notFound('job');
  const [company, utility] = await Promise.all([repo.companyBilling(ctx.db, me.companyId), repo.utilityOfJob(ctx.db, me.companyId, jobId)]);
  // In a transaction only so the row locks end with it; nothing is written.
  const draft = await ctx.db.transaction((tx) => draftInvoice(tx, me, jobId, input, company.timeZone));
  return {
    invoice: {
      id: null,
      number: null,
      created_at: null,
      invoice_date: dayIn(new Date(), company.timeZone),
      bill_to: billTo(utility, job.jobNumber, draft.lines),
      job_id: jobId,
      job_number: job.jobNumber,
      currency: company.currency,
      total: draft.total,
      created_by_name: null,
      through_date: input.through_date ?? null,
      ticket_count: draft.ticketIds.length,
      line_count: draft.lines.length,
      ticket_ids: draft.ticketIds,
      lines: draft.lines,
      evidence: draft.evidence,
      skipped: draft.skipped,
      evidence_photos_required: draft.required,
    },
  };
}

/**
 * POST /jobs/{id}/invoices: in ONE transaction, lock the tickets, freeze their lines, take the
 * next number, and mark them billed. Two invoicers of the same tickets (any processes): the second
 * waits on the row locks and then finds them billed (409); and should anything slip past that,
 * billed_tickets' key refuses the second row, which is turned into the same 409 here.
 */
export async function createInvoice(ctx: AppContext, me: CurrentUser, jobId: number, input: InvoiceCreate): Promise<{ invoice: Invoice; skipped: SkippedTicket[] }> {
  const job = await findJob(ctx.db, me.companyId, jobId);
  if (!job) throw notFound('job');
  const company = await repo.companyBilling(ctx.db, me.companyId);
  let id: number;
  let skipped: SkippedTicket[] = [];
  try {
    id = await ctx.db.transaction(async (tx) => {
      // The job row first (the order imports use too): a job deleted or re-imported at this
      // moment is waited for, never half-seen (an invoice of a vanishing job would be a 500).
      if ((await lockJob(tx, me.companyId, jobId)).length === 0) throw notFound('job');
      const draft = await draftInvoice(tx, me, jobId, input, company.timeZone);
      skipped = draft.skipped;
      const { n, currency } = await repo.nextInvoiceNumber(tx, me.companyId);
      const number = invoiceNumber(n);
      const invoice = await repo.insertInvoice(tx, {
        companyId: me.companyId,
        jobId,
        number,
        currency,
        total: draft.total,
        throughDate: input.ticket_ids ? null : (input.through_date ?? null),
        createdBy: me.id,
      });
      await repo.insertLines(tx, me.companyId, invoice.id, draft.lines);
      await repo.markBilled(tx, me.companyId, invoice.id, number, draft.ticketIds);
      // History (docs/product/records.md §1): the invoice's creation on the job, and each ticket's billing.
      const billed = billingLabel({ billed_at: 'now', invoice_number: number, unlocked_at: null, unlock_reason: null });
      await recordMany(tx, me, [
        { target: { entity: 'invoice', entityId: invoice.id, jobId }, changes: [{ action: 'create', new: { number, total: draft.total, tickets: draft.ticketIds.length } }] },
        ...draft.ticketIds.map((t) => ({ target: { entity: 'ticket' as const, entityId: t, ticketId: t, jobId }, changes: [{ action: 'bill' as const, field: 'billing', old: null, new: billed }] })),
      ]);
      await emitWebhookEvent(tx, me.companyId, 'invoice.created', {
        invoice_id: invoice.id,
        job_id: jobId,
        number,
        total: new Big(draft.total).toFixed(2),
        currency,
        user_id: me.id,
      });
      return invoice.id;
    });
  } catch (err) {
    if (isUniqueViolation(err, 'billed_tickets_pkey')) throw conflict(MSG.invoiceTicketsAlreadyBilled('some of these tickets, just now'), ERROR_CODE.alreadyBilled);
    throw err;
  }
  return { invoice: await loadInvoice(ctx.db, me.companyId, id), skipped };
}

function toSummary({ utility: _utility, ...row }: repo.InvoiceSummaryRow): InvoiceSummary {
  return { ...row, created_at: isoInstant(row.created_at) ?? '', total: new Big(row.total).toFixed(2) };
}

async function loadInvoice(db: DbOrTx, companyId: number, id: number): Promise<Invoice> {
  const [row, lines, ticketIds] = await Promise.all([repo.findInvoice(db, companyId, id), repo.linesOf(db, companyId, id), repo.billedTicketIds(db, companyId, id)]);
  if (!row) throw notFound('invoice');
  const money2 = (v: string | null) => (v == null ? null : new Big(v).toFixed(2));
  // Sorted on reading too: invoices frozen before the natural order read the same way (stable,
  // so a ticket's lines keep their stored order).
  const ordered = lines
    .map((l): InvoiceLine => ({ ...l, unit_price: money2(l.unit_price), amount: money2(l.amount)! }))
    .sort(compareLinePole);
  return {
    ...toSummary(row),
    bill_to: billTo(row.utility, row.job_number, ordered),
    ticket_ids: ticketIds,
    lines: ordered,
  };
}

/** GET /jobs/{id}/invoices: newest first, without lines. */
export async function listInvoices(ctx: AppContext, me: CurrentUser, jobId: number): Promise<{ invoices: InvoiceSummary[] }> {
  if (!(await findJob(ctx.db, me.companyId, jobId))) throw notFound('job');
  return { invoices: (await repo.invoicesOfJob(ctx.db, me.companyId, jobId)).map(toSummary) };
}

/** GET /invoices/{id}. */
export async function getInvoice(ctx: AppContext, me: CurrentUser, id: number): Promise<{ invoice: Invoice }> {
  return { invoice: await loadInvoice(ctx.db, me.companyId, id) };
}

/** The invoice and its company's name, for the downloads. */
export async function invoiceForFile(ctx: AppContext, me: CurrentUser, id: number) {
  const [invoice, company] = await Promise.all([loadInvoice(ctx.db, me.companyId, id), repo.companyBilling(ctx.db, me.companyId)]);
  return { invoice, company: { name: company.name } };
}

/**
 * The evidence pack of an invoice (docs/product/billing.md §7) as a stream: its PDF or its ZIP.
 * Everything that can refuse (another company's invoice: 404) is checked before the stream is
 * made, so a refusal is a plain error reply and never a broken download.
 */
export async function evidencePack(ctx: AppContext, me: CurrentUser, id: number, kind: 'evidence.pdf' | 'evidence.zip') {
  const [invoice, company] = await Promise.all([loadInvoice(ctx.db, me.companyId, id), repo.companyBilling(ctx.db, me.companyId)]);
  const head = { invoice, company: { name: company.name, timeZone: company.timeZone }, tickets: evidenceTicketCount(invoice) };
  const tickets = () => evidenceTickets(ctx, me.companyId, invoice);
  const stream = kind === 'evidence.pdf' ? evidencePdf(head, tickets(), ctx.storage) : evidenceZip(head, tickets, ctx.storage);
  return { invoice, stream };
}
