import multipart from '@fastify/multipart';
import { UPLOAD_RULES } from '../../shared/uploads';
import type { App } from '../context';

/**
 * Multipart bodies in `scope` only (the image-complete form, the spreadsheet upload): fields
 * attached to the body as values, one file at most, no bigger than a workbook may be.
 */
export async function registerMultipart(scope: App): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: UPLOAD_RULES.excel.maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 21 },
  });
}
