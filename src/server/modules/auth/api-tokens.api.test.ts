import { afterAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { API_TOKEN_PATTERN } from '../../../shared/api-tokens.schemas';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import { ROLE, SESSION_COOKIE } from '../../../shared/constants';
import { buildApp } from '../../app';
import { rowsOf } from '../../db/client';
import { apiTokens, users } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * API tokens (docs/product/integrations.md §3, decision 049): Admins
 * make them; a token is refused at once when revoked or expired, never exceeds its creator's
 * role, sees only its company, and is never accepted from a cookie.
 */
const t = await createTestApp();
const API = '/api/v1';
const [admin, office, lineman, other] = await t.loginAs('admin', 'office', 'lineman', 'other');
const demo = await t.demo();
const job = demo.job['J-1001'];

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, body?: unknown, headers?: Record<string, string>) =>
  t.request({ method, url: `${API}${url}`, token, body, headers });

async function create(by: string, body: Record<string, unknown>): Promise<{ id: number; secret: string }> {
  const res = await call('POST', '/api-tokens', by, body);
  expect(res.statusCode, res.body).toBe(200);
  return { id: res.json().token.id, secret: res.json().secret };
}

describe('POST /api-tokens', () => {
  it('shows the secret once, stores only its hash, and the token reads as its role', async () => {
    const res = await call('POST', '/api-tokens', admin, { name: 'ERP sync', role_id: ROLE.OFFICE_MANAGER });
    expect(res.statusCode).toBe(200);
    const { token, secret } = res.json();
    expect(secret).toMatch(API_TOKEN_PATTERN);
    expect(Buffer.from(secret.slice(3), 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(token).toMatchObject({ name: 'ERP sync', role_id: 2, hint: secret.slice(-4), expires_at: null, last_used_at: null, created_by_name: expect.any(String) });
    const [row] = await t.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, token.id));
    expect(row.tokenHash).not.toContain(secret.slice(3));
    expect(JSON.stringify(row)).not.toContain(secret.slice(3));

    const read = await call('GET', `/jobs/${job}`, secret);
    expect(read.statusCode).toBe(200);
    const listed = await call('GET', '/api-tokens', admin);
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(secret.slice(3));
    expect(listed.json().tokens.find((x: { id: number }) => x.id === token.id).last_used_at).toEqual(expect.any(String));
  });

  it('never keeps the secret in the idempotency table: the route takes no Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'token-once-1' };
    const a = await call('POST', '/api-tokens', admin, { name: 'Twice', role_id: ROLE.LINEMAN }, headers);
    const b = await call('POST', '/api-tokens', admin, { name: 'Twice', role_id: ROLE.LINEMAN }, headers);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().secret).not.toBe(a.json().secret);
    const kept = await t.ctx.db.execute(sql`select count(*)::int as n from idempotency_keys where key = 'token-once-1'`);
    expect(rowsOf<{ n: number }>(kept)[0].n).toBe(0);
  });

  it('is for Admins only: Office Manager and Lineman 403', async () => {
    expect((await call('POST', '/api-tokens', lineman, { name: 'x', role_id: ROLE.LINEMAN })).statusCode).toBe(403);
    expect((await call('POST', '/api-tokens', office, { name: 'x', role_id: ROLE.LINEMAN })).statusCode).toBe(403);
    expect((await call('GET', '/api-tokens', lineman)).statusCode).toBe(403);
  });

  it('refuses a role that is not one, a blank name and an expiry in the past (400)', async () => {
    expect((await call('POST', '/api-tokens', admin, { name: 'x', role_id: 0 })).statusCode).toBe(400);
    expect((await call('POST', '/api-tokens', admin, { name: 'x', role_id: 7 })).statusCode).toBe(400);
    const blank = await call('POST', '/api-tokens', admin, { name: '  ', role_id: 3 });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toContain(MSG.apiTokenNameRequired);
    const past = await call('POST', '/api-tokens', admin, { name: 'x', role_id: 3, expires_at: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().error).toBe(MSG.apiTokenExpiryPast);
  });

  it('cannot mint tokens, nor act on a person’s account, with a token (403)', async () => {
    const { secret } = await create(admin, { name: 'admin token', role_id: ROLE.ADMIN });
    const again = await call('POST', '/api-tokens', secret, { name: 'more', role_id: ROLE.ADMIN });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ error: MSG.apiTokenNotForThis, code: ERROR_CODE.apiTokenNotForThis });
    expect((await call('GET', '/crew/myData', secret)).statusCode).toBe(403);
    expect((await call('POST', '/crew/logout-all', secret)).statusCode).toBe(403);
  });
});

