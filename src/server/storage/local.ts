import { createHmac, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SignedUpload, Storage } from './storage';

/** URL prefix under which the app itself serves and accepts local files. */
export const LOCAL_FILES_PREFIX = '/files';
const UPLOAD_TTL_SECONDS = 15 * 60;

export interface UploadGrant {
  key: string;
  contentType: string;
  maxBytes: number;
  expires: number;
}

/**
 * Files on local disk under DATA_DIR/files. An upload URL carries an HMAC over the key, content
 * type, size limit and expiry, so the PUT route accepts exactly what the server signed.
 */
export class LocalStorage implements Storage {
  constructor(
    private readonly dir: string,
    private readonly secret: string,
  ) {}

  private pathOf(key: string): string {
    const full = path.resolve(this.dir, key);
    // Keys are made by the server, but a key read back from a URL is checked all the same.
    if (!full.startsWith(path.resolve(this.dir) + path.sep)) throw new Error(`storage key escapes the storage folder: ${key}`);
    return full;
  }

  sign(grant: UploadGrant): string {
    return createHmac('sha256', this.secret)
      .update(`${grant.key}\n${grant.contentType}\n${grant.maxBytes}\n${grant.expires}`)
      .digest('base64url');
  }

  verify(grant: UploadGrant, signature: string): boolean {
    const expected = Buffer.from(this.sign(grant));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given) && grant.expires * 1000 > Date.now();
  }

  async signUpload({ key, contentType, maxBytes }: { key: string; contentType: string; maxBytes: number }): Promise<SignedUpload> {
    const expires = Math.floor(Date.now() / 1000) + UPLOAD_TTL_SECONDS;
    const sig = this.sign({ key, contentType, maxBytes, expires });
    const query = new URLSearchParams({ ct: contentType, max: String(maxBytes), exp: String(expires), sig });
    return { signedRequest: `${LOCAL_FILES_PREFIX}/${key}?${query}`, url: this.urlFor(key) };
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async delete(keys: string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }

  keyFromUrl(url: string): string | null {
    const pathname = url.startsWith('/') ? url.split('?')[0] : safePathname(url);
    if (!pathname?.startsWith(`${LOCAL_FILES_PREFIX}/`)) return null;
    const key = decodeURIComponent(pathname.slice(LOCAL_FILES_PREFIX.length + 1));
    return key.split('/').some((part) => part === '..' || part === '') ? null : key;
  }

  urlFor(key: string): string {
    return `${LOCAL_FILES_PREFIX}/${key}`;
  }
}

function safePathname(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
