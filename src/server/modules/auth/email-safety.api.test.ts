import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../../shared/messages';
import { buildApp } from '../../app';
import { users } from '../../db/schema/index';
import { createMailer } from '../../mail/mailer';
import { createTestApp } from '../../test/harness';
import { THROTTLE_LIMITS } from './throttle.repository';

/**
 * docs/product/sessions-and-safety.md §6 "e-mail change" and "e-mail discovery" (§7), with mail through a
 * real SMTP peer on loopback: changing one's own sign-in address needs the current password and
 * mails a notice to the old address; a taken address gets one neutral answer whichever company
 * has it, at most 20 times an hour per user, then 429 for every address.
 */
const received: { to: string[]; raw: string }[] = [];
/** Addresses the SMTP peer refuses, to see what a change does when its notice cannot be sent. */
const refused = new Set<string>();
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  onRcptTo(address, _session, callback) {
    callback(refused.has(address.address) ? Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }) : undefined);
  },
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (c: Buffer) => (raw += c.toString()));
    stream.on('end', () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
      callback();
    });
  },
});
await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
const port = (smtp.server.address() as AddressInfo).port;
const mail = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`, outboxDir: '/nonexistent', from: 'Linecrew <no-reply@example.com>' });
const t = await createTestApp({ mail });

const API = '/api/v1';
const saveProfile = (token: string, user: Record<string, unknown>) => t.request({ method: 'PUT', url: `${API}/crew/myProfileData`, token, body: { user } });
const me = async (token: string) => (await t.request({ url: `${API}/crew/myData`, token })).json()[0];
const emailOf = async (id: number) => (await t.ctx.db.select({ email: users.email }).from(users).where(sql`${users.id} = ${id}`))[0]?.email;
const newCrew = (email: string) => ({ crew: { first_name: 'Nia', last_name: 'New', email, phone_number: '', role_id: 2, crew_status: 1 } });

describe('changing one\'s own sign-in e-mail (docs/product/sessions-and-safety.md §6)', () => {
  it('needs the current password: without it, or with a wrong one, a 400 naming the field, and nothing changes', async () => {
    const token = await t.login('foreman@example.com');
    const profile = await me(token);
    const base = { first_name: profile.first_name, last_name: profile.last_name, email: 'frank.new@example.com' };

    const missing = await saveProfile(token, base);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ error: MSG.emailChangeNeedsPassword, fields: { current_password: MSG.emailChangeNeedsPassword } });

    const wrong = await saveProfile(token, { ...base, current_password: 'not-my-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: MSG.currentPasswordWrong, fields: { current_password: MSG.currentPasswordWrong } });

    expect(await emailOf(profile.id)).toBe('foreman@example.com');
    expect(received.filter((m) => m.to.includes('foreman@example.com'))).toHaveLength(0);
  });

  it('with the password: changes it, mails a notice to the old address, and the session keeps working', async () => {
    const token = await t.login('wforeman@example.com');
    const profile = await me(token);
    const res = await saveProfile(token, {
      first_name: profile.first_name,
      last_name: profile.last_name,
      email: 'walt.new@example.com',
      current_password: 'linecrew',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user.email).toBe('walt.new@example.com');
    await vi.waitFor(() => expect(received.some((m) => m.to.includes('wforeman@example.com'))).toBe(true));
    const notice = received.find((m) => m.to.includes('wforeman@example.com'))!.raw.replace(/=\r?\n/g, '');
    expect(notice).toContain('Subject: Your Linecrew sign-in email was changed');
    expect(notice).toContain('walt.new@example.com');
    // Nothing is mailed to the new address: the notice is for whoever owned the account before.
    expect(received.some((m) => m.to.includes('walt.new@example.com'))).toBe(false);

    // A session from before the change keeps working; the new address signs in, the old one not.
    expect((await t.request({ url: `${API}/crew/myData`, token })).statusCode).toBe(200);
    await t.login('walt.new@example.com');
    expect((await t.request({ method: 'POST', url: `${API}/crew/login`, body: { email: 'wforeman@example.com', password: 'linecrew' } })).statusCode).toBe(403);
  });

  it('needs no password for a name or phone change, or the same address in other letter case; no mail is sent', async () => {
    const token = await t.login('lineman@example.com');
    const profile = await me(token);
    const before = received.length;
    const res = await saveProfile(token, { first_name: 'Liam', last_name: 'Lines', email: 'LINEMAN@example.com', phone_number: '617-555-0199' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ last_name: 'Lines', phone_number: '617-555-0199' });
    expect(await emailOf(profile.id)).toBe('LINEMAN@example.com');
    expect(received.length).toBe(before);
  });

  it('keeps the old address when the notice cannot be sent: 502, and the change is undone', async () => {
    const token = await t.login('apprentice@example.com');
    const profile = await me(token);
    refused.add('apprentice@example.com');
    try {
      const res = await saveProfile(token, { first_name: profile.first_name, last_name: profile.last_name, email: 'ava.new@example.com', current_password: 'linecrew' });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe(MSG.emailChangeNoticeFailed);
    } finally {
      refused.delete('apprentice@example.com');
    }
    expect(await emailOf(profile.id)).toBe('apprentice@example.com');
  });
});

describe('a taken e-mail address (docs/product/sessions-and-safety.md §7 e-mail discovery)', () => {
  it('gets one neutral answer, whichever company has it, on the profile and on the roster', async () => {
    const office = await t.login('office@example.com');
    const profile = await me(office);
    for (const email of ['admin@other.example.com', 'ADMIN@example.com']) {
      const own = await saveProfile(office, { first_name: profile.first_name, last_name: profile.last_name, email, current_password: 'linecrew' });
      expect(own.statusCode, own.body).toBe(409);
      expect(own.json()).toMatchObject({ error: MSG.emailTaken, fields: { email: MSG.emailTaken } });
      const crew = await t.request({ method: 'POST', url: `${API}/crew`, token: office, body: newCrew(email) });
      expect(crew.statusCode).toBe(409);
      expect(crew.json()).toMatchObject({ error: MSG.emailTaken, fields: { email: MSG.emailTaken } });
      expect(crew.body).not.toMatch(/already exists|other compan/i);
    }
  });

  it('answers at most 20 of them per user an hour, then 429 for any address, in every process (the count is in PostgreSQL)', async () => {
    const admin = await t.login('admin@example.com');
    expect(THROTTLE_LIMITS.emailTakenAnswers).toBe(20);
    for (let i = 0; i < 20; i++) {
      const res = await t.request({ method: 'POST', url: `${API}/crew`, token: admin, body: newCrew(i % 2 ? 'admin@other.example.com' : 'office@example.com') });
      expect(res.statusCode, `answer ${i + 1}`).toBe(409);
    }
    // A second app process on the same database: the 21st answer is a 429 there too.
    const other = await buildApp({ ...t.ctx });
    try {
      const taken = await other.inject({ method: 'POST', url: `${API}/crew`, headers: { authorization: `Bearer ${admin}` }, payload: newCrew('admin@other.example.com') });
      expect(taken.statusCode).toBe(429);
      expect(taken.json().error).toBe(MSG.emailChecksTooMany);
      // An unused address is refused alike: a 200 here would tell the prober the rest were taken.
      const free = await other.inject({ method: 'POST', url: `${API}/crew`, headers: { authorization: `Bearer ${admin}` }, payload: newCrew('nobody.yet@example.com') });
      expect(free.statusCode).toBe(429);
    } finally {
      await other.close();
    }
    const profile = await me(admin);
    const own = await saveProfile(admin, { first_name: profile.first_name, last_name: profile.last_name, email: 'brand.new@example.com', current_password: 'linecrew' });
    expect(own.statusCode).toBe(429);
    expect(await emailOf(profile.id)).toBe('admin@example.com');

    // Another user has a budget of their own.
    const otherAdmin = await t.login('admin@other.example.com');
    const fine = await t.request({ method: 'POST', url: `${API}/crew`, token: otherAdmin, body: newCrew('new.member@other.example.com') });
    expect(fine.statusCode, fine.body).toBe(200);
  });
});
