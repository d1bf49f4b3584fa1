import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { link, mkdir, open, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SignedUpload, Storage, StoredObject } from './storage';
import { isValidKey, keyBelow, urlBelow } from './keys';

/** URL prefix under which the app itself serves and accepts local files (files.routes.ts). */
export const LOCAL_FILES_PREFIX = '/files';
export const UPLOAD_TTL_SECONDS = 15 * 60;
/** Folders beside the files; keys never start with '.', so no key can reach them. */
const META_DIR = '.meta';
const TMP_DIR = '.tmp';

export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  expires: number;
}

export type GrantCheck = 'ok' | 'bad-signature' | 'expired';

/** Thrown by `write` when the body is bigger than the grant allows; nothing is left on disk. */
export class TooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`upload larger than ${maxBytes} bytes`);
  }
}

/** Thrown by `write` with `exclusive` when the key already holds a file; that file is left as it was. */
export class AlreadyStoredError extends Error {
  constructor(readonly key: string) {
    super(`a file is already stored under ${key}`);
  }
}

/**
 * The HKDF "info" of the upload-signing key. The app has one secret (JWT_SECRET); sessions and
 * upload URLs must not share a key, so that a signature seen in one place (an upload URL sits
 * in browser history and proxy logs) is no help in forging the other. Bump the version to
 * invalidate every upload URL handed out (they live 15 minutes anyway).
 */
const UPLOAD_KEY_INFO = 'linecrew-upload-v1';

