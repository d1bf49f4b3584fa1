import { API_PREFIX } from '../../shared/constants';
import { MSG } from '../../shared/messages';
import { checkUpload, type SignedUploadReply, type UploadKind } from '../../shared/uploads';
import { network } from './network';
import { csrfHeaders, isSignedIn } from './session';

/** A failed upload; `message` is the docs/product/messages.md text to show (with a Retry after TIMING.uploadRetryAfterMs). */
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

/** The most useful text of a failed answer: our `{error}`, S3's XML <Message>, else the status text. */
export function reasonOf(status: number, statusText: string, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === 'string' && body.error) return body.error;
  } catch {
    // S3 answers XML: its <Message> is the most useful part.
    const m = /<Message>([^<]*)<\/Message>/.exec(text);
    if (m) return m[1];
  }
  return statusText || `HTTP ${status}`;
}

/** Where and how to PUT one file's bytes, as the server signed it. */
export interface SignedTarget {
  /** Absolute, or on this origin. */
  url: string;
  headers: Record<string, string>;
  /** The `url` to keep on the record. */
  keep: string;
  /** The content type it is stored with. */
  type: string;
}

/**
 * The first half of the signed-upload flow of docs/product/api.md §6, shared by every upload: check the file
 * against the rules of its kind (src/shared/uploads.ts) and ask the server to sign it
 * (`sign-s3-pdf?directory=<kind>` or `sign-s3-media`). Failures throw UploadError with the
 * docs/product/messages.md messages; the caller then PUTs the bytes (with fetch, or with progress).
 */
export async function signUpload(kind: UploadKind, file: File, opts: UploadOptions = {}): Promise<SignedTarget> {
  const check = checkUpload(kind, file);
  if (!check.ok) throw new UploadError(check.message, 'check');
  const { token } = opts;
  if (token === null || (token === undefined && !isSignedIn())) throw new UploadError(MSG.notSignedIn, 'sign', 401);
  const origin = opts.origin ?? '';

  const query = new URLSearchParams({ fileName: file.name, fileType: file.type, fileSize: String(file.size) });
  const path = kind === 'media' ? `/media_upload/sign-s3-media?isVideo=false&${query}` : `/doc_upload/sign-s3-pdf?directory=${kind}&${query}`;
  let res: Response;
  try {
    res = await fetch(`${origin}${API_PREFIX}${path}`, {
      headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : csrfHeaders) },
      credentials: 'include',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    network.unreachable();
    throw new UploadError(MSG.signedUrlFailed('the server could not be reached'), 'sign');
  }
  network.reached();
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new UploadError(MSG.signedUrlFailed(reasonOf(res.status, res.statusText, text)), 'sign', res.status);
  let signed: Partial<SignedUploadReply> | null;
  try {
    const body = JSON.parse(text) as unknown;
    // docs/product/entities.md: the signed reply is "the first list item or the body".
    signed = (Array.isArray(body) ? body[0] : body) as Partial<SignedUploadReply> | null;
  } catch {
    signed = null;
  }
  if (!signed?.signedRequest || !signed.url) throw new UploadError(MSG.invalidServerResponse, 'sign', res.status);

  const headers = { ...(signed.headers ?? { 'Content-Type': check.contentType, 'x-amz-acl': 'public-read' }) };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = check.contentType;
  const type = Object.entries(headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1] ?? check.contentType;
  // Stored by this app (the kept url is one of its paths): PUT to the origin this page talks to,
  // which may not be the server's PUBLIC_URL (a proxy, another address of the same server).
  // Another store (S3): the signed URL exactly as given.
  const target = new URL(signed.signedRequest, 'http://this-app.invalid');
  const url = signed.url.startsWith('/') ? `${origin}${target.pathname}${target.search}` : signed.signedRequest;
  return { url, headers, keep: signed.url, type };
}

/**
 * The signed-upload flow of docs/product/api.md §6 for one file: sign it (signUpload), PUT the bytes to the
 * signed URL with the headers the server named, and return the `url` to keep. With fetch, so it
 * also runs in tests on Node; a screen that shows progress uses `uploadWithProgress`
 * (components/upload/signedUpload.ts), which only sends the bytes differently.
 */
export async function uploadFile(kind: UploadKind, file: File, opts: UploadOptions = {}): Promise<UploadedFile> {
  const target = await signUpload(kind, file, opts);
  let putRes: Response;
  try {
    putRes = await fetch(target.url, { method: 'PUT', body: file, headers: target.headers, signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new UploadError(MSG.storageUploadFailed((err as Error).message), 'put');
  }
  if (!putRes.ok) throw new UploadError(MSG.storageUploadFailed(reasonOf(putRes.status, putRes.statusText, await putRes.text().catch(() => ''))), 'put', putRes.status);
  return { url: target.keep, name: file.name, size: file.size, type: target.type };
}