describe('a token never exceeds its creator’s role', () => {
  it('is refused above the creator’s role (400), and follows the creator down when their role is lowered', async () => {
    // A second Admin, so the seeded one stays as the other tests expect.
    const [me] = await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    const [second] = await t.ctx.db
      .insert(users)
      .values({ companyId: me.companyId, roleId: ROLE.ADMIN, firstName: 'Second', lastName: 'Admin', email: 'admin2@example.com', passwordHash: me.passwordHash })
      .returning();
    const session = await t.login('admin2@example.com');
    const { secret } = await create(session, { name: 'crew sync', role_id: ROLE.ADMIN });
    // An Admin token may write the crew: the body is checked, so an empty one is 400, not 403.
    expect((await call('POST', '/crew', secret, {})).statusCode).toBe(400);

    await t.ctx.db.update(users).set({ roleId: ROLE.FOREMAN }).where(eq(users.id, second.id));
    const foremanSession = await t.login('admin2@example.com');
    expect((await call('POST', '/crew', secret, {})).statusCode).toBe(403);
    // A Foreman may not make tokens at all; were they an Admin, above their role would be 400.
    expect((await call('POST', '/api-tokens', foremanSession, { name: 'x', role_id: ROLE.ADMIN })).statusCode).toBe(403);
  });

  it('answers 400 naming role_id when the role is above the creator’s', async () => {
    // Only Admins make tokens today, so the check is met by making one as a lowered Admin's session:
    // the role is read per request, and the rule is the service's.
    const [me] = await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    const { createToken } = await import('./api-tokens.service');
    await expect(createToken(t.ctx, { ...me, roleId: ROLE.OFFICE_MANAGER }, { name: 'x', role_id: ROLE.ADMIN })).rejects.toMatchObject({
      statusCode: 400,
      message: MSG.apiTokenRoleTooHigh,
    });
  });
});

describe('revoked, expired, in a cookie, another company', () => {
  it('is refused at once after DELETE, also by another app process on the same database', async () => {
    const second = await buildApp({ ...t.ctx });
    await second.ready();
    afterAll(() => second.close());
    const { id, secret } = await create(admin, { name: 'revoke me', role_id: ROLE.FOREMAN });
    const onSecond = () => second.inject({ method: 'GET', url: `${API}/jobs/${job}`, headers: { authorization: `Bearer ${secret}` } });
    expect((await onSecond()).statusCode).toBe(200);
    expect((await call('GET', `/jobs/${job}`, secret)).statusCode).toBe(200);

    expect((await call('DELETE', `/api-tokens/${id}`, admin)).statusCode).toBe(200);
    const refused = await call('GET', `/jobs/${job}`, secret);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(MSG.apiTokenInvalid);
    expect((await onSecond()).statusCode).toBe(401);
    expect((await call('DELETE', `/api-tokens/${id}`, admin)).statusCode).toBe(404);
  });

  it('honours its expiry', async () => {
    const { id, secret } = await create(admin, { name: 'expires', role_id: ROLE.FOREMAN, expires_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect((await call('GET', `/jobs/${job}`, secret)).statusCode).toBe(200);
    await t.ctx.db.update(apiTokens).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(apiTokens.id, id));
    const res = await call('GET', `/jobs/${job}`, secret);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.apiTokenInvalid);
  });

  it('is refused in the session cookie (401), and needs no CSRF header as a bearer token', async () => {
    const { secret } = await create(admin, { name: 'cookie', role_id: ROLE.ADMIN });
    const inCookie = await t.request({ method: 'GET', url: `${API}/jobs/${job}`, headers: { cookie: `${SESSION_COOKIE}=${secret}` } });
    expect(inCookie.statusCode).toBe(401);
    expect(inCookie.json().error).toBe(MSG.apiTokenInCookie);
    // A change with the bearer token and no CSRF header is applied.
    const res = await call('PUT', '/jobs/', secret, { job: { id: job, version: 0 } });
    expect(res.statusCode).not.toBe(403);
    expect(res.statusCode).not.toBe(401);
  });

  it('another company’s token sees nothing of ours, and cannot list or revoke our tokens', async () => {
    const mine = await create(admin, { name: 'ours', role_id: ROLE.ADMIN });
    const theirs = await create(other, { name: 'theirs', role_id: ROLE.ADMIN });
    expect((await call('GET', `/jobs/${job}`, theirs.secret)).statusCode).toBe(404);
    const [ticket] = (await call('GET', `/jobs/${job}`, admin)).json().tickets;
    expect((await call('GET', `/tickets/${ticket.id}`, theirs.secret)).statusCode).toBe(404);
    const listed = (await call('GET', '/api-tokens', other)).json().tokens.map((x: { name: string }) => x.name);
    expect(listed).toEqual(['theirs']);
    expect((await call('DELETE', `/api-tokens/${mine.id}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/jobs/${job}`, mine.secret)).statusCode).toBe(200);
  });

  it('an unknown token of the right shape is 401', async () => {
    const res = await call('GET', `/jobs/${job}`, `lc_${'A'.repeat(43)}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.apiTokenInvalid);
  });
});
