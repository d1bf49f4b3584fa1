import type { z } from 'zod';
import { ROLE, CREW_STATUS, DEFAULT_ROLE_NAMES } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { isNewSignInEmail, resetLink, type forgotBody, type loginBody, type profileUpdate, type resetBody, type signUpBody, type SessionUser } from '../../../shared/auth.schemas';
import { LIMITS } from '../../../shared/constants';
import { ERROR_CODE } from '../../../shared/error-codes';
import { fullName } from '../../../shared/names';
import { AppError, badRequest, forbidden, notFound, tooMany } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import type { DbOrTx } from '../../db/client';
import type { users } from '../../db/schema/index';
import * as repo from './auth.repository';
import { assertEmailAvailable, emailTaken } from './email-check';
import { endAllSessions } from './sessions.repository';
import { hashPassword, hashResetToken, newResetToken, verifyNobody, verifyPassword } from './passwords';
import * as throttle from './throttle.repository';
import { startSession, type Device } from './sessions.service';

type UserRow = typeof users.$inferSelect;

const HOUR_MS = 60 * 60_000;

const sessionUser = (u: UserRow, companyTimeZone: string): SessionUser => ({
  id: u.id,
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  role_id: u.roleId,
  company_id: u.companyId,
  company_time_zone: companyTimeZone,
});

/** A new session row for this device and its token (sessions.service.ts). */
async function session(ctx: AppContext, u: UserRow, device: Device) {
  return { user: sessionUser(u, await repo.companyTimeZone(ctx.db, u.companyId)), token: await startSession(ctx, u, device) };
}

/**
 * Work that must not delay or shape the reply (mail, and the look-ups that decide whom to mail):
 * started after the answer is decided, so the reply takes as long and reads the same whether or
 * not an account exists. `later` is the route's: it runs the work once the reply is sent.
 */
export type Later = (work: () => Promise<void>) => void;

/**
 * docs/product/api.md §2, messages.md: 403 for a wrong email or password (the same answer, and the same argon2 work, for
 * both, so addresses cannot be probed), 400 for an account that has not set its password yet,
 * 429 once this account has had 10 guesses from this address in 15 minutes (docs/product/sessions-and-safety.md §3). Each
 * attempt is counted before the password is checked, in one statement, so parallel guesses
 * cannot slip past the limit; a success clears the account's count for this address and gives
 * its attempt back to the address's overall budget.
 */
export async function login(ctx: AppContext, body: z.infer<typeof loginBody>, { ip, userAgent }: Device) {
  const accountKey = throttle.keys.login(body.email, ip);
  const addressKey = throttle.keys.loginAddress(ip);
  if (!(await throttle.take(ctx.db, accountKey, throttle.THROTTLE_LIMITS.loginAccountAddress))) throw tooMany(MSG.loginTooMany);
  if (!(await throttle.take(ctx.db, addressKey, throttle.THROTTLE_LIMITS.loginAddress))) throw tooMany(MSG.loginTooMany);
  const user = await repo.findUserByEmail(ctx.db, body.email);
  if (user && !user.passwordHash) throw badRequest(MSG.loginUnverified, undefined, ERROR_CODE.loginUnverified);
  const right = user ? await verifyPassword(user.passwordHash!, body.password) : await verifyNobody(body.password);
  if (!user || !right) throw forbidden(MSG.loginWrong, ERROR_CODE.loginWrong);
  await throttle.clear(ctx.db, accountKey);
  await throttle.giveBack(ctx.db, addressKey);
  if (Math.random() < 0.01) await throttle.sweep(ctx.db);
  if (user.crewStatus !== CREW_STATUS.ACTIVE) throw forbidden(MSG.loginInactive, ERROR_CODE.loginInactive);
  return session(ctx, user, { ip, userAgent });
}

/**
 * Sign-up starts a new company with the new user as its Admin. The reply is the same whether or
 * not the address already has an account, so sign-up cannot be used to find out who has one:
 * a new address gets an account that is not verified yet and a link to set its password (the
 * invitation flow); a known address gets a mail telling its owner that someone tried, and no
 * second account. Both happen after the reply.
 */
