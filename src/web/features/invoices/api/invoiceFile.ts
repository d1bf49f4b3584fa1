import { API_PREFIX } from '../../../../shared/constants';
import { useMutation } from '@tanstack/react-query';
import { invoiceFileName, type InvoiceSummary } from '../../../../shared/invoices.schemas';
import { apiDownload } from '../../../api/client';
import { saveFile } from '../../../components/saveFile';

/** GET /invoices/{id}/xlsx and /pdf: built by the server, saved as "{job} {INV-…}.xlsx". */
export const getInvoiceFile = (id: number, kind: 'xlsx' | 'pdf') => apiDownload(`/invoices/${id}/${kind}`);

export const useInvoiceDownload = () =>
  useMutation({
    mutationFn: async ({ invoice, kind }: { invoice: InvoiceSummary; kind: 'xlsx' | 'pdf' }) =>
      saveFile(await getInvoiceFile(invoice.id, kind), invoiceFileName(invoice.job_number, invoice.number, kind)),
  });

/**
 * GET /invoices/{id}/evidence.pdf and /evidence.zip (docs/product/billing.md §7): streamed by the
 * server, so the page links to them and the browser saves them as they come.
 */
export const evidenceUrl = (id: number, kind: 'evidence.pdf' | 'evidence.zip') => `${API_PREFIX}/invoices/${id}/${kind}`;
