import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReplyCache, matchesEtag, preferredEncoding } from './reply-cache';

const body = (n: number) => ({ pad: 'x'.repeat(n) });

describe('ReplyCache', () => {
  it('builds once per fingerprint, also when several ask at the same time', async () => {
    const cache = new ReplyCache(1024 * 1024);
    let builds = 0;
    const build = async () => {
      builds++;
      await new Promise((r) => setTimeout(r, 10));
      return { n: builds };
    };
    const [a, b] = await Promise.all([cache.get('1:5', 'fp1', build), cache.get('1:5', 'fp1', build)]);
    expect(builds).toBe(1);
    expect(a).toBe(b);
    expect(JSON.parse(a.json.toString())).toEqual({ n: 1 });
    expect(await cache.get('1:5', 'fp1', build)).toBe(a);
    expect(builds).toBe(1);

    const c = await cache.get('1:5', 'fp2', build);
    expect(builds).toBe(2);
    expect(c.etag).not.toBe(a.etag);
    expect(JSON.parse(c.json.toString())).toEqual({ n: 2 });
    expect(cache.size).toBe(c.json.length);
  });

  it('keeps at most its byte budget, dropping the least recently used', async () => {
    const one = Buffer.byteLength(JSON.stringify(body(400)));
    const cache = new ReplyCache(one * 2);
    let builds = 0;
    const get = (key: string) =>
      cache.get(key, 'fp', async () => {
        builds++;
        return body(400);
      });
    await get('a');
    await get('b');
    await get('a'); // a is now the most recent
    await get('c'); // evicts b
    expect(builds).toBe(3);
    expect(cache.size).toBe(one * 2);
    await get('a');
    expect(builds).toBe(3);
    await get('b');
    expect(builds).toBe(4);
  });

  it('does not keep a reply bigger than the budget (JOB_CACHE_MB=0 keeps none), but still answers it', async () => {
    const cache = new ReplyCache(0);
    const reply = await cache.get('k', 'fp', async () => body(10));
    expect(JSON.parse(reply.json.toString())).toEqual(body(10));
    expect(cache.size).toBe(0);
  });

  it('a failed build is not kept and the next request tries again', async () => {
    const cache = new ReplyCache(1024);
    await expect(cache.get('k', 'fp', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(JSON.parse((await cache.get('k', 'fp', async () => ({ ok: true }))).json.toString())).toEqual({ ok: true });
  });

  it('getRebuilt hands the builder the kept reply (bytes and state), whatever its fingerprint', async () => {
    const cache = new ReplyCache<{ n: number }>(1024 * 1024);
    const seen: ({ json: string; n: number } | undefined)[] = [];
    const build = (n: number) => async (kept?: { json: Buffer; state: { n: number } }) => {
      seen.push(kept && { json: kept.json.toString(), n: kept.state.n });
      return { json: Buffer.from(`{"n":${n}}`), state: { n } };
    };
    const first = await cache.getRebuilt('k', 'fp1', build(1));
    expect(first.state).toEqual({ n: 1 });
    expect(await cache.getRebuilt('k', 'fp1', build(9))).toBe(first);
    await expect(cache.getRebuilt('k', 'fp2', async () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    const second = await cache.getRebuilt('k', 'fp2', build(2));
    expect(JSON.parse(second.json.toString())).toEqual({ n: 2 });
    // A failed rebuild leaves the kept reply to start from.
    expect(seen).toEqual([undefined, { json: '{"n":1}', n: 1 }]);
    // A reply kept by get has no state: the next rebuild starts from scratch.
    await cache.get('plain', 'fp', async () => ({ x: 1 }));
    await cache.getRebuilt('plain', 'fp2', build(3));
    expect(seen.at(-1)).toBeUndefined();
  });

  it('compresses once per encoding, to the same JSON', async () => {
    const reply = await new ReplyCache(1024 * 1024).get('k', 'fp', async () => body(5000));
    const z = await reply.encoded('gzip');
    expect(await reply.encoded('gzip')).toBe(z);
    expect(z.length).toBeLessThan(reply.json.length / 10);
    expect(gunzipSync(z).equals(reply.json)).toBe(true);
    const br = await reply.encoded('br');
    expect(await reply.encoded('br')).toBe(br);
    expect(brotliDecompressSync(br).equals(reply.json)).toBe(true);
  });
});

describe('request headers', () => {
  it('If-None-Match: weak comparison, lists and *', () => {
    expect(matchesEtag('W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('W/"x", W/"abc"', 'W/"abc"')).toBe(true);
    expect(matchesEtag('*', 'W/"abc"')).toBe(true);
    expect(matchesEtag('W/"abd"', 'W/"abc"')).toBe(false);
    expect(matchesEtag(undefined, 'W/"abc"')).toBe(false);
  });

  it('Accept-Encoding: br, else gzip, unless refused with q=0', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('br;q=0, GZIP;q=0.5')).toBe('gzip');
    expect(preferredEncoding('gzip;q=0')).toBeNull();
    expect(preferredEncoding('deflate')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });
});
