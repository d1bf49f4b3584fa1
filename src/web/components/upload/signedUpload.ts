import { API_PREFIX } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { checkUpload, type SignedUploadReply, type UploadKind } from '../../../shared/uploads';
import { UploadError, type UploadedFile } from '../../api/upload';
import { csrfHeaders, isSignedIn } from '../../api/session';

export { UploadError, type UploadedFile };

export interface ProgressUploadOptions {
  signal?: AbortSignal;
  /** 0..1 as the bytes leave the browser (XMLHttpRequest upload progress). */
  onProgress?: (fraction: number) => void;
}

/** The most useful text of a failed answer: our `{error}`, S3's XML <Message>, else the status text. */
function reasonOf(status: number, statusText: string, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === 'string' && body.error) return body.error;
  } catch {
    const m = /<Message>([^<]*)<\/Message>/.exec(text);
    if (m) return m[1];
  }
  return statusText || `HTTP ${status}`;
}

// Headers a page may not set itself (the browser computes them); a signed reply may name them.
const FORBIDDEN_HEADERS = new Set(['content-length', 'host', 'connection']);

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

/** PUT the bytes to the signed URL with progress; fetch() cannot report upload progress. */
function putWithProgress(url: string, file: File, headers: Record<string, string>, opts: ProgressUploadOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        opts.onProgress?.(1);
        resolve();
      } else {
        reject(new UploadError(MSG.storageUploadFailed(reasonOf(xhr.status, xhr.statusText, xhr.responseText)), 'put', xhr.status));
      }
    };
    xhr.onerror = () => reject(new UploadError(MSG.storageUploadFailed('the connection was lost'), 'put'));
    xhr.ontimeout = () => reject(new UploadError(MSG.storageUploadFailed('the upload timed out'), 'put'));
    xhr.onabort = () => reject(abortError());
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/**
 * The signed-upload flow of SPEC §7 for one file, in the browser, with progress: check the file
 * against the rules of its kind (src/shared/uploads.ts), ask the server to sign
 * (`/doc_upload/sign-s3-pdf?directory=<kind>` or `/media_upload/sign-s3-media`), PUT the bytes to
 * `signedRequest` with the headers the server named (Content-Type, x-amz-acl: public-read), and
 * return what the record keeps. Failures throw UploadError carrying the SPEC §8 message; a
 * cancelled upload throws an AbortError.
 *
 * Same contract as `uploadFile` of src/web/api/upload.ts (which uses fetch and so has no progress).
 */
export async function uploadWithProgress(kind: UploadKind, file: File, opts: ProgressUploadOptions = {}): Promise<UploadedFile> {
  const check = checkUpload(kind, file);
  if (!check.ok) throw new UploadError(check.message, 'check');
  if (!isSignedIn()) throw new UploadError(MSG.notSignedIn, 'sign', 401);

  const query = new URLSearchParams({ fileName: file.name, fileType: file.type, fileSize: String(file.size) });
  const path = kind === 'media' ? `/media_upload/sign-s3-media?isVideo=false&${query}` : `/doc_upload/sign-s3-pdf?directory=${kind}&${query}`;
  let res: Response;
  try {
    res = await fetch(`${API_PREFIX}${path}`, {
      headers: { Accept: 'application/json', ...csrfHeaders },
      credentials: 'include',
      signal: opts.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new UploadError(MSG.signedUrlFailed('the server could not be reached'), 'sign');
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) throw new UploadError(MSG.signedUrlFailed(reasonOf(res.status, res.statusText, text)), 'sign', res.status);
  let signed: Partial<SignedUploadReply> | null = null;
  try {
    const body = JSON.parse(text) as unknown;
    // SPEC §3: the signed reply is "the first list item or the body".
    signed = (Array.isArray(body) ? body[0] : body) as Partial<SignedUploadReply> | null;
  } catch {
    signed = null;
  }
  if (!signed?.signedRequest || !signed.url) throw new UploadError(MSG.invalidServerResponse, 'sign', res.status);

  const headers = signed.headers ?? { 'Content-Type': check.contentType, 'x-amz-acl': 'public-read' };
  if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = check.contentType;
  opts.onProgress?.(0);
  await putWithProgress(signed.signedRequest, file, headers, opts);
  const type = Object.entries(headers).find(([h]) => h.toLowerCase() === 'content-type')?.[1] ?? check.contentType;
  return { url: signed.url, name: file.name, size: file.size, type };
}
