import { describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { and, eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { CSRF_HEADER, SESSION_COOKIE } from '../../../shared/constants';
import { createTestApp, resetLinkFrom, type TestApp } from '../../test/harness';
import { companies, jobs, users, utilities } from '../../db/schema/index';
import { loadConfig, ConfigError } from '../../config';
import { passwordStats } from './passwords';

const t = await createTestApp();
const API = '/api/v1';

/** Every test speaks from its own client address, so throttles of one test never touch another. */
let lastAddress = 0;
const newAddress = () => `198.51.100.${++lastAddress}`;

const login = (app: TestApp, email: string, password: string, extra: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  app.request({ method: 'POST', url: `${API}/crew/login`, body: { email, password }, ...extra });

const myData = (token: string) => t.request({ method: 'GET', url: `${API}/crew/myData`, token });

/** Mail goes out after the reply: wait for the outbox to hold `count` more messages. */
async function nextMails(app: TestApp, before: number, count = 1): Promise<string[]> {
  return vi.waitFor(() => {
    const mails = app.outbox();
    expect(mails.length).toBe(before + count);
    return mails.slice(before);
  });
}

async function resetPasswordOf(email: string, password: string) {
  const before = t.outbox().length;
  await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email }, remoteAddress: newAddress() });
  const { resetToken, userId } = resetLinkFrom((await nextMails(t, before))[0]);
  return t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password } });
}

function cookieOf(res: { cookies: { name: string; value: string; domain?: string; maxAge?: number }[] }) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE && !c.domain);
}

