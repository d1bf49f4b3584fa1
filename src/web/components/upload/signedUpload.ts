import { MSG } from '../../../shared/messages';
import type { UploadKind } from '../../../shared/uploads';
import { reasonOf, signUpload, UploadError, type UploadedFile } from '../../api/upload';

export { UploadError, type UploadedFile };

export interface ProgressUploadOptions {
  signal?: AbortSignal;
  /** 0..1 as the bytes leave the browser (XMLHttpRequest upload progress). */
  onProgress?: (fraction: number) => void;
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
 * The signed-upload flow of docs/product/api.md §6 for one file, in the browser, with progress: the same signing
 * as `uploadFile` (src/web/api/upload.ts, signUpload), then the bytes sent with XMLHttpRequest,
 * which reports upload progress (fetch cannot). A cancelled upload throws an AbortError.
 */
export async function uploadWithProgress(kind: UploadKind, file: File, opts: ProgressUploadOptions = {}): Promise<UploadedFile> {
  const target = await signUpload(kind, file, { signal: opts.signal });
  opts.onProgress?.(0);
  await putWithProgress(target.url, file, target.headers, opts);
  return { url: target.keep, name: file.name, size: file.size, type: target.type };
}
