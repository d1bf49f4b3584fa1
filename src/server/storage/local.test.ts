import path from 'node:path';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { createTestApp } from '../test/harness';
import { makeStorageKey } from './keys';
import { AlreadyStoredError, LocalStorage, TooLargeError } from './local';
import { describeStorage } from './storage.contract';

describeStorage('local disk', async () => {
  const t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { storage: t.ctx.storage, absolute: (url) => new URL(url, address).toString(), close: async () => {} };
});

describe('LocalStorage on disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'linecrew-local-'));
  const storage = new LocalStorage(dir, 'a-secret-that-is-long-enough-for-this-test');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a stream larger than the limit is refused and leaves no file, not even a temporary one', async () => {
    const key = makeStorageKey(1, 'media', 'big.png');
    const chunks = Array.from({ length: 10 }, () => Buffer.alloc(1000, 7));
    await expect(storage.write(key, Readable.from(chunks), 'image/png', 5000)).rejects.toBeInstanceOf(TooLargeError);
    expect(await storage.head(key)).toBeNull();
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });

  it('a stream refused at its first chunk, before its temporary file is open, leaves nothing either', async () => {
    for (let i = 0; i < 30; i++) {
      const key = makeStorageKey(1, 'media', `early-${i}.png`);
      await expect(storage.write(key, Readable.from([Buffer.alloc(1000, 7)]), 'image/png', 10)).rejects.toBeInstanceOf(TooLargeError);
    }
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
  });

  it('keeps the content type it was given, not what the name suggests', async () => {
    const key = makeStorageKey(1, 'work_packet', 'scan.pdf');
    await storage.put(key, Buffer.from('png bytes'), 'image/png');
    expect(await storage.head(key)).toEqual({ size: 9, contentType: 'image/png' });
  });

  it('stores files under DATA_DIR/files/<company>/<kind>/<id>/<name>, and tidies the folder on delete', async () => {
    const key = makeStorageKey(3, 'permit', '../../Permit #4.pdf');
    await storage.put(key, Buffer.from('x'), 'application/pdf');
    const [, , id, name] = key.split('/');
    expect(name).toBe('Permit_4.pdf');
    expect(readdirSync(path.join(dir, '3', 'permit', id))).toEqual(['Permit_4.pdf']);
    await storage.delete([key]);
    expect(readdirSync(path.join(dir, '3', 'permit'))).toEqual([]);
  });

  it('signatures: a changed limit, type or expiry no longer verifies', async () => {
    const key = makeStorageKey(1, 'media', 'a.png');
    const grant = { key, contentType: 'image/png', maxBytes: 100, expires: Math.floor(Date.now() / 1000) + 60 };
    const sig = storage.sign(grant);
    expect(storage.check(grant, sig)).toBe('ok');
    expect(storage.check({ ...grant, maxBytes: 101 }, sig)).toBe('bad-signature');
    expect(storage.check({ ...grant, contentType: 'text/html' }, sig)).toBe('bad-signature');
    expect(storage.check({ ...grant, expires: grant.expires + 1 }, sig)).toBe('bad-signature');
    expect(storage.check(grant, sig, (grant.expires + 1) * 1000)).toBe('expired');
    const otherSecret = new LocalStorage(dir, 'another-secret-that-is-long-enough-too');
    expect(otherSecret.check(grant, sig)).toBe('bad-signature');
  });

  it('upload URLs are signed with a key derived for them, never with the session secret itself', () => {
    const secret = 'a-secret-that-is-long-enough-for-this-test';
    const key = makeStorageKey(1, 'media', 'a.png');
    const grant = { key, contentType: 'image/png', maxBytes: 100, expires: Math.floor(Date.now() / 1000) + 60 };
    const sig = storage.sign(grant);
    // What an HMAC with the raw secret over the same text gives: not accepted, not equal.
    const withRawSecret = createHmac('sha256', secret)
      .update(`upload\n${grant.key}\n${grant.contentType}\n${grant.maxBytes}\n${grant.expires}`)
      .digest('base64url');
    expect(sig).not.toBe(withRawSecret);
    expect(storage.check(grant, withRawSecret)).toBe('bad-signature');
    expect(new LocalStorage(dir, secret).check(grant, sig)).toBe('ok');
  });

  it('write with exclusive refuses a key that already holds a file and keeps its bytes and type', async () => {
    const key = makeStorageKey(1, 'media', 'first.png');
    await storage.write(key, Readable.from([Buffer.from('first')]), 'image/png', 100, { exclusive: true });
    await expect(storage.write(key, Readable.from([Buffer.from('second!')]), 'text/html', 100, { exclusive: true })).rejects.toBeInstanceOf(
      AlreadyStoredError,
    );
    expect((await storage.get(key)).toString()).toBe('first');
    expect(await storage.head(key)).toEqual({ size: 5, contentType: 'image/png' });
    expect(readdirSync(path.join(dir, '.tmp'))).toEqual([]);
    // The server's own put (a thumbnail made again) may still replace.
    await storage.put(key, Buffer.from('third'), 'image/png');
    expect((await storage.get(key)).toString()).toBe('third');
  });
});
