import { useMutation } from '@tanstack/react-query';
import type { ImageCompleteBody, ImageCompleteReply } from '../../../../shared/tickets.schemas';
import { MSG } from '../../../../shared/messages';
import { ApiError, apiFetch } from '../../../api/client';
import { isSignedIn } from '../../../api/session';

/**
 * POST /media_upload/s3-upload-complete with a form body (ticketId, url, thumbUrl, isVideo='false')
 * → {id, image}: records an uploaded photo on the ticket; the server makes the thumbnail.
 * A form body, not JSON (docs/product/api.md). Failures carry the docs/product/messages.md texts.
 */
export async function completeImageUpload(ticketId: number, url: string): Promise<ImageCompleteReply> {
  if (!isSignedIn()) throw new Error(MSG.notSignedIn);
  const fields = { ticketId: String(ticketId), url, thumbUrl: url, isVideo: 'false' } satisfies ImageCompleteBody;
  let reply: ImageCompleteReply | null;
  try {
    reply = await apiFetch<ImageCompleteReply | null>('/media_upload/s3-upload-complete', { method: 'POST', body: new URLSearchParams(fields) });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.status === 0) throw new Error(MSG.imageSaveFailed);
    // Our refusals say why in `error`; anything else (a proxy's page) is named by its status.
    if (!err.body?.error) throw new Error(MSG.completeUploadFailed(err.message));
    throw err;
  }
  if (!reply?.image) throw new Error(MSG.invalidServerResponse);
  return reply;
}

/** Records one uploaded photo; sent at once (networkMode 'always'), so a lost connection fails it with MSG.imageSaveFailed. */
export const useCompleteImageUpload = () =>
  useMutation({ mutationFn: ({ ticketId, url }: { ticketId: number; url: string }) => completeImageUpload(ticketId, url), networkMode: 'always' });
