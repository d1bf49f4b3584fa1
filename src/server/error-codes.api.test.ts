import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SESSION_COOKIE } from '../shared/constants';
import { ERROR_CODE } from '../shared/error-codes';
import type { JobListItem } from '../shared/jobs.schemas';
import { MSG } from '../shared/messages';
import { users } from './db/schema/index';
import { createTestApp } from './test/harness';

const API = '/api/v1';
const t = await createTestApp();

/**
 * The refusals a client tells apart carry a stable `code` beside the message (the web app
 * branches on it, never on the text), and the route's reply schema lets it through.
 */
describe('error replies carry a stable code', () => {
  const login = (email: string, password: string) => t.request({ method: 'POST', url: `${API}/crew/login`, body: { email, password } });

  it('login: wrong password, and not yet verified', async () => {
    let res = await login('office@example.com', 'wrong-password');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: MSG.loginWrong, status: MSG.loginWrong, code: ERROR_CODE.loginWrong });

    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.email, 'luis@example.com'));
    res = await login('luis@example.com', 'anything');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MSG.loginUnverified, code: ERROR_CODE.loginUnverified });
  });

  it('a cookie-signed change without the CSRF header', async () => {
    const token = await t.login('admin@example.com');
    const res = await t.request({ method: 'DELETE', url: `${API}/jobs/999999`, cookies: { [SESSION_COOKIE]: token } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: MSG.csrfMissing, code: ERROR_CODE.csrfMissing });
  });

  it('a job: a number another job has, and a stale version', async () => {
    const token = await t.login('office@example.com');
    const list = (await t.request({ method: 'GET', url: `${API}/jobs`, token })).json() as JobListItem[];
    const [first, listed] = list;
    // A list row as the edit form sends it back: empty fields left out.
    const [office] = await t.ctx.db.select().from(users).where(eq(users.email, 'office@example.com'));
    const packet = await t.storeFile(office.companyId, 'work_packet', 'packet.pdf');
    const second = {
      ...(Object.fromEntries(Object.entries(listed).filter(([, v]) => v !== null)) as JobListItem),
      work_packet_url: packet.url,
      work_packet_name: 'packet.pdf',
    };
    const put = (job: unknown) => t.request({ method: 'PUT', url: `${API}/jobs/`, token, body: { job } });

    let res = await put({ ...second, job_number: first.job_number, tickets: [] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.jobNumberExists, code: ERROR_CODE.jobNumberTaken });

    res = await put({ ...second, version: second.version + 1, tickets: [] });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: MSG.staleVersion, code: ERROR_CODE.staleVersion });
  });

  it('an error with no code sends none', async () => {
    const token = await t.login('office@example.com');
    const res = await t.request({ method: 'GET', url: `${API}/jobs/999999`, token });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBeUndefined();
  });
});
