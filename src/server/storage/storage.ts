/**
 * Where uploaded files live (docs/product/platform.md §2 Files). Two implementations pass the same tests
 * (storage.contract.ts): local disk (HMAC-signed upload URLs served by this app, see
 * files.routes.ts) and S3-compatible buckets (s3.ts).
 * Keys are always made by the server (keys.ts: company/kind/random/sanitized-name).
 */
export interface SignedUpload {
  /** Where the browser PUTs the bytes, with `headers`. */
  signedRequest: string;
  /** Where the file can be read afterwards; stored on the record. */
  url: string;
  /** Headers the PUT must carry: Content-Type always, x-amz-acl for S3. */
  headers: Record<string, string>;
}

export interface StoredObject {
  size: number;
  contentType: string;
}

export interface Storage {
  /**
   * A URL that accepts one PUT of `key` with exactly `contentType`, for a limited time.
   * `maxBytes` is enforced by the local store while streaming; S3 presigned PUTs cannot limit
   * the size, so `exactBytes` (when the client told us the size) is signed as Content-Length.
   * `ttlSeconds` defaults to 15 minutes.
   */
  signUpload(opts: { key: string; contentType: string; maxBytes: number; exactBytes?: number; ttlSeconds?: number }): Promise<SignedUpload>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  /** Up to the first `bytes` bytes of an object (fewer when it is shorter): to tell its kind. */
  readStart(key: string, bytes: number): Promise<Buffer>;
  /** Size and content type of a stored object, or null when there is none. */
  head(key: string): Promise<StoredObject | null>;
  /** Removes the objects; keys that do not exist are ignored. */
  delete(keys: string[]): Promise<void>;
  /** The key behind a url this storage handed out, or null for a url that is not ours. */
  keyFromUrl(url: string): string | null;
  urlFor(key: string): string;
}