export async function signUp(ctx: AppContext, body: z.infer<typeof signUpBody>, ip: string, later: Later) {
  if (!(await throttle.take(ctx.db, throttle.keys.signUp(ip), throttle.THROTTLE_LIMITS.signUpAddress))) throw tooMany(MSG.tooManyRequests);
  later(async () => {
    const existing = await repo.findUserByEmail(ctx.db, body.email);
    if (existing) {
      await mailSignUpAttempt(ctx, existing);
      return;
    }
    const [firstName, ...rest] = body.name.trim().split(/\s+/);
    let user: UserRow;
    try {
      user = await ctx.db.transaction(async (tx) => {
        const company = await repo.insertCompany(tx, body.companyName ?? `${body.name}'s company`, DEFAULT_ROLE_NAMES);
        return repo.insertUser(tx, {
          companyId: company.id,
          roleId: ROLE.ADMIN,
          firstName,
          lastName: rest.join(' ') || firstName,
          email: body.email,
          passwordHash: null,
        });
      });
    } catch (err) {
      // Two sign-ups for one address at once: the unique index lets one through.
      if (isUniqueViolation(err)) return;
      throw err;
    }
    await sendPasswordLink(ctx, user, 'signup');
  });
  return { success: true, message: MSG.signUpSent };
}

async function mailSignUpAttempt(ctx: AppContext, user: Pick<UserRow, 'email' | 'firstName'>) {
  const text =
    `Hello ${user.firstName},\n\nSomeone tried to create a new Linecrew account with this email address, which already has one. ` +
    `No second account was made.\n\nIf it was you, sign in at ${ctx.config.publicUrl}/login (use "Forgot Password?" if you need a new password). ` +
    `If it was not you, you can ignore this email.\n`;
  await ctx.mail.send({ to: user.email, subject: 'Someone tried to sign up to Linecrew with your email', text });
}

/** Who sent an invitation: named in it, so the invitee knows whom to ask. */
export interface Inviter {
  firstName: string;
  lastName: string;
  email: string;
}

type LinkUser = Pick<UserRow, 'id' | 'email' | 'firstName' | 'companyId'>;
interface LinkContext {
  user: LinkUser;
  company: string;
  link: string;
  inviter?: Inviter;
  loginUrl: string;
}

/**
 * Each purpose's lifetime and words. A reset link lasts an hour (whoever holds the mailbox holds
 * the account); an invitation or a sign-up link lasts 7 days, since a new crew member may not
 * read mail the day the office adds them, and it says who invited whom to which company, so that
 * it is not mistaken for a reset nobody asked for.
 */
const LINKS = {
  reset: {
    ttlMs: HOUR_MS,
    subject: () => 'Reset your Linecrew password',
    text: ({ user, link }: LinkContext) =>
      `Hello ${user.firstName},\n\nSomeone (hopefully you) asked to reset your Linecrew password. Open this link to choose a new one:\n\n${link}\n\n` +
      'The link works once and expires in one hour. If you did not ask for this, ignore this email: your password stays as it is.\n',
  },
  invite: {
    ttlMs: 7 * 24 * HOUR_MS,
    subject: ({ company, inviter }: LinkContext) =>
      inviter ? `${fullName(inviter.firstName, inviter.lastName)} invited you to ${company} on Linecrew` : `You have been added to ${company} on Linecrew`,
    text: ({ user, company, link, inviter, loginUrl }: LinkContext) => {
      const who = inviter ? `${fullName(inviter.firstName, inviter.lastName)} (${inviter.email}) added you` : 'You have been added';
      const again = inviter ? `ask ${inviter.firstName} to send a new invitation, or use` : 'use';
      return (
        `Hello ${user.firstName},\n\n${who} (${user.email}) to the crew of ${company} on Linecrew, where ${company} keeps its jobs, pole tickets and photos. ` +
        `Open this link to set your password and sign in:\n\n${link}\n\n` +
        `The link works once and expires in 7 days. If it has expired, ${again} "Forgot Password?" at ${loginUrl}.\n`
      );
    },
  },
  signup: {
    ttlMs: 7 * 24 * HOUR_MS,
    subject: () => 'Welcome to Linecrew: set your password',
    text: ({ user, company, link }: LinkContext) =>
      `Hello ${user.firstName},\n\nThanks for signing up to Linecrew as ${user.email}, for the company ${company}. Open this link to set your password and finish signing up:\n\n${link}\n\n` +
      'The link works once and expires in 7 days. If you did not sign up, ignore this email: no account is used until a password is set.\n',
  },
} as const;

