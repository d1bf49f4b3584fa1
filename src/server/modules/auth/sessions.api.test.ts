import { describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { SESSION_COOKIE } from '../../../shared/constants';
import { createTestApp, resetLinkFrom } from '../../test/harness';
import { sessions } from '../../db/schema/index';

/**
 * Sessions per device (docs/product/sessions-and-safety.md §4, decision 036): each sign-in is a row; Logout ends this
 * device only; "everywhere" ends all of mine; one session can be ended from another device; a
 * password reset ends all. An ended session is refused on its next request.
 */
const t = await createTestApp();
const API = '/api/v1';

const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';
const OFFICE_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87';

let lastAddress = 0;
const newAddress = () => `198.51.100.${++lastAddress}`;

/** Signs in from a device (user agent) and an address; the token. */
async function signIn(email: string, device = OFFICE_UA, address = newAddress()): Promise<string> {
  const res = await t.request({ method: 'POST', url: `${API}/crew/login`, body: { email, password: 'linecrew' }, headers: { 'user-agent': device }, remoteAddress: address });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

const myData = (token: string) => t.request({ method: 'GET', url: `${API}/crew/myData`, token });
const list = (token: string) => t.request({ method: 'GET', url: `${API}/crew/sessions`, token });
const sessionIdOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid as string;

async function expectEnded(token: string) {
  const res = await myData(token);
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toBe(MSG.sessionExpired);
}

describe('POST /crew/logout', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'POST', url: `${API}/crew/logout` })).statusCode).toBe(401);
  });

  it('ends this device only: the same user on another device stays signed in', async () => {
    const office = await signIn('foreman@example.com', OFFICE_UA);
    const phone = await signIn('foreman@example.com', PHONE_UA);
    const out = await t.request({ method: 'POST', url: `${API}/crew/logout`, token: office });
    expect(out.statusCode).toBe(200);
    expect(out.cookies.find((c) => c.name === SESSION_COOKIE && !c.domain)).toMatchObject({ value: '', maxAge: 0 });
    await expectEnded(office);
    expect((await myData(phone)).statusCode).toBe(200);
  });
});

describe('POST /crew/logout-all', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'POST', url: `${API}/crew/logout-all` })).statusCode).toBe(401);
  });

  it('ends every session of mine, this one too; other users stay signed in', async () => {
    const a = await signIn('wforeman@example.com');
    const b = await signIn('wforeman@example.com', PHONE_UA);
    const other = await signIn('office@example.com');
    const res = await t.request({ method: 'POST', url: `${API}/crew/logout-all`, token: a });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, ended: 2 });
    await expectEnded(a);
    await expectEnded(b);
    expect((await myData(other)).statusCode).toBe(200);
  });

});

describe('POST /crew/logout-others', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'POST', url: `${API}/crew/logout-others` })).statusCode).toBe(401);
  });

  it('ends every other session of mine and keeps this one ("Sign out everywhere else")', async () => {
    const a = await signIn('lineman@example.com');
    const b = await signIn('lineman@example.com', PHONE_UA);
    const c = await signIn('lineman@example.com', PHONE_UA);
    const res = await t.request({ method: 'POST', url: `${API}/crew/logout-others`, token: a });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, ended: 2 });
    expect((await myData(a)).statusCode).toBe(200);
    await expectEnded(b);
    await expectEnded(c);
  });
});

