import { describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { createTestApp, resetLinkFrom } from '../../test/harness';
import { users, passwordResetTokens } from '../../db/schema/index';
import { signToken } from './token';

const t = await createTestApp();

/** Reset mail goes out after the reply: wait for the outbox to hold one more message. */
async function nextMail(before: number): Promise<string> {
  return vi.waitFor(() => {
    const mails = t.outbox();
    expect(mails.length).toBe(before + 1);
    return mails.at(-1)!;
  });
}

describe('POST /crew/login', () => {
  it('signs in with the right password and returns the user and a token that opens the API', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'ADMIN@example.com', password: 'linecrew' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ email: 'admin@example.com', role_id: 1, first_name: 'Avery' });
    const me = await t.request({ method: 'GET', url: '/api/v1/crew/myData', token: body.token });
    expect(me.statusCode).toBe(200);
    expect(me.json()[0]).toMatchObject({ email: 'admin@example.com', company_name: 'Demo Line Co' });
  });

  it('answers 403 with the spec message for a wrong password, and the same for an unknown email', async () => {
    for (const email of ['office@example.com', 'nobody@example.com']) {
      const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email, password: 'wrong-password' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(MSG.loginWrong);
    }
  });

  it('answers 400 "not verified" for a member who has not set a password yet', async () => {
    await t.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.email, 'luis@example.com'));
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'luis@example.com', password: 'anything' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.loginUnverified);
  });

  it('refuses an inactive member', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'ray@example.com', password: 'linecrew' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe(MSG.loginInactive);
  });

  it('rejects too-short input with 400 and a message', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'a', password: '12' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(MSG.loginTooShort);
  });

  it('rate-limits repeated failures for one email with 429, even with the right password afterwards', async () => {
    const email = 'apprentice@example.com';
    for (let i = 0; i < 10; i++) {
      const res = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email, password: `bad-${i}` } });
      expect(res.statusCode).toBe(403);
    }
    const blocked = await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email, password: 'linecrew' } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(MSG.loginTooMany);
  });
});

