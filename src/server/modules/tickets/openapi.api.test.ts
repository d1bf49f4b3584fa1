import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';

describe('OpenAPI document', () => {
  it('describes the tickets, poles and reference routes', async () => {
    const t = await createTestApp();
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/v1/tickets/{id}',
      '/api/v1/tickets/{id}/tasks/{ticket_task_id}',
      '/api/v1/tickets',
      '/api/v1/tickets/merge/{id}',
      '/api/v1/tickets/needsMerge/{jobId}',
      '/api/v1/tickets/images/{id}',
      '/api/v1/tickets/xls-upload',
      '/api/v1/media_upload/s3-upload-complete',
      '/api/v1/poles',
      '/api/v1/poles/byUtility',
      '/api/v1/poles/polesByPoleOrLine',
      '/api/v1/poles/specificPole',
      '/api/v1/poles/accessTypes',
      '/api/v1/specs/partial',
      '/api/v1/permits/types',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
