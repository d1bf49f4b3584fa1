import type { z } from 'zod';
import { ROLE, CREW_STATUS, DEFAULT_ROLE_NAMES } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import type { forgotBody, loginBody, profileUpdate, resetBody, signUpBody, SessionUser } from '../../../shared/auth.schemas';
import { AppError, badRequest, conflict, forbidden, notFound, tooMany } from '../../errors';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import type { users } from '../../db/schema/index';
import * as repo from './auth.repository';
import { hashPassword, hashResetToken, newResetToken, verifyPassword } from './passwords';
import { signToken } from './token';

type UserRow = typeof users.$inferSelect;

const FAILURE_WINDOW_MS = 15 * 60_000;
const MAX_FAILURES_PER_EMAIL = 10;
const MAX_FAILURES_PER_IP = 50;
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
  const token = await signToken({ userId: u.id, companyId: u.companyId, roleId: u.roleId }, ctx.config.jwtSecret, ctx.config.jwtExpiresIn);
  return { user: sessionUser(u), token };
}

/**
 * SPEC §7/§8: 403 for a wrong email or password (the same answer for both, so addresses cannot
 * be probed), 400 for an account that has not set its password yet, 429 after repeated failures.
 */
export async function login(ctx: AppContext, body: z.infer<typeof loginBody>, ip: string) {
  const since = new Date(Date.now() - FAILURE_WINDOW_MS);
  const failures = await repo.countRecentFailures(ctx.db, body.email, ip, since);
  if (failures.byEmail >= MAX_FAILURES_PER_EMAIL || failures.byIp >= MAX_FAILURES_PER_IP) throw tooMany(MSG.loginTooMany);

  const user = await repo.findUserByEmail(ctx.db, body.email);
  if (user && !user.passwordHash) throw badRequest(MSG.loginUnverified);
  if (!user || !(await verifyPassword(user.passwordHash!, body.password))) {
    await repo.recordFailure(ctx.db, body.email, ip);
    throw forbidden(MSG.loginWrong);
  }
  if (user.crewStatus !== CREW_STATUS.ACTIVE) throw forbidden(MSG.loginInactive);
  await repo.clearFailures(ctx.db, body.email);
  return session(ctx, user);
}

/** Sign-up starts a new company with the new user as its Admin. */
export async function signUp(ctx: AppContext, body: z.infer<typeof signUpBody>) {
  if (await repo.findUserByEmail(ctx.db, body.email)) throw conflict(MSG.emailTaken);
  const [firstName, ...rest] = body.name.trim().split(/\s+/);
  const passwordHash = await hashPassword(body.password);
  const user = await ctx.db.transaction(async (tx) => {
    const company = await repo.insertCompany(tx, body.companyName ?? `${body.name}'s company`, DEFAULT_ROLE_NAMES);
    return repo.insertUser(tx, {
      companyId: company.id,
      roleId: ROLE.ADMIN,
      firstName,
      lastName: rest.join(' ') || firstName,
      email: body.email,
      passwordHash,
    });
  });
  return session(ctx, user);
}

/**
 * Mails a single-use link valid for one hour. `invite` words it for a new crew member who has
 * no password yet; the link and the page are the same.
 */
export async function sendPasswordLink(ctx: AppContext, user: Pick<UserRow, 'id' | 'email' | 'firstName'>, purpose: 'reset' | 'invite') {
  const { token, tokenHash } = newResetToken();
  await repo.insertResetToken(ctx.db, user.id, tokenHash, new Date(Date.now() + RESET_TTL_MS));
  const link = `${ctx.config.publicUrl}/resetPassword?resetToken=${encodeURIComponent(token)}&userId=${user.id}`;
  const subject = purpose === 'invite' ? 'You have been added to Linecrew: set your password' : 'Reset your Linecrew password';
  const intro =
    purpose === 'invite'
      ? `Hello ${user.firstName},\n\nYou have been added to your crew on Linecrew. Open this link to set your password:`
      : `Hello ${user.firstName},\n\nSomeone (hopefully you) asked to reset your Linecrew password. Open this link to choose a new one:`;
  const text = `${intro}\n\n${link}\n\nThe link works once and expires in one hour. If you did not ask for this, ignore this email.\n`;
  await ctx.mail.send({ to: user.email, subject, text, html: text.replace(/\n/g, '<br>').replace(link, `<a href="${link}">${link}</a>`) });
}

/** Answers the same whether or not the address is known (no account discovery). */
export async function forgotPassword(ctx: AppContext, body: z.infer<typeof forgotBody>, log: (err: unknown) => void) {
  const user = await repo.findUserByEmail(ctx.db, body.email);
  if (user && user.crewStatus === CREW_STATUS.ACTIVE) {
    // A mail failure is logged, not reported: the reply must not reveal that the account exists.
    await sendPasswordLink(ctx, user, user.passwordHash ? 'reset' : 'invite').catch(log);
  }
  return { success: true, message: MSG.forgotSent };
}

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
  await repo.clearFailures(ctx.db, user.email);
  return session(ctx, user);
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
