import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createStorage } from './create';
import { S3Storage } from './s3';
import { startSigV4Verifier } from './s3.verifier';
import { describeStorage } from './storage.contract';

const BUCKET = 'linecrew-test';

describeStorage('S3 (s3rver on loopback)', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'linecrew-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  // s3rver does not check SigV4 signatures: a proxy in front of it does, as S3 would.
  const verifier = await startSigV4Verifier({ host: '127.0.0.1', port }, () => storage.client);
  const storage: S3Storage = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: verifier.url,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  return {
    storage,
    absolute: (url) => url,
    close: async () => {
      storage.client.destroy();
      await verifier.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('S3 configuration', () => {
  it('createStorage picks S3 when S3_BUCKET is set, with path-style urls on a custom endpoint', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-cfg-'));
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, S3_BUCKET: 'b1', S3_ENDPOINT: 'http://minio:9000/', S3_REGION: 'eu-west-1' });
    const storage = await createStorage(config);
    expect(storage).toBeInstanceOf(S3Storage);
    expect(storage.urlFor('1/media/abc/p.png')).toBe('http://minio:9000/b1/1/media/abc/p.png');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('signs If-None-Match: * into upload URLs, so the browser cannot leave the single-use condition out', async () => {
    const storage = new S3Storage({ bucket: 'crew-files', region: 'us-east-2', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } });
    const signed = await storage.signUpload({ key: '1/media/abc/p.png', contentType: 'image/png', maxBytes: 1024 });
    expect(signed.headers['If-None-Match']).toBe('*');
    const signedHeaders = new URL(signed.signedRequest).searchParams.get('X-Amz-SignedHeaders')!.split(';');
    expect(signedHeaders).toEqual(expect.arrayContaining(['content-type', 'if-none-match']));
    storage.client.destroy();
  });

  it('uses the virtual-host AWS url without an endpoint', () => {
    const storage = new S3Storage({ bucket: 'crew-files', region: 'us-east-2' });
    const url = storage.urlFor('1/media/abc/p.png');
    expect(url).toBe('https://crew-files.s3.us-east-2.amazonaws.com/1/media/abc/p.png');
    expect(storage.keyFromUrl(url)).toBe('1/media/abc/p.png');
    expect(storage.keyFromUrl('https://other.s3.us-east-2.amazonaws.com/1/media/abc/p.png')).toBeNull();
  });
});