/**
 * Mails a single-use link to the reset page: for `reset` valid one hour; `invite` and `signup`
 * word it for a new account that has no password yet and last 7 days. The page is the same.
 */
export async function sendPasswordLink(ctx: AppContext, user: LinkUser, purpose: keyof typeof LINKS, inviter?: Inviter) {
  const kind = LINKS[purpose];
  const { token, tokenHash } = newResetToken();
  await repo.insertResetToken(ctx.db, user.id, tokenHash, new Date(Date.now() + kind.ttlMs));
  const link = `${ctx.config.publicUrl}/resetPassword?resetToken=${encodeURIComponent(token)}&userId=${user.id}`;
  const company = (await repo.findCompanyName(ctx.db, user.companyId)) ?? 'your company';
  const words: LinkContext = { user, company, link, inviter, loginUrl: `${ctx.config.publicUrl}/login` };
  const text = kind.text(words);
  const html = escapeHtml(text).replace(/\n/g, '<br>').replace(escapeHtml(link), `<a href="${escapeHtml(link)}">${escapeHtml(link)}</a>`);
  await ctx.mail.send({ to: user.email, subject: kind.subject(words), text, html });
}

/** Names (the inviter's, the company's) go into the HTML part: they must not become markup. */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c]);

/**
 * Answers the same whether or not the address is known (no account discovery): the look-up and
 * the mail happen after the reply. 429 after 5 requests for one address from one client address
 * (or 30 from one client address) in 15 minutes, counted whether or not the account exists.
 */
export async function forgotPassword(ctx: AppContext, body: z.infer<typeof forgotBody>, ip: string, later: Later) {
  const { forgotAccountAddress, forgotAddress } = throttle.THROTTLE_LIMITS;
  if (!(await throttle.take(ctx.db, throttle.keys.forgot(body.email, ip), forgotAccountAddress))) throw tooMany(MSG.tooManyRequests);
  if (!(await throttle.take(ctx.db, throttle.keys.forgotAddress(ip), forgotAddress))) throw tooMany(MSG.tooManyRequests);
  later(async () => {
    const user = await repo.findUserByEmail(ctx.db, body.email);
    if (user && user.crewStatus === CREW_STATUS.ACTIVE) await sendPasswordLink(ctx, user, user.passwordHash ? 'reset' : 'invite');
  });
  return { success: true, message: MSG.forgotSent };
}

/**
 * Sets the new password, ends every session of the user (whoever held the old password may hold
 * one of them), and signs in on this device. docs/product/sessions-and-safety.md.
 */
export async function resetPassword(ctx: AppContext, body: z.infer<typeof resetBody>, device: Device) {
  // A link cut short or mistyped is just an invalid link to the person holding it.
  const link = resetLink.safeParse(body);
  if (!link.success) throw badRequest(MSG.resetInvalid, undefined, ERROR_CODE.resetInvalid);
  if (body.password.length < LIMITS.passwordMin) throw badRequest(MSG.resetMismatch);
  const { userId, resetToken } = link.data;
  const passwordHash = await hashPassword(body.password);
  const user = await ctx.db.transaction(async (tx) => {
    const used = await repo.consumeResetToken(tx, userId, hashResetToken(resetToken));
    if (!used) throw badRequest(MSG.resetInvalid, undefined, ERROR_CODE.resetInvalid);
    await repo.retireResetTokens(tx, userId);
    await repo.setPassword(tx, userId, passwordHash);
    await endAllSessions(tx, userId);
    return repo.findUserById(tx, userId);
  });
  if (!user || user.crewStatus !== CREW_STATUS.ACTIVE) throw forbidden(MSG.loginInactive, ERROR_CODE.loginInactive);
  return session(ctx, user, device);
}

export async function getProfile(ctx: AppContext, me: CurrentUser) {
  const row = await repo.findProfile(ctx.db, me.id, me.companyId);
  if (!row) throw notFound('account');
  return { ...row, created_date: row.created_date.toISOString(), display_role_name: row.display_role_name ?? '' };
}

/**
 * One's own name, phone and sign-in e-mail. A new address (not only a change of letter case, which
 * signs in the same) needs the current password, so that a stolen session cannot move the account
 * to the thief's mailbox and reset the password there; and the old address is told (docs/product/sessions-and-safety.md §6).
 * The password is checked before the address is looked up, so the profile is no quick probe of
 * who has an account. Sessions are left as they are: the token names the user, not the address.
 */
