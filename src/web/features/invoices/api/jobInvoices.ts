import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceSummary } from '../../../../shared/invoices.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** GET /jobs/{id}/invoices: the job's invoices, newest first, without lines (roles 1–3). */
export const getJobInvoices = (jobId: number) => apiFetch<{ invoices: InvoiceSummary[] }>(`/jobs/${jobId}/invoices`).then((b) => b.invoices);

export const jobInvoicesQuery = (jobId: number) => queryOptions({ queryKey: queryKeys.jobInvoices(jobId), queryFn: () => getJobInvoices(jobId) });

export const useJobInvoices = (jobId: number, enabled = true) => useQuery({ ...jobInvoicesQuery(jobId), enabled });