describe('sessions end when they should (decision 015)', () => {
  it('a password reset ends every earlier session, even one the server has verified before', async () => {
    const old = (await login(t, 'wforeman@example.com', 'linecrew')).json().token as string;
    expect((await myData(old)).statusCode).toBe(200); // verified once, so the token is cached

    const reset = await resetPasswordOf('wforeman@example.com', 'after-reset');
    expect(reset.statusCode).toBe(200);

    const refused = await myData(old);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(MSG.sessionExpired);
    expect((await myData(reset.json().token)).statusCode).toBe(200);
  });

  it('POST /crew/logout ends this session only and clears the cookie; the same user elsewhere and other users stay signed in', async () => {
    const a = await t.login('foreman@example.com');
    const b = await t.login('foreman@example.com');
    const other = await t.login('office@example.com');
    expect((await t.request({ method: 'POST', url: `${API}/crew/logout` })).statusCode).toBe(401);

    const out = await t.request({ method: 'POST', url: `${API}/crew/logout`, token: a });
    expect(out.statusCode).toBe(200);
    const cleared = cookieOf(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.maxAge).toBe(0);

    expect((await myData(a)).statusCode).toBe(401);
    expect((await myData(a)).json().error).toBe(MSG.sessionExpired);
    expect((await myData(b)).statusCode).toBe(200);
    expect((await myData(other)).statusCode).toBe(200);
    expect((await myData(await t.login('foreman@example.com'))).statusCode).toBe(200);
  });

  it('sign-in sets the cookie HttpOnly, SameSite=Strict, for this host only, and not Secure over plain HTTP', async () => {
    const res = await login(t, 'lineman@example.com', 'linecrew', { headers: { host: 'app.linecrew.example' } });
    expect(res.statusCode).toBe(200);
    const cookie = cookieOf(res)!;
    expect(cookie).toMatchObject({ value: res.json().token, path: '/', httpOnly: true, sameSite: 'Strict' });
    expect(cookie.domain).toBeUndefined();
    expect((cookie as { secure?: boolean }).secure).toBeFalsy();
    expect(cookie.maxAge).toBeGreaterThan(6 * 24 * 3600);
    // A cookie an earlier version wrote for the parent domain is expired.
    expect(res.cookies.find((c) => c.name === SESSION_COOKIE && c.domain === '.linecrew.example')).toMatchObject({ value: '', maxAge: 0 });
  });

  it('refuses a token signed without an expiry', async () => {
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    // A live session's id: only the missing expiry is wrong with this token.
    const { sid } = JSON.parse(Buffer.from((await t.login('admin@example.com')).split('.')[1], 'base64url').toString()) as { sid: string };
    const forever = await new SignJWT({ userId: admin.id, companyId: admin.companyId, roleId: 1, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect((await myData(forever)).statusCode).toBe(401);
  });
});

describe('sign-in throttling (docs/product/sessions-and-safety.md §3)', () => {
  it('twenty guesses at once: at most 10 are checked (403), the rest answer 429', async () => {
    const ip = newAddress();
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => login(t, 'admin@example.com', `wrong-${i}`, { remoteAddress: ip })));
    const codes = replies.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 403).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(10);
    expect(codes.every((c) => c === 403 || c === 429)).toBe(true);
    expect(replies.find((r) => r.statusCode === 429)!.json().error).toBe(MSG.loginTooMany);
  });

  it('ten wrong passwords from one address do not lock the owner out from another', async () => {
    const attacker = newAddress();
    for (let i = 0; i < 10; i++) expect((await login(t, 'office@example.com', `guess-${i}`, { remoteAddress: attacker })).statusCode).toBe(403);
    expect((await login(t, 'office@example.com', 'linecrew', { remoteAddress: attacker })).statusCode).toBe(429);
    expect((await login(t, 'office@example.com', 'linecrew', { remoteAddress: newAddress() })).statusCode).toBe(200);
  });

  it('behind one trusted proxy (TRUST_PROXY=1), a made-up X-Forwarded-For does not buy a fresh budget', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '1' } });
    const client = '203.0.113.7'; // what the proxy saw, appended by it as the last entry
    const spoofed = (i: number) => ({ headers: { 'x-forwarded-for': `10.9.${i}.1, ${client}` }, remoteAddress: '127.0.0.1' });
    for (let i = 0; i < 10; i++) expect((await login(proxied, 'admin@example.com', `guess-${i}`, spoofed(i))).statusCode).toBe(403);
    expect((await login(proxied, 'admin@example.com', 'linecrew', spoofed(99))).statusCode).toBe(429);
    // Another real client behind the same proxy is not affected.
    const other = { headers: { 'x-forwarded-for': '203.0.113.8' }, remoteAddress: '127.0.0.1' };
    expect((await login(proxied, 'admin@example.com', 'linecrew', other)).statusCode).toBe(200);
    // And the proxy's word on HTTPS makes the cookie Secure.
    const https = await login(proxied, 'lineman@example.com', 'linecrew', { headers: { 'x-forwarded-proto': 'https' }, remoteAddress: '127.0.0.1' });
    expect((cookieOf(https) as { secure?: boolean }).secure).toBe(true);
  });

  it('TRUST_PROXY takes a hop count or proxy addresses, never "trust every header"', () => {
    const env = { DATA_DIR: t.dataDir, JWT_SECRET: t.config.jwtSecret };
    expect(loadConfig({ ...env }).trustProxy).toBe(false);
    expect(loadConfig({ ...env, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...env, TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ ...env, TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ ...env, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ ...env, TRUST_PROXY: 'the proxy' })).toThrow(ConfigError);
  });

  it('sign-up, forgot-password and crew invitation mail are throttled the same way', async () => {
    const ip = newAddress();
    for (let i = 0; i < 5; i++) {
      const res = await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'nobody@example.com' }, remoteAddress: ip });
      expect(res.statusCode).toBe(200);
    }
    const sixth = await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'nobody@example.com' }, remoteAddress: ip });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe(MSG.tooManyRequests);

    const signUpIp = newAddress();
    const signUp = (i: number) =>
      t.request({ method: 'POST', url: `${API}/crew/sign-up`, body: { name: 'Sam Spam', email: `spam${i}@example.org`, password: 'secret' }, remoteAddress: signUpIp });
    for (let i = 0; i < 10; i++) expect((await signUp(i)).statusCode).toBe(200);
    expect((await signUp(10)).statusCode).toBe(429);

    const office = await t.login('office@example.com');
    const [wendy] = await t.ctx.db.select().from(users).where(eq(users.email, 'wendy@example.com'));
    const resend = () => t.request({ method: 'POST', url: `${API}/crew/${wendy.id}/reset-password`, token: office });
    for (let i = 0; i < 5; i++) expect((await resend()).statusCode).toBe(200);
    const blocked = await resend();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(MSG.tooManyMails);
  });
});