export async function updateProfile(ctx: AppContext, me: CurrentUser, body: z.infer<typeof profileUpdate>, log: (err: unknown) => void) {
  const current = await repo.findUserById(ctx.db, me.id);
  if (!current) throw notFound('account');
  const newAddress = isNewSignInEmail(body.email, current.email);
  if (newAddress) {
    await checkCurrentPassword(ctx, current, body.current_password);
    await assertEmailAvailable(ctx.db, me.id, body.email, me.id);
  }
  const values = { firstName: body.first_name, lastName: body.last_name, email: body.email, phoneNumber: body.phone_number || null };
  try {
    await repo.updateProfile(ctx.db, me.id, values);
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  if (newAddress) {
    try {
      await mailEmailChanged(ctx, current, body.email);
    } catch (err) {
      // No address changes silently: without the notice the change is undone (if still ours).
      log(err);
      await repo.restoreEmail(ctx.db, me.id, body.email, current.email);
      throw new AppError(502, MSG.emailChangeNoticeFailed);
    }
  }
  return { success: true, user: await getProfile(ctx, me) };
}

/** 400 naming `current_password` when it is missing or wrong; 429 after 10 wrong ones in 15 minutes. */
async function checkCurrentPassword(ctx: AppContext, user: UserRow, password: string | undefined) {
  if (!password) throw badRequest(MSG.emailChangeNeedsPassword, { current_password: MSG.emailChangeNeedsPassword });
  const key = throttle.keys.currentPassword(user.id);
  if (!(await throttle.take(ctx.db, key, throttle.THROTTLE_LIMITS.currentPassword))) throw tooMany(MSG.currentPasswordTooMany);
  const right = user.passwordHash ? await verifyPassword(user.passwordHash, password) : await verifyNobody(password);
  if (!right) throw badRequest(MSG.currentPasswordWrong, { current_password: MSG.currentPasswordWrong });
  await throttle.clear(ctx.db, key);
}

/** The notice to the address an account is leaving: whoever owned it learns at once, with what to do. */
async function mailEmailChanged(ctx: AppContext, user: Pick<UserRow, 'email' | 'firstName'>, newEmail: string) {
  const text =
    `Hello ${user.firstName},\n\nThe sign-in email of your Linecrew account was changed from ${user.email} to ${newEmail}. ` +
    `From now on, sign in with ${newEmail}; password reset links go there too.\n\n` +
    `If you did not make this change, someone else may be using your account: tell your office administrator at once, ` +
    `so that they can set your address back and reset your password.\n`;
  await ctx.mail.send({ to: user.email, subject: 'Your Linecrew sign-in email was changed', text });
}

/** Non-admins are not offered the Admin role: only an Admin may grant it. */
export async function configurableRoles(ctx: AppContext, me: CurrentUser) {
  const roles = await repo.listRoles(ctx.db, me.companyId);
  return me.roleId === ROLE.ADMIN ? roles : roles.filter((r) => r.id !== ROLE.ADMIN);
}

/** The company's time zone, for the modules that show or read dates in it (exports, photos, the job page). */
export const companyTimeZone = repo.companyTimeZone;

/** How many unflagged photos make a Complete ticket evidenced (docs/product/records.md §8), for invoices, production, My Work, the job page. */
export const evidencePhotosRequired = repo.evidencePhotosRequired;

// ---------------------------------------------------------------------------------------------
// What the crew module uses of the accounts (it adds and invites members): the e-mail check and
// the mail budgets, counted in auth_throttle like the sign-in guesses.

export { assertEmailAvailable, emailTaken } from './email-check';

/** Counts one new member (mailed an invitation) added by `senderId`: false once that office account's budget is spent. */
export const takeInvitationBudget = (db: DbOrTx, senderId: number) =>
  throttle.take(db, throttle.keys.inviteBy(senderId), throttle.THROTTLE_LIMITS.invitesBy);

/** Counts one invitation or reset mail to crew member `memberId`, whoever asks: false once the member's budget is spent. */
export const takeMemberMailBudget = (db: DbOrTx, memberId: number) =>
  throttle.take(db, throttle.keys.invite(memberId), throttle.THROTTLE_LIMITS.inviteMember);
