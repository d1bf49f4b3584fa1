import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invoice, InvoiceCreateInput, InvoicePreview, SkippedTicket } from '../../../../shared/invoices.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** POST /jobs/{id}/invoices/preview: the invoice that would be made now; nothing is written. */
export const previewInvoice = (jobId: number, body: InvoiceCreateInput) =>
  apiFetch<{ invoice: InvoicePreview }>(`/jobs/${jobId}/invoices/preview`, { method: 'POST', body }).then((b) => b.invoice);

/**
 * POST /jobs/{id}/invoices. The modal confirms a preview by sending its ticket ids, so the invoice
 * is the one the user saw, or a 409 naming the tickets someone billed meanwhile.
 */
export const createInvoice = (jobId: number, body: InvoiceCreateInput) =>
  apiFetch<{ invoice: Invoice; skipped: SkippedTicket[] }>(`/jobs/${jobId}/invoices`, { method: 'POST', body }).then((b) => b.invoice);

export const usePreviewInvoice = (jobId: number) => useMutation({ mutationFn: (body: InvoiceCreateInput) => previewInvoice(jobId, body) });

/** Creates, then refreshes the job (its tickets' Billed badges) and, under it, its invoice list. */
export function useCreateInvoice(jobId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: InvoiceCreateInput) => createInvoice(jobId, body),
    // On a 409 too: someone else's invoice is news the page should show.
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.job(jobId) }),
  });
}
