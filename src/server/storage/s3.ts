import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type ObjectCannedACL,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { isValidKey, keyBelow, urlBelow } from './keys';
import { UPLOAD_TTL_SECONDS } from './local';
import type { SignedUpload, Storage, StoredObject } from './storage';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** An S3-compatible server (MinIO, R2, s3rver…); path-style addressing is used then. */
  endpoint?: string;
  /** Left out: the AWS SDK's usual chain (AWS_ACCESS_KEY_ID…, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /**
   * docs/product/api.md: the browser PUTs with `x-amz-acl: public-read` and shows images straight from the
   * bucket. null for buckets with ACLs disabled (then serve the bucket through a CDN/policy).
   */
  acl?: ObjectCannedACL | null;
}

/**
 * An S3 bucket. Upload URLs are SigV4 presigned PUTs bound to the key and Content-Type (and
 * to the exact Content-Length when the client told us the size, since a presigned PUT cannot
 * carry a maximum). Reads go straight to the bucket: `url` is the object's public address.
 */
export class S3Storage implements Storage {
  readonly client: S3Client;
  private readonly bucket: string;
  private readonly base: string;
  private readonly acl: ObjectCannedACL | null;

  constructor(opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    this.acl = opts.acl === undefined ? 'public-read' : opts.acl;
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: Boolean(opts.endpoint),
      credentials: opts.credentials,
      // Otherwise the SDK signs a CRC32 of the *empty* body into presigned PUT URLs, and S3
      // refuses every real upload to them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.base = opts.endpoint
      ? `${opts.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(opts.bucket)}`
      : `https://${opts.bucket}.s3.${opts.region}.amazonaws.com`;
  }

  private checkKey(key: string): string {
    if (!isValidKey(key)) throw new Error(`not a valid storage key: ${key}`);
    return key;
  }

  async signUpload({
    key,
    contentType,
    exactBytes,
    ttlSeconds = UPLOAD_TTL_SECONDS,
  }: {
    key: string;
    contentType: string;
    maxBytes: number;
    exactBytes?: number;
    ttlSeconds?: number;
  }): Promise<SignedUpload> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: this.checkKey(key),
      ContentType: contentType,
      ContentLength: exactBytes,
      // Single-use, like the local store: a conditional write. S3 (since August 2024) answers
      // 412 PreconditionFailed to a PUT with If-None-Match: * when the key already holds an
      // object, and 409 ConditionalRequestConflict when two such PUTs race; so a signed URL
      // cannot replace the file it stored. Signed as a header, so the browser must send it
      // (the sign reply lists it in `headers`) and cannot leave it out. A bucket's CORS rule
      // must allow the If-None-Match header (docs/deploy.md). MinIO and R2 honour it too;
      // s3rver ignores it, so the tests' SigV4 proxy (s3.verifier.ts) does what S3 does.
      IfNoneMatch: '*',
      ...(this.acl ? { ACL: this.acl } : {}),
    });
    const signableHeaders = new Set(['content-type', 'if-none-match']);
    if (exactBytes !== undefined) signableHeaders.add('content-length');
    const signedRequest = await getSignedUrl(this.client, command, {
      expiresIn: ttlSeconds,
      signableHeaders,
      // Signed as a header (not hoisted into the query) so the browser sends it as docs/product/api.md says.
      unhoistableHeaders: new Set(this.acl ? ['x-amz-acl'] : []),
    });
    const headers: Record<string, string> = { 'Content-Type': contentType, 'If-None-Match': '*' };
    if (this.acl) headers['x-amz-acl'] = this.acl;
    return { signedRequest, url: this.urlFor(key), headers };
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.checkKey(key),
        Body: body,
        ContentType: contentType,
        ...(this.acl ? { ACL: this.acl } : {}),
      }),
    );
  }

  async get(key: string): Promise<Buffer> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.checkKey(key) }));
    if (!res.Body) throw new Error(`empty body for ${key}`);
    return Buffer.from(await res.Body.transformToByteArray());
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.checkKey(key), Range: `bytes=0-${bytes - 1}` }));
    if (!res.Body) return Buffer.alloc(0);
    // A store that ignores Range sends the whole object: only the start is wanted.
    return Buffer.from(await res.Body.transformToByteArray()).subarray(0, bytes);
  }

  async head(key: string): Promise<StoredObject | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.checkKey(key) }));
      return { size: res.ContentLength ?? 0, contentType: res.ContentType ?? 'application/octet-stream' };
    } catch (err) {
      if (err instanceof S3ServiceException && (err.$metadata.httpStatusCode === 404 || err.name === 'NotFound')) return null;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000).map((k) => ({ Key: this.checkKey(k) }));
      const res = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch, Quiet: true } }));
      const failed = (res.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length) throw new Error(`could not delete ${failed.length} object(s): ${failed[0].Key} ${failed[0].Code}`);
    }
  }

  keyFromUrl(url: string): string | null {
    return keyBelow(this.base, url);
  }

  urlFor(key: string): string {
    return urlBelow(this.base, key);
  }
}