describe('the session token', () => {
  it('is required: no token is 401', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/crew/myData' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.notSignedIn);
  });

  it('is accepted from the linecrew_token cookie as well as the Bearer header', async () => {
    const token = await t.login('office@example.com');
    const res = await t.request({ method: 'GET', url: '/api/v1/crew/myData', cookies: { linecrew_token: token } });
    expect(res.statusCode).toBe(200);
    expect(res.json()[0].email).toBe('office@example.com');
  });

  it('is refused when tampered with: another role in the payload breaks the signature', async () => {
    const token = await t.login('lineman@example.com');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, roleId: 1 })).toString('base64url')}.${s}`;
    const res = await t.request({ method: 'GET', url: '/api/v1/crew/myData', token: forged });
    expect(res.statusCode).toBe(401);
  });

  it('is refused when signed with another secret', async () => {
    const forged = await signToken({ userId: 1, companyId: 1, roleId: 1, sessionId: '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' }, 'x'.repeat(48), '1h');
    expect((await t.request({ method: 'GET', url: '/api/v1/crew/myData', token: forged })).statusCode).toBe(401);
  });

  it('is refused once expired, with the session-expired message', async () => {
    const expired = await new SignJWT({ userId: 1, companyId: 1, roleId: 1, sid: '6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    const res = await t.request({ method: 'GET', url: '/api/v1/crew/myData', token: expired });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.sessionExpired);
  });

  it('stops working when the member is deactivated', async () => {
    const token = await t.login('wendy@example.com');
    await t.ctx.db.update(users).set({ crewStatus: 2 }).where(eq(users.email, 'wendy@example.com'));
    expect((await t.request({ method: 'GET', url: '/api/v1/crew/myData', token })).statusCode).toBe(401);
    await t.ctx.db.update(users).set({ crewStatus: 1 }).where(eq(users.email, 'wendy@example.com'));
  });
});

describe('forgot and reset password', () => {
  it('mails a single-use link that sets a new password and signs in', async () => {
    const before = t.outbox().length;
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'foreman@example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(MSG.forgotSent);
    const mail = await nextMail(before);
    expect(mail).toContain('To: foreman@example.com');
    const { resetToken, userId } = resetLinkFrom(mail);

    // Only a hash of the token is stored.
    const stored = await t.ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    expect(stored.some((r) => r.tokenHash === resetToken)).toBe(false);

    const reset = await t.request({ method: 'POST', url: '/api/v1/crew/reset-password', body: { resetToken, userId, password: 'n3w-pass' } });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().user.email).toBe('foreman@example.com');
    expect(reset.json().token).toBeTruthy();

    expect((await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'foreman@example.com', password: 'linecrew' } })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url: '/api/v1/crew/login', body: { email: 'foreman@example.com', password: 'n3w-pass' } })).statusCode).toBe(200);

    const reuse = await t.request({ method: 'POST', url: '/api/v1/crew/reset-password', body: { resetToken, userId, password: 'again' } });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toBe(MSG.resetInvalid);
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = t.outbox().length;
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'ghost@example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(MSG.forgotSent);
    expect(t.outbox().length).toBe(before);
  });

  it('refuses an expired token', async () => {
    const before = t.outbox().length;
    await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'office@example.com' } });
    const { resetToken, userId } = resetLinkFrom(await nextMail(before));
    await t.ctx.db.update(passwordResetTokens).set({ expiresAt: sql`now() - interval '1 minute'` }).where(eq(passwordResetTokens.userId, userId));
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/reset-password', body: { resetToken, userId, password: 'whatever' } });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a token used with another user id', async () => {
    const before = t.outbox().length;
    await t.request({ method: 'POST', url: '/api/v1/crew/forgot-password', body: { email: 'wforeman@example.com' } });
    const { resetToken, userId } = resetLinkFrom(await nextMail(before));
    const res = await t.request({ method: 'POST', url: '/api/v1/crew/reset-password', body: { resetToken, userId: userId + 1, password: 'whatever' } });
    expect(res.statusCode).toBe(400);
  });
});

describe('PUT /crew/myProfileData', () => {
  it('saves the profile and GET /crew/myData reads it back', async () => {
    const token = await t.login('lineman@example.com');
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/crew/myProfileData',
      token,
      body: { user: { first_name: 'Liam', last_name: "O'Brien", email: 'lineman@example.com', phone_number: '6175550000' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    const me = (await t.request({ method: 'GET', url: '/api/v1/crew/myData', token })).json()[0];
    expect(me).toMatchObject({ last_name: "O'Brien", phone_number: '6175550000', company_name: 'Demo Line Co' });
  });

  it('rejects a 9-digit phone and a one-letter name with the spec messages, storing nothing', async () => {
    const token = await t.login('lineman@example.com');
    const bad = await t.request({
      method: 'PUT',
      url: '/api/v1/crew/myProfileData',
      token,
      body: { user: { first_name: 'L', last_name: 'Lineman', email: 'lineman@example.com', phone_number: '123456789' } },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.values(bad.json().fields)).toEqual(expect.arrayContaining([MSG.firstName, MSG.phone]));
    const me = (await t.request({ method: 'GET', url: '/api/v1/crew/myData', token })).json()[0];
    expect(me.first_name).toBe('Liam');
  });

  it('refuses an email that another account uses', async () => {
    const token = await t.login('apprentice@example.com').catch(() => t.login('lineman@example.com'));
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/crew/myProfileData',
      token,
      body: { user: { first_name: 'Some', last_name: 'One', email: 'admin@example.com', current_password: 'linecrew' } },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.emailTaken);
  });
});

describe('tenancy and roles', () => {
  it('shows each user their own company only', async () => {
    const token = await t.login('admin@other.example.com');
    const me = (await t.request({ method: 'GET', url: '/api/v1/crew/myData', token })).json()[0];
    expect(me.company_name).toBe('Other Line Co');
  });

  it('offers the Admin role only to Admins', async () => {
    const admin = (await t.request({ method: 'GET', url: '/api/v1/crew/configurableRoles', token: await t.login('admin@example.com') })).json();
    const office = (await t.request({ method: 'GET', url: '/api/v1/crew/configurableRoles', token: await t.login('office@example.com') })).json();
    expect(admin.map((r: { id: number }) => r.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(office.map((r: { id: number }) => r.id)).toEqual([2, 3, 4, 5, 6]);
    expect(admin[4]).toEqual({ id: 5, display_role_name: 'Lineman' });
  });
});

describe('GET /health', () => {
  it('answers ok without a token', async () => {
    const res = await t.request({ method: 'GET', url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });
});
