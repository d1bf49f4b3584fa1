/**
 * Where uploaded files live (DESIGN §2 Files). Two implementations pass the same tests:
 * local disk (HMAC-signed upload URLs served by this app) and S3-compatible buckets.
 * Keys are always made by the server (company/kind/random/sanitized-name).
 */
export interface SignedUpload {
  /** Where the browser PUTs the bytes, with the same Content-Type. */
  signedRequest: string;
  /** Where the file can be read afterwards; stored on the record. */
  url: string;
}

export interface Storage {
  signUpload(opts: { key: string; contentType: string; maxBytes: number }): Promise<SignedUpload>;
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  delete(keys: string[]): Promise<void>;
  /** The key behind a url this storage handed out, or null for a url that is not ours. */
  keyFromUrl(url: string): string | null;
  urlFor(key: string): string;
}