/** link(2) `from` to `to`, which must not exist yet (AlreadyStoredError otherwise). */
async function linkOnce(from: string, to: string, key: string): Promise<void> {
  try {
    await link(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new AlreadyStoredError(key);
    throw err;
  }
}

/**
 * Files on local disk under DATA_DIR/files. An upload URL carries an HMAC over the key, content
 * type, size limit and expiry, so the PUT route accepts exactly what the server signed. The
 * content type is kept in a small sidecar (.meta/<key>.json) so a file is served as what it
 * was signed for, not as what its name suggests.
 */
export class LocalStorage implements Storage {
  private readonly root: string;
  /** HMAC key of upload URLs, derived from the app secret (never the secret itself). */
  private readonly uploadKey: Buffer;

  constructor(dir: string, secret: string) {
    this.root = path.resolve(dir);
    this.uploadKey = Buffer.from(hkdfSync('sha256', secret, '', UPLOAD_KEY_INFO, 32));
  }

  private pathOf(key: string, under = ''): string {
    if (!isValidKey(key)) throw new Error(`not a valid storage key: ${key}`);
    const base = under ? path.join(this.root, under) : this.root;
    const full = path.resolve(base, key);
    // isValidKey already refuses '..' and absolute paths; this is the belt to those braces.
    if (!full.startsWith(base + path.sep)) throw new Error(`storage key escapes the storage folder: ${key}`);
    return full;
  }

  private metaOf(key: string): string {
    return this.pathOf(key, META_DIR) + '.json';
  }

  sign(grant: UploadGrant): string {
    return createHmac('sha256', this.uploadKey)
      .update(`upload\n${grant.key}\n${grant.contentType}\n${grant.maxBytes}\n${grant.expires}`)
      .digest('base64url');
  }

  check(grant: UploadGrant, signature: string, now = Date.now()): GrantCheck {
    const expected = Buffer.from(this.sign(grant));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad-signature';
    return grant.expires * 1000 > now ? 'ok' : 'expired';
  }

  async signUpload({
    key,
    contentType,
    maxBytes,
    exactBytes,
    ttlSeconds = UPLOAD_TTL_SECONDS,
  }: {
    key: string;
    contentType: string;
    maxBytes: number;
    exactBytes?: number;
    ttlSeconds?: number;
  }): Promise<SignedUpload> {
    this.pathOf(key);
    const max = exactBytes !== undefined ? Math.min(exactBytes, maxBytes) : maxBytes;
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    const sig = this.sign({ key, contentType, maxBytes: max, expires });
    const query = new URLSearchParams({ ct: contentType, max: String(max), exp: String(expires), sig });
    return { signedRequest: `${this.urlFor(key)}?${query}`, url: this.urlFor(key), headers: { 'Content-Type': contentType } };
  }

  /**
   * Streams `body` to the file of `key`, refusing it (TooLargeError) as soon as it passes
   * `maxBytes`. Written to a temporary file and then moved into place, so a failed or too large
   * upload leaves nothing behind and a reader never sees half a file.
   *
   * `exclusive` (the signed-URL PUT): the key must not hold a file yet, else AlreadyStoredError
   * and the stored file and its content type stay as they were. That makes an upload URL
   * single-use: it cannot replace a file someone already attached to a record. Moved into place
   * with link(2), which fails when the name exists, so two PUTs racing cannot both win. Without
   * it (the server's own put, e.g. a thumbnail made again) the file is replaced.
   */
  async write(
    key: string,
    body: Readable,
    contentType: string,
    maxBytes = Number.POSITIVE_INFINITY,
    { exclusive = false }: { exclusive?: boolean } = {},
  ): Promise<number> {
    const file = this.pathOf(key);
    const tmpDir = path.join(this.root, TMP_DIR);
    await mkdir(tmpDir, { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    let size = 0;
    const limiter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > maxBytes) done(new TooLargeError(maxBytes));
        else done(null, chunk);
      },
    });
    // body.pipe (not pipeline) so that a refused upload does not destroy the request: the
    // route can still answer 413 while Node discards the rest of the body.
    const onSourceError = (err: Error) => limiter.destroy(err);
    body.once('error', onSourceError);
    body.pipe(limiter);
    const out = createWriteStream(tmp, { flags: 'wx' });
    try {
      await pipeline(limiter, out);
      await mkdir(path.dirname(file), { recursive: true });
      const meta = this.metaOf(key);
      await mkdir(path.dirname(meta), { recursive: true });
      if (exclusive) {
        // The sidecar claims the key, then the file follows; a reader in between sees no file
        // yet (head: null), never a file with another upload's type.
        const metaTmp = `${tmp}.json`;
        await writeFile(metaTmp, JSON.stringify({ contentType, size }), { flag: 'wx' });
        try {
          await linkOnce(metaTmp, meta, key);
          try {
            await linkOnce(tmp, file, key);
          } catch (err) {
            await rm(meta, { force: true }); // ours: a file put there by hand, without a sidecar
            throw err;
          }
        } finally {
          await rm(metaTmp, { force: true });
        }
        await rm(tmp, { force: true });
      } else {
        await writeFile(meta, JSON.stringify({ contentType, size }));
        await rename(tmp, file);
      }
      return size;
    } catch (err) {
      body.unpipe(limiter);
      // A stream refused early may still be opening its file: wait until it is closed, or the
      // file would appear after the rm below and stay behind.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
      await rm(tmp, { force: true });
      throw err;
    } finally {
      body.off('error', onSourceError);
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.write(key, Readable.from([body]), contentType);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async readStart(key: string, bytes: number): Promise<Buffer> {
    const file = await open(this.pathOf(key), 'r');
    try {
      const buf = Buffer.alloc(bytes);
      const { bytesRead } = await file.read(buf, 0, bytes, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async head(key: string): Promise<StoredObject | null> {
    let size: number;
    try {
      const s = await stat(this.pathOf(key));
      if (!s.isFile()) return null;
      size = s.size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    let contentType = 'application/octet-stream';
    try {
      const meta = JSON.parse(await readFile(this.metaOf(key), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string') contentType = meta.contentType;
    } catch {
      // No sidecar (a file put there by hand): serve it as bytes.
    }
    return { size, contentType };
  }

  /** For the GET route: a stream of the file plus what to send as headers, or null. */
  async open(key: string): Promise<(StoredObject & { stream: ReadStream }) | null> {
    const info = await this.head(key);
    if (!info) return null;
    return { ...info, stream: createReadStream(this.pathOf(key)) };
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map(async (key) => {
        const file = this.pathOf(key);
        await rm(file, { force: true });
        await rm(this.metaOf(key), { force: true });
        // The random-id folder held only this file (and maybe its thumbnail): tidy it if empty.
        await rmdir(path.dirname(file)).catch(() => undefined);
      }),
    );
  }

  keyFromUrl(url: string): string | null {
    // Only the relative urls urlFor hands out: an absolute url could point anywhere.
    return keyBelow(LOCAL_FILES_PREFIX, url);
  }

  urlFor(key: string): string {
    return urlBelow(LOCAL_FILES_PREFIX, key);
  }
}
