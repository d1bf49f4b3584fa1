import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStorageKey } from './keys';
import type { Storage } from './storage';

export interface StorageUnderTest {
  storage: Storage;
  /** Turns a signedRequest into an absolute URL (local ones are relative to the app). */
  absolute(url: string): string;
  close(): Promise<void>;
}

const pdf = Buffer.from('%PDF-1.4\n% a tiny test document\n%%EOF\n');

async function httpPut(url: string, body: Buffer, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
  return { status: res.status, text: await res.text() };
}

/**
 * The behaviour every Storage must have (docs/product/platform.md §2 Files): the same cases run against local
 * disk (local.test.ts) and an S3-compatible server (s3.test.ts).
 */
export function describeStorage(name: string, make: () => Promise<StorageUnderTest>) {
  describe(`Storage contract: ${name}`, () => {
    let s: StorageUnderTest;
    beforeAll(async () => {
      s = await make();
    });
    afterAll(async () => {
      await s?.close();
    });

    it('put, head, get and delete one object', async () => {
      const key = makeStorageKey(1, 'work_packet', 'Packet 1.pdf');
      expect(await s.storage.head(key)).toBeNull();
      await s.storage.put(key, pdf, 'application/pdf');
      expect(await s.storage.head(key)).toEqual({ size: pdf.length, contentType: 'application/pdf' });
      expect(Buffer.compare(await s.storage.get(key), pdf)).toBe(0);
      await s.storage.delete([key]);
      expect(await s.storage.head(key)).toBeNull();
      await expect(s.storage.get(key)).rejects.toThrow();
    });

    it('readStart gives the first bytes only, or the whole of a shorter object (file kinds, docs/product/sessions-and-safety.md §10)', async () => {
      const key = makeStorageKey(1, 'work_packet', 'start.pdf');
      await s.storage.put(key, pdf, 'application/pdf');
      expect((await s.storage.readStart(key, 5)).toString()).toBe('%PDF-');
      expect(Buffer.compare(await s.storage.readStart(key, 4096), pdf)).toBe(0);
      await s.storage.delete([key]);
    });

    it('deleting keys that do not exist is not an error', async () => {
      await expect(s.storage.delete([makeStorageKey(1, 'media', 'gone.jpg')])).resolves.toBeUndefined();
      await expect(s.storage.delete([])).resolves.toBeUndefined();
    });

    it('deletes many objects at once and leaves the others', async () => {
      const keys = [0, 1, 2].map((i) => makeStorageKey(1, 'media', `p${i}.png`));
      for (const k of keys) await s.storage.put(k, Buffer.from([i(k)]), 'image/png');
      await s.storage.delete(keys.slice(0, 2));
      expect(await s.storage.head(keys[0])).toBeNull();
      expect(await s.storage.head(keys[1])).toBeNull();
      expect(await s.storage.head(keys[2])).not.toBeNull();
      function i(k: string) {
        return keys.indexOf(k);
      }
    });

    it('keyFromUrl reverses urlFor, and refuses foreign urls and traversal', () => {
      const key = makeStorageKey(7, 'permit', 'permit.pdf');
      const url = s.storage.urlFor(key);
      expect(s.storage.keyFromUrl(url)).toBe(key);
      expect(s.storage.keyFromUrl(`${url}?x=1`)).toBe(key);
      expect(s.storage.keyFromUrl('https://example.com/files/7/permit/abc/permit.pdf')).toBeNull();
      expect(s.storage.keyFromUrl('')).toBeNull();
      expect(s.storage.keyFromUrl(url.replace(/[^/]+\/permit\.pdf$/, '../../../etc/passwd'))).toBeNull();
      expect(s.storage.keyFromUrl(url.replace(/[^/]+\/permit\.pdf$/, '%2e%2e/%2e%2e/etc/passwd'))).toBeNull();
    });

    it('refuses keys that are not of the shape the server makes', async () => {
      for (const bad of ['../escape.txt', '/etc/passwd', '1/media/../../x', '1/media/.hidden/x', '']) {
        await expect(s.storage.put(bad, pdf, 'application/pdf')).rejects.toThrow();
      }
    });

    it('a signed URL takes one HTTP PUT of the signed key and content type', async () => {
      const key = makeStorageKey(1, 'work_packet', 'signed.pdf');
      const signed = await s.storage.signUpload({ key, contentType: 'application/pdf', maxBytes: 1024 * 1024 });
      expect(signed.url).toBe(s.storage.urlFor(key));
      expect(signed.headers['Content-Type']).toBe('application/pdf');
      const res = await httpPut(s.absolute(signed.signedRequest), pdf, signed.headers);
      expect(res.status, res.text).toBe(200);
      expect(await s.storage.head(key)).toEqual({ size: pdf.length, contentType: 'application/pdf' });
      expect(Buffer.compare(await s.storage.get(key), pdf)).toBe(0);
    });

    it('a signed URL is single-use: a second PUT is refused and the first bytes stay', async () => {
      const key = makeStorageKey(1, 'work_packet', 'once.pdf');
      const signed = await s.storage.signUpload({ key, contentType: 'application/pdf', maxBytes: 1024 * 1024 });
      const first = await httpPut(s.absolute(signed.signedRequest), pdf, signed.headers);
      expect(first.status, first.text).toBe(200);
      const again = await httpPut(s.absolute(signed.signedRequest), Buffer.from('%PDF-1.4 replaced'), signed.headers);
      // Local disk answers 409, S3 412 Precondition Failed: a refusal, never a replaced file.
      expect([409, 412], again.text).toContain(again.status);
      expect(Buffer.compare(await s.storage.get(key), pdf)).toBe(0);
      expect(await s.storage.head(key)).toEqual({ size: pdf.length, contentType: 'application/pdf' });
      // Leaving out a header the sign reply named (e.g. S3's If-None-Match) does not get round it.
      const bare = await httpPut(s.absolute(signed.signedRequest), Buffer.from('%PDF-1.4 bare'), { 'Content-Type': 'application/pdf' });
      expect(bare.status).toBeGreaterThanOrEqual(400);
      expect(bare.status).toBeLessThan(500);
      expect(Buffer.compare(await s.storage.get(key), pdf)).toBe(0);
    });

    it('the browser may also send x-amz-acl: public-read', async () => {
      const key = makeStorageKey(1, 'media', 'photo.png');
      const signed = await s.storage.signUpload({ key, contentType: 'image/png', maxBytes: 1024 });
      const res = await httpPut(s.absolute(signed.signedRequest), Buffer.from('png'), { ...signed.headers, 'x-amz-acl': 'public-read' });
      expect(res.status, res.text).toBe(200);
    });

    it('a PUT with another content type is refused and stores nothing', async () => {
      const key = makeStorageKey(1, 'media', 'photo.png');
      const signed = await s.storage.signUpload({ key, contentType: 'image/png', maxBytes: 1024 });
      const res = await httpPut(s.absolute(signed.signedRequest), Buffer.from('<script>'), { ...signed.headers, 'Content-Type': 'text/html' });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await s.storage.head(key)).toBeNull();
    });

    it('a signature is bound to its key', async () => {
      const key = makeStorageKey(1, 'media', 'a.png');
      const other = makeStorageKey(1, 'media', 'b.png');
      const signed = await s.storage.signUpload({ key, contentType: 'image/png', maxBytes: 1024 });
      const forged = s.absolute(signed.signedRequest).replace(encodedTail(s.storage.urlFor(key)), encodedTail(s.storage.urlFor(other)));
      expect(forged).not.toBe(s.absolute(signed.signedRequest));
      const res = await httpPut(forged, Buffer.from('png'), signed.headers);
      expect(res.status).toBe(403);
      expect(await s.storage.head(other)).toBeNull();
    });

    it('with the size known, a PUT of another size is refused', async () => {
      const key = makeStorageKey(1, 'work_packet', 'exact.pdf');
      const signed = await s.storage.signUpload({ key, contentType: 'application/pdf', maxBytes: 1024 * 1024, exactBytes: 10 });
      const res = await httpPut(s.absolute(signed.signedRequest), Buffer.alloc(11, 1), signed.headers);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await s.storage.head(key)).toBeNull();
      const ok = await httpPut(s.absolute(signed.signedRequest), Buffer.alloc(10, 1), signed.headers);
      expect(ok.status, ok.text).toBe(200);
    });

    it('an expired signed URL is refused', async () => {
      const key = makeStorageKey(1, 'media', 'late.png');
      const signed = await s.storage.signUpload({ key, contentType: 'image/png', maxBytes: 1024, ttlSeconds: 1 });
      await new Promise((r) => setTimeout(r, 2100));
      const res = await httpPut(s.absolute(signed.signedRequest), Buffer.from('png'), signed.headers);
      expect(res.status).toBe(403);
      expect(await s.storage.head(key)).toBeNull();
    });
  });
}

/** The company/kind/id/name tail of a url, as it appears in the signed URL. */
function encodedTail(url: string): string {
  return url.split('/').slice(-4).join('/');
}
