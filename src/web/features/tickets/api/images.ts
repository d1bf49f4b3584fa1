import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_PREFIX } from '../../../../shared/constants';
import { MSG } from '../../../../shared/messages';
import type { TicketImage } from '../../../../shared/tickets.schemas';
import { apiFetch } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import { csrfHeaders, isSignedIn } from '../../../api/session';

/**
 * POST /media_upload/s3-upload-complete with a form body (ticketId, url, thumbUrl, isVideo='false')
 * → {id, image}: records an uploaded photo on the ticket; the server makes the thumbnail.
 * A form body, not JSON (SPEC §7), so not through apiFetch.
 */
export async function completeImageUpload(ticketId: number, url: string): Promise<{ id: number; image?: TicketImage }> {
  if (!isSignedIn()) throw new Error(MSG.notSignedIn);
  const body = new URLSearchParams({ ticketId: String(ticketId), url, thumbUrl: url, isVideo: 'false' });
  let res: Response;
  try {
    res = await fetch(`${API_PREFIX}/media_upload/s3-upload-complete`, {
      method: 'POST',
      // The session cookie plus our CSRF header: a form POST from another site carries no header.
      headers: { Accept: 'application/json', ...csrfHeaders, 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
      credentials: 'include',
    });
  } catch {
    throw new Error(MSG.imageSaveFailed);
  }
  const text = await res.text().catch(() => '');
  let parsed: { id?: number; image?: TicketImage; error?: string } | null = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!res.ok) throw new Error(parsed?.error || MSG.completeUploadFailed(res.statusText || `HTTP ${res.status}`));
  if (!parsed || (parsed.id == null && !parsed.image)) throw new Error(MSG.invalidServerResponse);
  return { id: parsed.id ?? parsed.image!.id, image: parsed.image };
}

/** DELETE /tickets/images/{id}. */
export const deleteImage = ({ id }: { id: number; ticketId: number }) =>
  apiFetch<{ success?: boolean }>(`/tickets/images/${id}`, { method: 'DELETE' });

export function useDeleteImage(jobId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: (_r, { ticketId }) => {
      void qc.invalidateQueries({ queryKey: queryKeys.ticket(ticketId) });
      void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
    },
  });
}
