import { API_PREFIX } from '../../shared/constants';
import { MSG } from '../../shared/messages';
import { checkUpload, type SignedUploadReply, type UploadKind } from '../../shared/uploads';
import { csrfHeaders, isSignedIn } from './session';

/** A failed upload; `message` is the SPEC §8 text to show (with a Retry after TIMING.uploadRetryAfterMs). */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly stage: 'check' | 'sign' | 'put',
    readonly status = 0,
  ) {
    super(message);
  }
}

export interface UploadedFile {
  /** Store this on the record (work_packet_url, dig_safe_url, …). */
  url: string;
  name: string;
  size: number;
  /** The content type it was stored with. */
  type: string;
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Tests pass these (a Bearer token, or null for none); the app uses the session cookie and its own origin. */
  token?: string | null;
  origin?: string;
}

async function reason(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) return body.error;
  } catch {
    // S3 answers XML: its <Message> is the most useful part.
    const m = /<Message>([^<]*)<\/Message>/.exec(text);
    if (m) return m[1];
  }
  return res.statusText || `HTTP ${res.status}`;
}

/**
 * The signed-upload flow of SPEC §7 for one file: check it against the rules of its kind
 * (src/shared/uploads.ts), ask the server to sign (`sign-s3-pdf?directory=<kind>` or
 * `sign-s3-media`), PUT the bytes to `signedRequest` with the headers the server named, and
 * return the `url` to keep. Failures throw UploadError with the SPEC §8 messages.
 */
export async function uploadFile(kind: UploadKind, file: File, opts: UploadOptions = {}): Promise<UploadedFile> {
  const check = checkUpload(kind, file);
  if (!check.ok) throw new UploadError(check.message, 'check');
  const { token } = opts;
  if (token === null || (token === undefined && !isSignedIn())) throw new UploadError(MSG.notSignedIn, 'sign', 401);
  const origin = opts.origin ?? '';

  const query = new URLSearchParams({ fileName: file.name, fileType: file.type, fileSize: String(file.size) });
  const path = kind === 'media' ? `/media_upload/sign-s3-media?isVideo=false&${query}` : `/doc_upload/sign-s3-pdf?directory=${kind}&${query}`;
  let signRes: Response;
  try {
    signRes = await fetch(`${origin}${API_PREFIX}${path}`, {
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : csrfHeaders) },
      credentials: 'include',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new UploadError(MSG.signedUrlFailed((err as Error).message), 'sign');
  }
  if (!signRes.ok) throw new UploadError(MSG.signedUrlFailed(await reason(signRes)), 'sign', signRes.status);
  let signed: Partial<SignedUploadReply>;
  try {
    signed = (await signRes.json()) as Partial<SignedUploadReply>;
  } catch {
    throw new UploadError(MSG.invalidServerResponse, 'sign', signRes.status);
  }
  if (!signed?.signedRequest || !signed.url) throw new UploadError(MSG.invalidServerResponse, 'sign', signRes.status);

  const headers = signed.headers ?? { 'Content-Type': check.contentType, 'x-amz-acl': 'public-read' };
  const target = signed.signedRequest.startsWith('/') ? `${origin}${signed.signedRequest}` : signed.signedRequest;
  let putRes: Response;
  try {
    putRes = await fetch(target, { method: 'PUT', body: file, headers, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new UploadError(MSG.storageUploadFailed((err as Error).message), 'put');
  }
  if (!putRes.ok) throw new UploadError(MSG.storageUploadFailed(await reason(putRes)), 'put', putRes.status);
  return { url: signed.url, name: file.name, size: file.size, type: headers['Content-Type'] ?? check.contentType };
}
