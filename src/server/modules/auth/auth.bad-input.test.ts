import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness';

const t = await createTestApp();
const MB = 'x'.repeat(1024 * 1024);
const SQLISH = "' OR 1=1; DROP TABLE users; --";

/** Bad input to every sign-in and account route: a 4xx with a message, never a 500, server stays up. */
describe('bad input to the account routes', () => {
  const routes: { method: 'POST' | 'PUT'; url: string; good: Record<string, unknown>; auth?: boolean }[] = [
    { method: 'POST', url: '/api/v1/crew/login', good: { email: 'admin@example.com', password: 'linecrew' } },
    { method: 'POST', url: '/api/v1/crew/sign-up', good: { name: 'New Person', email: 'new@example.org', password: 'secret' } },
    { method: 'POST', url: '/api/v1/crew/forgot-password', good: { email: 'admin@example.com' } },
    { method: 'POST', url: '/api/v1/crew/reset-password', good: { resetToken: 'a'.repeat(40), userId: 1, password: 'secret' } },
    { method: 'PUT', url: '/api/v1/crew/myProfileData', good: { user: { first_name: 'Avery', last_name: 'Admin', email: 'admin@example.com' } }, auth: true },
  ];

  for (const route of routes) {
    describe(`${route.method} ${route.url}`, () => {
      const send = async (body: unknown, raw = false) => {
        const token = route.auth ? await t.login('admin@example.com') : undefined;
        return t.request({
          method: route.method,
          url: route.url,
          token,
          ...(raw ? { payload: body as string, headers: { 'content-type': 'application/json' } } : { body }),
        });
      };

      it('answers 400 with a message for a missing body field', async () => {
        const res = await send({});
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual(expect.any(String));
      });

      it('answers 400 for wrong types', async () => {
        const body = Object.fromEntries(Object.entries(route.good).map(([k]) => [k, { nested: [1, 2] }]));
        const res = await send(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.length).toBeGreaterThan(0);
      });

      it('answers 413 or 400 for a 1 MB string, with a message', async () => {
        const key = Object.keys(route.good)[0];
        const res = await send({ ...route.good, [key]: MB });
        expect([400, 413]).toContain(res.statusCode);
        expect(res.json().error).toEqual(expect.any(String));
      });

      it('answers 400 for malformed JSON', async () => {
        const res = await send('{"email": ', true);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe('The request body is not valid JSON.');
      });

      it('treats SQL-looking text as plain data', async () => {
        const body = JSON.parse(JSON.stringify(route.good).replace(/"(admin@example\.com|Avery|secret|linecrew)"/g, JSON.stringify(SQLISH)));
        const res = await send(body);
        expect(res.statusCode).toBeLessThan(500);
      });
    });
  }

  it('is still up and the users table intact after all of it', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/health' })).json()).toEqual({ ok: true });
    const token = await t.login('admin@example.com');
    const me = await t.request({ method: 'GET', url: '/api/v1/crew/myData', token });
    expect(me.statusCode).toBe(200);
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toContain('Could not find that URL on this server');
  });
});
