import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookCreateInput,
  WebhookCreateReply,
  WebhookEndpoint,
  WebhookListReply,
  WebhookLogReply,
  WebhookUpdateInput,
} from '../../../../shared/webhooks.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';

/** The /webhooks routes (docs/product/integrations.md §4), Admins only. */

export const useWebhooks = (enabled: boolean) => useQuery({ queryKey: queryKeys.webhooks, queryFn: () => apiFetch<WebhookListReply>('/webhooks'), enabled });

/** The endpoint's log; refreshed every 10 s while shown, so tries made meanwhile appear. */
export const useWebhookLog = (id: number, shown: boolean) =>
  useQuery({
    queryKey: queryKeys.webhookLog(id),
    queryFn: () => apiFetch<WebhookLogReply>(`/webhooks/${id}/deliveries`),
    enabled: shown,
    refetchInterval: shown ? 10_000 : false,
  });

export function useCreateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookCreateInput) => apiFetch<WebhookCreateReply>('/webhooks', { method: 'POST', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

export function useUpdateWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: WebhookUpdateInput & { id: number }) =>
      apiFetch<{ webhook: WebhookEndpoint }>(`/webhooks/${id}`, { method: 'PATCH', body }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

export function useDeleteWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<{ success: true }>(`/webhooks/${id}`, { method: 'DELETE' }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.webhooks }),
  });
}

export function useResendDelivery(endpointId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: number) => apiFetch<{ delivery_id: number }>(`/webhooks/${endpointId}/deliveries/${deliveryId}/resend`, { method: 'POST' }),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.webhookLog(endpointId) }),
  });
}
