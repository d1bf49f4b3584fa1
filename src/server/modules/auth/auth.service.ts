import type { z } from 'zod';
import { ROLE, CREW_STATUS, DEFAULT_ROLE_NAMES } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { forgotBody, loginBody, profileUpdate, resetBody, signUpBody, SessionUser } from '../../../shared/auth.schemas';
import { AppError, badRequest, conflict, forbidden, notFound, tooMany } from '../../errors';
import { isUniqueViolation } from '../../db/errors';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import type { users } from '../../db/schema/index';
import * as repo from './auth.repository';
import { hashPassword, hashResetToken, newResetToken, verifyNobody, verifyPassword } from './passwords';
import * as throttle from './throttle';
import { signToken } from './token';

type UserRow = typeof users.$inferSelect;

const RESET_TTL_MS = 60 * 60_000;

const sessionUser = (u: UserRow): SessionUser => ({
  id: u.id,
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  role_id: u.roleId,
  company_id: u.companyId,
});

async function session(ctx: AppContext, u: UserRow) {
  const token = await signToken(
    { userId: u.id, companyId: u.companyId, roleId: u.roleId, sessionVersion: u.sessionVersion },
    ctx.config.jwtSecret,
    ctx.config.jwtExpiresIn,
  );
  return { user: sessionUser(u), token };
}

/**
 * Work that must not delay or shape the reply (mail, and the look-ups that decide whom to mail):
 * started after the answer is decided, so the reply takes as long and reads the same whether or
 * not an account exists. `later` is the route's: it runs the work once the reply is sent.
 */
export type Later = (work: () => Promise<void>) => void;

/**
 * SPEC §7/§8: 403 for a wrong email or password (the same answer, and the same argon2 work, for
 * both, so addresses cannot be probed), 400 for an account that has not set its password yet,
 * 429 once this account has had 10 guesses from this address in 15 minutes (DESIGN §5). Each
 * attempt is counted before the password is checked, in one statement, so parallel guesses
 * cannot slip past the limit; a success clears the account's count for this address and gives
 * its attempt back to the address's overall budget.
 */
export async function login(ctx: AppContext, body: z.infer<typeof loginBody>, ip: string) {
  const accountKey = throttle.keys.login(body.email, ip);
  const addressKey = throttle.keys.loginAddress(ip);
  if (!(await throttle.take(ctx.db, accountKey, throttle.THROTTLE_LIMITS.loginAccountAddress))) throw tooMany(MSG.loginTooMany);
  if (!(await throttle.take(ctx.db, addressKey, throttle.THROTTLE_LIMITS.loginAddress))) throw tooMany(MSG.loginTooMany);
  const user = await repo.findUserByEmail(ctx.db, body.email);
  if (user && !user.passwordHash) throw badRequest(MSG.loginUnverified);
  const right = user ? await verifyPassword(user.passwordHash!, body.password) : await verifyNobody(body.password);
  if (!user || !right) throw forbidden(MSG.loginWrong);
  await throttle.clear(ctx.db, accountKey);
  await throttle.giveBack(ctx.db, addressKey);
  if (Math.random() < 0.01) await throttle.sweep(ctx.db);
  if (user.crewStatus !== CREW_STATUS.ACTIVE) throw forbidden(MSG.loginInactive);
  return session(ctx, user);
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

const LINK_WORDING = {
  reset: {
    subject: 'Reset your Linecrew password',
    intro: (name: string) => `Hello ${name},\n\nSomeone (hopefully you) asked to reset your Linecrew password. Open this link to choose a new one:`,
  },
  invite: {
    subject: 'You have been added to Linecrew: set your password',
    intro: (name: string) => `Hello ${name},\n\nYou have been added to your crew on Linecrew. Open this link to set your password:`,
  },
  signup: {
    subject: 'Welcome to Linecrew: set your password',
    intro: (name: string) => `Hello ${name},\n\nThanks for signing up to Linecrew. Open this link to set your password and finish signing up:`,
  },
} as const;

/**
 * Mails a single-use link valid for one hour. `invite` and `signup` word it for a new account
 * that has no password yet; the link and the page are the same.
 */
export async function sendPasswordLink(
  ctx: AppContext,
  user: Pick<UserRow, 'id' | 'email' | 'firstName'>,
  purpose: keyof typeof LINK_WORDING,
) {
  const { token, tokenHash } = newResetToken();
  await repo.insertResetToken(ctx.db, user.id, tokenHash, new Date(Date.now() + RESET_TTL_MS));
  const link = `${ctx.config.publicUrl}/resetPassword?resetToken=${encodeURIComponent(token)}&userId=${user.id}`;
  const { subject, intro } = LINK_WORDING[purpose];
  const text = `${intro(user.firstName)}\n\n${link}\n\nThe link works once and expires in one hour. If you did not ask for this, ignore this email.\n`;
  await ctx.mail.send({ to: user.email, subject, text, html: text.replace(/\n/g, '<br>').replace(link, `<a href="${link}">${link}</a>`) });
}

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

/** Sets the new password, which ends every earlier session (repo.setPassword), and signs in. */
export async function resetPassword(ctx: AppContext, body: z.infer<typeof resetBody>) {
  const passwordHash = await hashPassword(body.password);
  const user = await ctx.db.transaction(async (tx) => {
    const used = await repo.consumeResetToken(tx, body.userId, hashResetToken(body.resetToken));
    if (!used) throw badRequest(MSG.resetInvalid);
    await repo.retireResetTokens(tx, body.userId);
    await repo.setPassword(tx, body.userId, passwordHash);
    return repo.findUserById(tx, body.userId);
  });
  if (!user || user.crewStatus !== CREW_STATUS.ACTIVE) throw new AppError(403, MSG.loginInactive);
  return session(ctx, user);
}

/** POST /crew/logout: this token and every other of the same user stop working. */
export async function logout(ctx: AppContext, me: CurrentUser) {
  await repo.endSessions(ctx.db, me.id);
  return { success: true };
}

export async function getProfile(ctx: AppContext, me: CurrentUser) {
  const row = await repo.findProfile(ctx.db, me.id, me.companyId);
  if (!row) throw notFound('account');
  return { ...row, created_date: row.created_date.toISOString(), display_role_name: row.display_role_name ?? '' };
}

export async function updateProfile(ctx: AppContext, me: CurrentUser, body: z.infer<typeof profileUpdate>) {
  const other = await repo.findUserByEmail(ctx.db, body.email);
  if (other && other.id !== me.id) throw conflict(MSG.emailTaken);
  await repo.updateProfile(ctx.db, me.id, {
    firstName: body.first_name,
    lastName: body.last_name,
    email: body.email,
    phoneNumber: body.phone_number || null,
  });
  return { success: true, user: await getProfile(ctx, me) };
}

/** Non-admins are not offered the Admin role: only an Admin may grant it. */
export async function configurableRoles(ctx: AppContext, me: CurrentUser) {
  const roles = await repo.listRoles(ctx.db, me.companyId);
  return me.roleId === ROLE.ADMIN ? roles : roles.filter((r) => r.id !== ROLE.ADMIN);
}
