import { z } from 'zod';
import {
  INVOICE_FILE_TYPE,
  invoiceCreateBody,
  invoiceCreateReply,
  invoiceFileName,
  invoiceListReply,
  invoicePreviewReply,
  invoiceReply,
} from '../../../shared/invoices.schemas';
import type { App, AppContext } from '../../context';
import { attachment, idParams } from '../../plugins/routes';
import { buildInvoiceFile } from './invoice-files-thread';
import * as service from './invoices.service';

const tags = ['invoices'];

/**
 * Invoices (docs/product/billing.md §4): roles 1–2 invoice (billing.write), role 3 reads (billing.read), roles
 * 4–6 get 403 on all of it. Another company's job or invoice answers 404. Unlocking a billed
 * ticket is the tickets module's (POST /tickets/{id}/unlock).
 */
export async function invoiceRoutes(app: App, ctx: AppContext) {
  app.post(
    '/jobs/:id/invoices',
    {
      config: { allow: 'billing.write' },
      schema: {
        tags,
        summary:
          "Invoice the job's Complete, unbilled tickets (all, through_date, or ticket_ids): 201 {invoice, skipped}. With require_evidence: true the tickets that are not evidenced are left out and listed in skipped [{ticket_id, reason}]",
        params: idParams,
        body: invoiceCreateBody.nullish(),
        response: { 201: invoiceCreateReply },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createInvoice(ctx, request.user, request.params.id, request.body ?? {})),
  );

  app.post(
    '/jobs/:id/invoices/preview',
    {
      config: { allow: 'billing.write' },
      schema: { tags, summary: 'The invoice POST /jobs/{id}/invoices would make now, nothing written, with each ticket\'s evidence (photos and their checks, the completion record, quantities changed after completion) and what require_evidence leaves out', params: idParams, body: invoiceCreateBody.nullish(), response: { 200: invoicePreviewReply } },
    },
    (request) => service.previewInvoice(ctx, request.user, request.params.id, request.body ?? {}),
  );

  app.get(
    '/jobs/:id/invoices',
    { config: { allow: 'billing.read' }, schema: { tags, summary: "The job's invoices, newest first (no lines)", params: idParams, response: { 200: invoiceListReply } } },
    (request) => service.listInvoices(ctx, request.user, request.params.id),
  );

  app.get(
    '/invoices/:id',
    { config: { allow: 'billing.read' }, schema: { tags, summary: 'One invoice with its frozen lines', params: idParams, response: { 200: invoiceReply } } },
    (request) => service.getInvoice(ctx, request.user, request.params.id),
  );

  for (const kind of ['xlsx', 'pdf'] as const) {
    app.get(
      `/invoices/:id/${kind}`,
      {
        config: {
          allow: 'billing.read',
          openapi: { fileReply: { types: [INVOICE_FILE_TYPE[kind]], description: kind === 'xlsx' ? 'The invoice as an Excel workbook (.xlsx)' : 'The invoice as a PDF' } },
        },
        schema: {
          tags,
          summary: kind === 'xlsx' ? 'The invoice as an Excel workbook (numbers as numbers, currency format)' : 'The invoice as a printable PDF',
          params: idParams,
          response: { 200: z.any() },
        },
      },
      async (request, reply) => {
        const input = await service.invoiceForFile(ctx, request.user, request.params.id);
        const body = await buildInvoiceFile(kind, input);
        return reply
          .type(INVOICE_FILE_TYPE[kind])
          .header('content-disposition', attachment(invoiceFileName(input.invoice.job_number, input.invoice.number, kind)))
          .header('cache-control', 'private, no-store')
          .send(body);
      },
    );
  }

  // The evidence pack (docs/product/billing.md §7): streamed, never built whole in memory.
  const EVIDENCE = {
    'evidence.pdf': 'Evidence PDF: per invoiced ticket its pole, line, work orders, units billed, completion record and up to 4 photo thumbnails (streamed)',
    'evidence.zip': 'Evidence ZIP: the evidence PDF, every photo of the invoiced tickets at full size (<pole>_<line>_<n>.jpg) and index.csv (streamed)',
  } as const;
  for (const kind of ['evidence.pdf', 'evidence.zip'] as const) {
    app.get(
      `/invoices/:id/${kind}`,
      {
        config: { allow: 'billing.read' },
        schema: {
          tags,
          summary: EVIDENCE[kind],
          params: idParams,
          produces: [INVOICE_FILE_TYPE[kind]],
          response: { 200: z.any().describe(`The file (${INVOICE_FILE_TYPE[kind]})`) },
        },
      },
      async (request, reply) => {
        const { invoice, stream } = await service.evidencePack(ctx, request.user, request.params.id, kind);
        return reply
          .type(INVOICE_FILE_TYPE[kind])
          .header('content-disposition', attachment(invoiceFileName(invoice.job_number, invoice.number, kind)))
          .header('cache-control', 'private, no-store')
          .send(stream);
      },
    );
  }
}