describe('no account discovery (docs/product/sessions-and-safety.md §7)', () => {
  it('an unknown e-mail costs the same password check as a known one and gets the same answer', async () => {
    const ip = newAddress();
    const before = passwordStats.verifications;
    const known = await login(t, 'apprentice@example.com', 'not-it', { remoteAddress: ip });
    const afterKnown = passwordStats.verifications;
    const unknown = await login(t, 'ghost@example.com', 'not-it', { remoteAddress: ip });
    expect(afterKnown - before).toBe(1);
    expect(passwordStats.verifications - afterKnown).toBe(1);
    expect([known.statusCode, known.json()]).toEqual([unknown.statusCode, unknown.json()]);
  });

  it('forgot-password answers identically for known and unknown addresses, and mails only after the reply', async () => {
    const mailer = t.ctx.mail;
    const send = mailer.send.bind(mailer);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    mailer.send = async (m) => {
      asked.push(m.to);
      await gate;
      return send(m);
    };
    try {
      const before = t.outbox().length;
      const known = await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'lineman@example.com' }, remoteAddress: newAddress() });
      const unknown = await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'ghost@example.com' }, remoteAddress: newAddress() });
      // Both replies came while the mail was still held back.
      expect(t.outbox().length).toBe(before);
      expect([known.statusCode, known.body]).toEqual([unknown.statusCode, unknown.body]);
      expect(known.json()).toEqual({ success: true, message: MSG.forgotSent });
      release();
      const [mail] = await nextMails(t, before);
      expect(mail).toContain('To: lineman@example.com');
      expect(asked).toEqual(['lineman@example.com']);
    } finally {
      mailer.send = send;
      release();
    }
  });

  it('sign-up answers the same for a taken e-mail: the owner is told, and no second account is made', async () => {
    const before = t.outbox().length;
    const body = (email: string) => ({ name: 'Nora New', email, password: 'her-pass', companyName: 'Nora Line Co' });
    const fresh = await t.request({ method: 'POST', url: `${API}/crew/sign-up`, body: body('nora@new.example'), remoteAddress: newAddress() });
    const taken = await t.request({ method: 'POST', url: `${API}/crew/sign-up`, body: body('Admin@Other.example.com'), remoteAddress: newAddress() });
    expect([fresh.statusCode, fresh.body]).toEqual([taken.statusCode, taken.body]);
    expect(fresh.json()).toEqual({ success: true, message: MSG.signUpSent });

    const mails = await nextMails(t, before, 2);
    const owner = mails.find((m) => m.includes('To: admin@other.example.com'))!;
    expect(owner).toContain('Someone tried to sign up');
    expect(await t.ctx.db.select().from(users).where(sql`lower(${users.email}) = 'admin@other.example.com'`)).toHaveLength(1);
    expect(await t.ctx.db.select().from(companies).where(eq(companies.name, 'Nora Line Co'))).toHaveLength(1);

    // The new account is not verified until its owner sets the password through the mailed link.
    expect((await login(t, 'nora@new.example', 'her-pass', { remoteAddress: newAddress() })).json().error).toBe(MSG.loginUnverified);
    const { resetToken, userId } = resetLinkFrom(mails.find((m) => m.includes('To: nora@new.example'))!);
    const set = await t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password: 'her-pass' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().user).toMatchObject({ email: 'nora@new.example', role_id: 1 });
  });
});

describe('cross-site requests cannot change data with the cookie alone (docs/product/sessions-and-safety.md §2)', () => {
  async function newJob(): Promise<number> {
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com'));
    const [utility] = await t.ctx.db.select().from(utilities).where(eq(utilities.companyId, admin.companyId)).limit(1);
    const [job] = await t.ctx.db
      .insert(jobs)
      .values({ companyId: admin.companyId, jobNumber: `CSRF-${Math.random().toString(36).slice(2, 8)}`, dueDate: '2030-01-01', utilityId: utility.id })
      .returning();
    return job.id;
  }
  const exists = async (id: number) => (await t.ctx.db.select().from(jobs).where(and(eq(jobs.id, id)))).length === 1;

  it('GET /jobs/delete/{id} with the cookie alone is 403 and keeps the job; with our header or a Bearer token it deletes', async () => {
    const token = await t.login('admin@example.com');
    const cookies = { [SESSION_COOKIE]: token };

    const a = await newJob();
    const refused = await t.request({ method: 'GET', url: `${API}/jobs/delete/${a}`, cookies });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(MSG.csrfMissing);
    expect(await exists(a)).toBe(true);

    const withHeader = await t.request({ method: 'GET', url: `${API}/jobs/delete/${a}`, cookies, headers: { [CSRF_HEADER]: '1' } });
    expect(withHeader.statusCode).toBe(200);
    expect(await exists(a)).toBe(false);

    const b = await newJob();
    expect((await t.request({ method: 'GET', url: `${API}/jobs/delete/${b}`, token })).statusCode).toBe(200);
    expect(await exists(b)).toBe(false);
  });

  it('a form POST carrying only the cookie is 403; reading with the cookie alone still works', async () => {
    const token = await t.login('admin@example.com');
    const cookies = { [SESSION_COOKIE]: token };
    const form = await t.request({
      method: 'POST',
      url: `${API}/crew/logout`,
      cookies,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'x=1',
    });
    expect(form.statusCode).toBe(403);
    expect((await myData(token)).statusCode).toBe(200); // the logout did not happen
    expect((await t.request({ method: 'GET', url: `${API}/crew/myData`, cookies })).statusCode).toBe(200);
  });
});