describe('GET /crew/sessions', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'GET', url: `${API}/crew/sessions` })).statusCode).toBe(401);
  });

  it('lists my sessions with browser, system, address and times, marks this device, and shows nobody else\'s', async () => {
    const office = await signIn('apprentice@example.com', OFFICE_UA, '203.0.113.10');
    const phone = await signIn('apprentice@example.com', PHONE_UA, '203.0.113.20');
    await signIn('admin@example.com');
    const res = await list(phone);
    expect(res.statusCode).toBe(200);
    const mine = res.json().sessions as Record<string, unknown>[];
    expect(mine).toHaveLength(2);
    const byId = Object.fromEntries(mine.map((s) => [s.id, s]));
    expect(byId[sessionIdOf(phone)]).toMatchObject({ current: true, browser: 'Chrome 126', system: 'Android 14', address: '203.0.113.20' });
    expect(byId[sessionIdOf(office)]).toMatchObject({ current: false, browser: 'Edge 126', system: 'Windows', address: '203.0.113.10' });
    for (const s of mine) {
      expect(Date.parse(s.created_at as string)).not.toBeNaN();
      expect(Date.parse(s.last_seen_at as string)).not.toBeNaN();
    }
    // This device first, then the most recently seen.
    expect(mine[0].current).toBe(true);
  });

  it('moves last seen forward at most once a minute, not on every request', async () => {
    const token = await signIn('office@example.com');
    const id = sessionIdOf(token);
    const seen = async () => (await t.ctx.db.select({ at: sessions.lastSeenAt }).from(sessions).where(eq(sessions.id, id)))[0].at.getTime();
    await t.ctx.db.update(sessions).set({ lastSeenAt: sql`now() - interval '30 seconds'` }).where(eq(sessions.id, id));
    const recent = await seen();
    await myData(token);
    expect(await seen()).toBe(recent);
    await t.ctx.db.update(sessions).set({ lastSeenAt: sql`now() - interval '2 minutes'` }).where(eq(sessions.id, id));
    const old = await seen();
    await myData(token);
    expect(await seen()).toBeGreaterThan(old + 60_000);
  });
});

describe('DELETE /crew/sessions/{id}', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'DELETE', url: `${API}/crew/sessions/00000000-0000-4000-8000-000000000000` })).statusCode).toBe(401);
  });

  it('ends one of my sessions from another device; it is gone from the list', async () => {
    const office = await signIn('foreman@example.com', OFFICE_UA);
    const phone = await signIn('foreman@example.com', PHONE_UA);
    const res = await t.request({ method: 'DELETE', url: `${API}/crew/sessions/${sessionIdOf(phone)}`, token: office });
    expect(res.statusCode).toBe(200);
    await expectEnded(phone);
    expect((await myData(office)).statusCode).toBe(200);
    expect(((await list(office)).json().sessions as { id: string }[]).map((s) => s.id)).not.toContain(sessionIdOf(phone));
    // Ended already: nothing to end.
    expect((await t.request({ method: 'DELETE', url: `${API}/crew/sessions/${sessionIdOf(phone)}`, token: office })).statusCode).toBe(404);
  });

  it("answers 404 for another user's session (in my company or another) and leaves it alone", async () => {
    const mine = await signIn('office@example.com');
    const colleague = await signIn('foreman@example.com');
    const stranger = await signIn('admin@other.example.com');
    for (const victim of [colleague, stranger]) {
      const res = await t.request({ method: 'DELETE', url: `${API}/crew/sessions/${sessionIdOf(victim)}`, token: mine });
      expect(res.statusCode).toBe(404);
      expect((await myData(victim)).statusCode).toBe(200);
    }
  });

  it('answers 400 with a message for an id that is not a session id', async () => {
    const token = await signIn('office@example.com');
    const res = await t.request({ method: 'DELETE', url: `${API}/crew/sessions/1;drop`, token });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBeTruthy();
  });
});

describe('ended sessions', () => {
  it('a token whose session row was ended is refused with the session-expired message, even after it was verified once', async () => {
    const token = await signIn('lineman@example.com');
    expect((await myData(token)).statusCode).toBe(200);
    await t.ctx.db.delete(sessions).where(eq(sessions.id, sessionIdOf(token)));
    await expectEnded(token);
  });

  it('a password reset ends every session of the user and starts one new one', async () => {
    const office = await signIn('wforeman@example.com');
    const phone = await signIn('wforeman@example.com', PHONE_UA);
    const before = t.outbox().length;
    await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'wforeman@example.com' }, remoteAddress: newAddress() });
    const mail = await vi.waitFor(() => {
      expect(t.outbox().length).toBe(before + 1);
      return t.outbox().at(-1)!;
    });
    const { resetToken, userId } = resetLinkFrom(mail);
    const reset = await t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password: 'fresh-pass' }, headers: { 'user-agent': PHONE_UA } });
    expect(reset.statusCode).toBe(200);
    await expectEnded(office);
    await expectEnded(phone);
    const fresh = reset.json().token as string;
    expect((await myData(fresh)).statusCode).toBe(200);
    expect(((await list(fresh)).json().sessions as unknown[]).length).toBe(1);
  });
});
