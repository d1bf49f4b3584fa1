import { recordDiff, type HistoryView } from '../history/history.service';
import { CREW_STATUS, ROLE } from '../../../shared/constants';
import { MSG } from '../../../shared/messages';
import { canGrantRole } from '../../../shared/permissions';
import { needsForeman, STATUS_NAME, type CrewCreate, type CrewMember, type CrewSaveReply, type CrewUpdate } from '../../../shared/crew.schemas';
import { AppError, badRequest, conflict, forbidden, notFound, tooMany } from '../../errors';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import type { CurrentUser } from '../../plugins/auth';
import { assertEmailAvailable, emailTaken, sendPasswordLink, takeInvitationBudget, takeMemberMailBudget } from '../auth/auth.service';
import { isUniqueViolation } from '../../db/errors';
import { findJob } from '../job-record/job-record.service';
import * as repo from './crew.repository';

/** Roles whose members are the crew of a foreman (docs/product/rules.md §3.1: they must name one). */
const CREW_ROLES = [ROLE.WORKING_FOREMAN, ROLE.LINEMAN, ROLE.APPRENTICE] as const;

function toMember(row: repo.MemberRow): CrewMember {
  const { created, ...rest } = row;
  return { ...rest, status_name: STATUS_NAME[row.crew_status] ?? '', date_created: created.toISOString() };
}

async function memberOrThrow(db: DbOrTx, companyId: number, id: number) {
  const row = await repo.findMember(db, companyId, id);
  if (!row) throw notFound('crew member');
  return toMember(row);
}

/**
 * The crew foreman a member of roles 4–6 must name: an active Foreman (role 3) of the same
 * company. Other roles have no crew foreman. `keep` is the member's current foreman: an edit that
 * leaves it unchanged is accepted even if that foreman has since been deactivated, so the office
 * can still fix a phone number without re-assigning the crew.
 */
async function resolveForeman(db: DbOrTx, me: CurrentUser, roleId: number, foreman: number | null | undefined, memberId?: number, keep?: number | null) {
  if (!needsForeman(roleId)) return null;
  if (foreman == null) throw badRequest(MSG.foreman, { foreman: MSG.foreman });
  if (foreman === memberId) throw badRequest(MSG.foremanInvalid, { foreman: MSG.foremanInvalid });
  if (keep != null && foreman === keep) return foreman;
  const row = await repo.findUser(db, me.companyId, foreman);
  if (!row || row.roleId !== ROLE.FOREMAN || row.crewStatus !== CREW_STATUS.ACTIVE) {
    throw badRequest(MSG.foremanInvalid, { foreman: MSG.foremanInvalid });
  }
  return foreman;
}

export async function listCrew(ctx: AppContext, me: CurrentUser): Promise<CrewMember[]> {
  return (await repo.listCrew(ctx.db, me.companyId)).map(toMember);
}

/** Whether `userId` is an active Foreman (role 3) of the company: who may run a job (docs/product/rules.md §1.2 Job save). */
export async function isActiveForeman(db: DbOrTx, companyId: number, userId: number): Promise<boolean> {
  const u = await repo.findUser(db, companyId, userId);
  return !!u && u.roleId === ROLE.FOREMAN && u.crewStatus === CREW_STATUS.ACTIVE;
}

export const foremen = (ctx: AppContext, me: CurrentUser) => repo.listActiveByRole(ctx.db, me.companyId, [ROLE.FOREMAN]);

export const workingForemen = (ctx: AppContext, me: CurrentUser) => repo.listActiveByRole(ctx.db, me.companyId, [ROLE.WORKING_FOREMAN]);

/** The active working foremen and crew whose foreman is the job's foreman (none when it has no foreman). */
export async function foremanCrew(ctx: AppContext, me: CurrentUser, jobId: number) {
  const job = await findJob(ctx.db, me.companyId, jobId);
  if (!job) throw notFound('job');
  if (job.foremanId == null) return [];
  return repo.listCrewOfForeman(ctx.db, me.companyId, job.foremanId, CREW_ROLES);
}

/**
 * Adds a member with no password and mails them an invitation link (the reset flow); until they
 * use it, sign-in answers 'Account has not been verified…'. The member is saved even if the mail
 * fails: the reply says so and Reset Password sends the link again.
 */
