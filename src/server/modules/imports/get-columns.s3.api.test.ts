import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { S3Storage } from '../../storage/s3';
import { fixture } from '../../test/files';
import { createTestApp, type TestApp } from '../../test/harness';

/** getColumns reads through the Storage interface only: the same answers from an S3 bucket. */
const BUCKET = 'linecrew-excel-test';
let t: TestApp;
let token: string;
let storage: S3Storage;
let server: S3rver;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'linecrew-excel-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  storage = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${port}`,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  t = await createTestApp({ storage });
  token = await t.login('admin@example.com');
});

afterAll(async () => {
  storage.client.destroy();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const getCols = (url: string) => t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(url)}`, token });

describe('GET /jobs/excel/getColumns on S3 storage', () => {
  it('reads the workbook from the bucket, and answers 404 for a key that is not there', async () => {
    const key = '1/excel/s3good/good.xlsx';
    await storage.put(key, fixture('good.xlsx'), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const res = await getCols(storage.urlFor(key));
    expect(res.statusCode).toBe(200);
    expect(res.json().jobColumns).toHaveLength(15);
    expect(res.json().libraryColumns).toHaveLength(7);

    expect((await getCols(storage.urlFor('1/excel/missing/none.xlsx'))).statusCode).toBe(404);
    expect((await getCols(storage.urlFor('2/excel/s3good/good.xlsx'))).statusCode).toBe(404);
  });

  it('answers the legacy .xls message from S3 too', async () => {
    const key = '1/excel/s3legacy/legacy.xls';
    await storage.put(key, fixture('legacy.xls'), 'application/vnd.ms-excel');
    const res = await getCols(storage.urlFor(key));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe(MSG.excelLegacyXls);
  });
});
