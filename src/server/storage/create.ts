import path from 'node:path';
import type { Config } from '../config';
import type { Storage } from './storage';
import { LocalStorage } from './local';

/**
 * Local disk by default; an S3-compatible bucket when S3_BUCKET is set (docs/product/platform.md §1).
 * S3 credentials come from the AWS SDK's usual chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY,
 * profiles, instance roles), so they never pass through our config.
 */
export async function createStorage(config: Config): Promise<Storage> {
  if (config.s3) {
    // Loaded only when used: the AWS SDK is large and most installs keep files on disk.
    const { S3Storage } = await import('./s3');
    return new S3Storage({ bucket: config.s3.bucket, region: config.s3.region, endpoint: config.s3.endpoint });
  }
  return new LocalStorage(path.join(config.dataDir, 'files'), config.jwtSecret);
}