export async function createMember(ctx: AppContext, me: CurrentUser, body: CrewCreate, log: (err: unknown) => void): Promise<CrewSaveReply> {
  if (!canGrantRole(me.roleId, body.role_id)) throw forbidden(MSG.adminOnlyGrant);
  await assertEmailAvailable(ctx.db, me.id, body.email);
  // Each new member is mailed an invitation: one office account must not become a mail cannon.
  if (!(await takeInvitationBudget(ctx.db, me.id))) throw tooMany(MSG.tooManyRequests);

  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const foremanId = await resolveForeman(tx, me, body.role_id, body.foreman);
      const row = await repo.insertMember(tx, {
        companyId: me.companyId,
        roleId: body.role_id,
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        phoneNumber: body.phone_number || null,
        passwordHash: null,
        crewStatus: body.crew_status,
        foremanId,
      });
      await recordDiff(tx, me, { entity: 'crew', entityId: row.id }, null, crewView((await repo.findUser(tx, me.companyId, row.id))!));
      return row.id;
    });
  } catch (err) {
    // Two saves of one address at once: the unique index lets one through.
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }

  const crew = await memberOrThrow(ctx.db, me.companyId, id);
  if (crew.crew_status !== CREW_STATUS.ACTIVE) return { success: true, crew, invited: false };
  try {
    await sendPasswordLink(ctx, { id, email: crew.email, firstName: crew.first_name, companyId: me.companyId }, 'invite', me);
    return { success: true, crew, invited: true };
  } catch (err) {
    log(err);
    return { success: true, crew, invited: false, message: MSG.crewInviteFailed };
  }
}

/** A crew member as the history compares it (API field names; docs/product/records.md §1). */
const crewView = (u: repo.UserRecord): HistoryView => ({
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  phone_number: u.phoneNumber,
  role_id: u.roleId,
  crew_status: u.crewStatus,
  foreman_id: u.foremanId,
});

export async function updateMember(ctx: AppContext, me: CurrentUser, id: number, body: CrewUpdate): Promise<CrewSaveReply> {
  await ctx.db.transaction(async (tx) => {
    const existing = await repo.findUser(tx, me.companyId, id);
    if (!existing) throw notFound('crew member');
    if (existing.roleId === ROLE.ADMIN && me.roleId !== ROLE.ADMIN) throw forbidden(MSG.adminOnlyEdit);
    if (body.role_id !== existing.roleId && !canGrantRole(me.roleId, body.role_id)) throw forbidden(MSG.adminOnlyGrant);
    if (body.email != null && body.email.toLowerCase() !== existing.email.toLowerCase()) {
      throw badRequest(MSG.crewEmailReadOnly, { email: MSG.crewEmailReadOnly });
    }
    // An office without its last Admin, or a user locked out by their own click, helps no one.
    if (id === me.id && (body.role_id !== existing.roleId || body.crew_status !== CREW_STATUS.ACTIVE)) {
      throw badRequest(MSG.crewSelfChange);
    }
    const foremanId = await resolveForeman(tx, me, body.role_id, body.foreman, id, existing.foremanId);
    await repo.updateMember(tx, me.companyId, id, {
      firstName: body.first_name,
      lastName: body.last_name,
      phoneNumber: body.phone_number || null,
      roleId: body.role_id,
      foremanId,
      crewStatus: body.crew_status,
    });
    await recordDiff(tx, me, { entity: 'crew', entityId: id }, crewView(existing), crewView((await repo.findUser(tx, me.companyId, id))!));
  });
  return { success: true, crew: await memberOrThrow(ctx.db, me.companyId, id) };
}

/**
 * A member of the caller's company who may be mailed a link now: active, and within the
 * 5-mails-per-15-minutes budget of that member, shared by every office account that asks.
 */
async function mailableMember(ctx: AppContext, me: CurrentUser, id: number) {
  const user = await repo.findUser(ctx.db, me.companyId, id);
  if (!user) throw notFound('crew member');
  if (user.crewStatus !== CREW_STATUS.ACTIVE) throw badRequest(MSG.crewResetInactive);
  return user;
}

async function mailLink(ctx: AppContext, me: CurrentUser, user: repo.UserRecord, log: (err: unknown) => void) {
  if (!(await takeMemberMailBudget(ctx.db, user.id))) throw tooMany(MSG.tooManyMails);
  try {
    // Never set a password: the link is an invitation, from whoever sent it this time.
    await sendPasswordLink(ctx, user, user.passwordHash ? 'reset' : 'invite', me);
  } catch (err) {
    log(err);
    throw new AppError(502, MSG.mailFailed);
  }
}

/** The crew modal's Reset Password: mails the member a link (an invitation if they never set one). */
export async function sendResetLink(ctx: AppContext, me: CurrentUser, id: number, log: (err: unknown) => void) {
  await mailLink(ctx, me, await mailableMember(ctx, me, id), log);
  return { success: true, message: MSG.crewResetSent };
}

/**
 * The roster's Resend invitation: a new 7-day invitation for a member who has
 * not set a password yet. Once they have, 409: Reset Password is what they need.
 */
export async function resendInvitation(ctx: AppContext, me: CurrentUser, id: number, log: (err: unknown) => void) {
  const user = await mailableMember(ctx, me, id);
  if (user.passwordHash) throw conflict(MSG.crewAlreadyJoined);
  await mailLink(ctx, me, user, log);
  return { success: true, message: MSG.crewInviteResent };
}
