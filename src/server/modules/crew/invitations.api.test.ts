import { beforeAll, describe, expect, it, vi } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { passwordResetTokens, users } from '../../db/schema/index';
import { createTestApp, resetLinkFrom, type TestApp } from '../../test/harness';

/** Invitations last 7 days, say who invited whom where, and can be re-sent; bad links say so. */
const t = await createTestApp();
const API = '/api/v1';
const HOUR = 60 * 60_000;
const DAY = 24 * HOUR;

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, apprentice: string, otherAdmin: string;

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, apprentice, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
});

const userByEmail = async (email: string) => (await t.ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0];
const latestLinkOf = async (userId: number) =>
  (await t.ctx.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId)).orderBy(desc(passwordResetTokens.id)).limit(1))[0];

async function nextMails(app: TestApp, before: number, count = 1): Promise<string[]> {
  return vi.waitFor(() => {
    const mails = app.outbox();
    expect(mails.length).toBe(before + count);
    return mails.slice(before);
  });
}

/** The mail's text part, with quoted-printable soft breaks undone, so sentences can be matched. */
const textOf = (eml: string) => eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=').replace(/\s+/g, ' ');

let seq = 0;
async function addMember(token = office) {
  seq++;
  const email = `invitee.${seq}.${Date.now()}@example.com`;
  const foremanId = (await userByEmail('foreman@example.com')).id;
  const res = await t.request({
    method: 'POST',
    url: `${API}/crew`,
    token,
    body: { crew: { first_name: 'Ivy', last_name: `Invitee${seq}`, email, role_id: 5, foreman: foremanId, crew_status: 1 } },
  });
  expect(res.statusCode).toBe(200);
  return { id: res.json().crew.id as number, email };
}

const resend = (token: string | undefined, id: number) => t.request({ method: 'POST', url: `${API}/crew/${id}/resend-invitation`, token });

describe('the invitation e-mail', () => {
  it('lasts 7 days and says who invited whom to which company, without "if you did not ask for this"', async () => {
    const before = t.outbox().length;
    const started = Date.now();
    const { id, email } = await addMember(office);
    const [mail] = await nextMails(t, before);
    const text = textOf(mail);
    expect(text).toContain(`To: ${email}`);
    expect(text).toMatch(/Subject: Olivia Office invited you to Demo Line Co on Linecrew/);
    expect(text).toContain('Olivia Office (office@example.com) added you');
    expect(text).toContain(email);
    expect(text).toContain('Demo Line Co');
    expect(text).toContain('expires in 7 days');
    expect(text).not.toContain('If you did not ask for this');
    expect(text).not.toContain('one hour');

    const link = await latestLinkOf(id);
    expect(link.expiresAt.getTime()).toBeGreaterThanOrEqual(started + 7 * DAY - 5_000);
    expect(link.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 7 * DAY + 5_000);
    expect(resetLinkFrom(mail).userId).toBe(id);
  });

  it('a forgotten-password link still lasts one hour', async () => {
    const before = t.outbox().length;
    await t.request({ method: 'POST', url: `${API}/crew/forgot-password`, body: { email: 'foreman@example.com' }, remoteAddress: '203.0.113.7' });
    const [mail] = await nextMails(t, before);
    expect(textOf(mail)).toContain('expires in one hour');
    const link = await latestLinkOf((await userByEmail('foreman@example.com')).id);
    expect(link.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + HOUR + 5_000);
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now() + HOUR - 60_000);
  });
});

describe('POST /crew/{id}/resend-invitation', () => {
  it('requires authentication', async () => {
    const { id } = await addMember();
    expect((await resend(undefined, id)).statusCode).toBe(401);
  });

  it('re-sends a working 7-day invitation, signed by the person who re-sent it; the roster shows who is still invited', async () => {
    const { id, email } = await addMember(office);
    let roster = (await t.request({ method: 'GET', url: `${API}/crew/allCrew`, token: admin })).json() as Array<{ id: number; invitation_pending: boolean }>;
    expect(roster.find((m) => m.id === id)?.invitation_pending).toBe(true);
    const linemanId = (await userByEmail('lineman@example.com')).id;
    expect(roster.find((m) => m.id === linemanId)?.invitation_pending).toBe(false);

    const before = t.outbox().length;
    const res = await resend(admin, id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MSG.crewInviteResent });
    const [mail] = await nextMails(t, before);
    expect(textOf(mail)).toContain(`To: ${email}`);
    expect(textOf(mail)).toContain('added you');
    expect(textOf(mail)).toMatch(/Subject: (Avery|[A-Z][a-z]+) [A-Za-z]+ invited you to Demo Line Co on Linecrew/);
    expect((await latestLinkOf(id)).expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * DAY);

    const { resetToken, userId } = resetLinkFrom(mail);
    const set = await t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password: 'ivy-pass' } });
    expect(set.statusCode).toBe(200);
    roster = (await t.request({ method: 'GET', url: `${API}/crew/allCrew`, token: admin })).json();
    expect(roster.find((m) => m.id === id)?.invitation_pending).toBe(false);

    // Once the password is set there is nothing to re-send: Reset Password is the way.
    const again = await resend(admin, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(MSG.crewAlreadyJoined);
  });

  it('is for Admins and Office Managers of the member\'s company only', async () => {
    const { id } = await addMember();
    for (const token of [foreman, wforeman, lineman, apprentice]) expect((await resend(token, id)).statusCode).toBe(403);
    expect((await resend(otherAdmin, id)).statusCode).toBe(404);
    expect((await resend(office, 999_999)).statusCode).toBe(404);
  });

  it('refuses an inactive member with a message', async () => {
    const { id } = await addMember();
    await t.ctx.db.update(users).set({ crewStatus: 2 }).where(eq(users.id, id));
    const res = await resend(office, id);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.crewResetInactive);
  });

  it('re-sends at most 5 mails to one member in 15 minutes, whoever asks (429 after)', async () => {
    const { id } = await addMember();
    for (let i = 0; i < 5; i++) expect((await resend(i % 2 ? admin : office, id)).statusCode).toBe(200);
    const blocked = await resend(admin, id);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toBe(MSG.tooManyMails);
  });
});

describe('reset links that are malformed or expired (docs/product/rules.md §3.4)', () => {
  const reset = (body: unknown) => t.request({ method: 'POST', url: `${API}/crew/reset-password`, body });

  it('a malformed token or user id reads as an invalid link, never as validation text', async () => {
    for (const body of [
      { resetToken: 'abc', userId: 2, password: 'secret' },
      { resetToken: '', userId: 2, password: 'secret' },
      { resetToken: 'a'.repeat(43), userId: 'x', password: 'secret' },
      { resetToken: 'a'.repeat(43), userId: '', password: 'secret' },
      { resetToken: 'not base64url!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!', userId: 2, password: 'secret' },
    ]) {
      const res = await reset(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe(MSG.resetInvalid);
    }
  });

  it('an expired link says it is invalid or expired', async () => {
    const before = t.outbox().length;
    const { id } = await addMember();
    const { resetToken, userId } = resetLinkFrom((await nextMails(t, before))[0]);
    await t.ctx.db.update(passwordResetTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResetTokens.userId, id));
    const res = await reset({ resetToken, userId, password: 'secret' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.resetInvalid);
  });

  it('a too-short password says the password rule, with no field name attached', async () => {
    const res = await reset({ resetToken: 'a'.repeat(43), userId: 2, password: 'abc' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(MSG.resetMismatch);
  });
});
