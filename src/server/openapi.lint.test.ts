import { describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { createTestApp } from './test/harness';

/**
 * The OpenAPI document an integrator reads (docs/product/api.md §1, integrations.md, decision 049):
 * it passes Redocly's `recommended` rules with no error, and says what the server enforces.
 */
const t = await createTestApp({ env: { PUBLIC_URL: 'https://linecrew.test' } });
const res = await t.request({ method: 'GET', url: '/api/docs/json' });
const doc = res.json();
type Op = { operationId?: string; summary?: string; security?: Record<string, string[]>[]; parameters?: { $ref?: string; name?: string; in?: string; required?: boolean }[]; requestBody?: { required?: boolean }; responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, unknown> }> };
const operations: { method: string; path: string; op: Op }[] = Object.entries(doc.paths as Record<string, Record<string, Op>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ method, path, op })),
);
const op = (method: string, path: string) => doc.paths[path][method] as Op;

describe('the OpenAPI document', () => {
  it('passes Redocly recommended with no error', async () => {
    expect(res.statusCode).toBe(200);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: res.body, absoluteRef: 'openapi.json', config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    // Left as warnings: the SPEC's paths that Redocly finds ambiguous (/jobs/{id}/header beside
    // /jobs/tickets/{id}) cannot be renamed, and the document states no licence.
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId);
    expect(new Set(warnings)).toEqual(new Set(['no-ambiguous-paths', 'info-license']));
  });

  it('names this server from PUBLIC_URL and how to sign in', () => {
    expect(doc.servers).toEqual([{ url: 'https://linecrew.test', description: expect.any(String) }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['apiToken', 'cookie', 'csrfHeader', 'session']);
    expect(op('post', '/api/v1/crew/login').security).toEqual([]);
    expect(op('get', '/api/v1/jobs').security).toEqual([{ session: [] }, { apiToken: [] }, { cookie: [] }]);
    expect(op('put', '/api/v1/tickets').security).toEqual([{ session: [] }, { apiToken: [] }, { cookie: [], csrfHeader: [] }]);
    // Never with an API token: one's own account, and the tokens themselves.
    expect(op('post', '/api/v1/api-tokens').security).toEqual([{ session: [] }, { cookie: [], csrfHeader: [] }]);
  });

  it('gives every operation a unique operationId and a summary', () => {
    const ids = operations.map(({ op: o }) => o.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter(({ op: o }) => !o.summary).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    expect(op('patch', '/api/v1/tickets/{id}/tasks/{ticket_task_id}').operationId).toBe('patchTicketsByIdTasksByTicketTaskId');
  });

  it('documents Idempotency-Key and Idempotent-Replayed on every change of the API, and only there', () => {
    // The two replies that hold a secret shown once take no key (docs/product/integrations.md §3).
    const secretReplies = new Set(['post /api/v1/api-tokens', 'post /api/v1/webhooks']);
    for (const { method, path, op: o } of operations) {
      const change =
        path.startsWith('/api/v1/') && (method !== 'get' || path === '/api/v1/jobs/delete/{id}') && o.security?.length !== 0 && !secretReplies.has(`${method} ${path}`);
      const takesKey = (o.parameters ?? []).some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      expect(takesKey, `${method} ${path}`).toBe(change);
      const ok = Object.entries(o.responses).find(([status]) => status.startsWith('2'))?.[1];
      if (change) expect(ok?.headers?.['Idempotent-Replayed'], `${method} ${path}`).toBeDefined();
    }
  });

  it('gives file replies their media types', () => {
    const types = (method: string, path: string) => Object.keys(op(method, path).responses['200'].content ?? {});
    expect(types('get', '/api/v1/invoices/{id}/pdf')).toEqual(['application/pdf']);
    expect(types('get', '/api/v1/invoices/{id}/xlsx')).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(types('get', '/api/v1/jobs/{id}/export.xlsx')).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
    expect(types('get', '/api/v1/jobs/{id}/geojson')).toEqual(['application/geo+json']);
    expect(types('get', '/api/v1/jobs/{id}/kml')).toEqual(['application/vnd.google-earth.kml+xml']);
  });

  it('documents the signed upload: the required query, the PUT to signedRequest and its header', () => {
    const sign = op('get', '/api/v1/doc_upload/sign-s3-pdf').parameters!.filter((p) => p.in === 'query');
    expect(sign.filter((p) => p.required).map((p) => p.name).sort()).toEqual(['directory', 'fileName', 'fileType']);
    const put = op('put', '/files/{key}');
    expect(put.security).toEqual([]);
    expect(put.parameters!.find((p) => p.in === 'header')).toMatchObject({ name: 'Content-Type', required: true });
    expect(put.parameters!.filter((p) => p.in === 'query' && p.required).map((p) => p.name)).toEqual(['ct', 'max', 'exp', 'sig']);
  });

  it('says what the server requires of bodies: the invoice body may be left out, a ticket update needs its version', () => {
    expect(op('post', '/api/v1/jobs/{id}/invoices').requestBody?.required).toBe(false);
    expect(op('put', '/api/v1/tickets').requestBody?.required).toBe(true);
    const ticket = (op('put', '/api/v1/tickets').requestBody as unknown as { content: Record<string, { schema: { properties: { ticket: { anyOf: { required: string[] }[] } } } }> })
      .content['application/json'].schema.properties.ticket;
    expect(ticket.anyOf.map((b) => b.required)).toEqual([['job_id'], ['id', 'version']]);
    const patch = op('patch', '/api/v1/tickets/{id}/tasks/{ticket_task_id}').requestBody as unknown as { content: Record<string, { schema: { required: string[] } }> };
    expect(patch.content['application/json'].schema.required).toEqual(['version']);
  });

  it('documents what a webhook endpoint receives: the callback of POST /webhooks and the WebhookEvent schema, one branch per event type', () => {
    const callback = (op('post', '/api/v1/webhooks') as unknown as { callbacks: Record<string, Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }>> }).callbacks;
    expect(callback.event['{$request.body#/url}'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/WebhookEvent');
    const event = (doc.components as unknown as { schemas: Record<string, { oneOf: { properties: { type: { enum: string[] } }; required: string[] }[] }> }).schemas.WebhookEvent;
    expect(event.oneOf.map((b) => b.properties.type.enum[0])).toEqual(['job.created', 'ticket.completed', 'ticket.reopened', 'invoice.created']);
    expect(event.oneOf.every((b) => ['id', 'type', 'created_at', 'data'].every((k) => b.required.includes(k)))).toBe(true);
  });
});
