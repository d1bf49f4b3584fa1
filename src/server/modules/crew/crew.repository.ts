import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CREW_STATUS } from '../../../shared/constants';
import type { DbOrTx } from '../../db/client';
import { companyRoles, users } from '../../db/schema/index';

const foremen = alias(users, 'crew_foreman');

/** docs/product/entities.md §9 Crew member columns; every query is scoped by the caller's company. */
const memberColumns = {
  id: users.id,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
  phone_number: users.phoneNumber,
  role_id: users.roleId,
  display_role_name: sql<string>`coalesce(${companyRoles.displayRoleName}, '')`,
  crew_status: users.crewStatus,
  foreman: users.foremanId,
  foreman_firstname: foremen.firstName,
  foreman_lastname: foremen.lastName,
  created: users.createdDate,
  /** Never set a password: the invitation is still open (the roster offers to re-send it). */
  invitation_pending: sql<boolean>`${users.passwordHash} is null`,
};

function selectMembers(db: DbOrTx) {
  return db
    .select(memberColumns)
    .from(users)
    .leftJoin(companyRoles, and(eq(companyRoles.companyId, users.companyId), eq(companyRoles.roleId, users.roleId)))
    .leftJoin(foremen, and(eq(foremen.id, users.foremanId), eq(foremen.companyId, users.companyId)));
}
export type MemberRow = Awaited<ReturnType<typeof listCrew>>[number];

export const listCrew = (db: DbOrTx, companyId: number) =>
  selectMembers(db).where(eq(users.companyId, companyId)).orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));

export const findMember = async (db: DbOrTx, companyId: number, id: number) =>
  (await selectMembers(db).where(and(eq(users.companyId, companyId), eq(users.id, id))))[0];

/** The raw row, for rules that need fields the list does not show (password set or not). */
export const findUser = async (db: DbOrTx, companyId: number, id: number) =>
  (await db.select().from(users).where(and(eq(users.companyId, companyId), eq(users.id, id))))[0];
export type UserRecord = typeof users.$inferSelect;

/** Active members of the given roles, as foreman options. Inactive members are never offered. */
export const listActiveByRole = (db: DbOrTx, companyId: number, roleIds: readonly number[]) =>
  db
    .select({ id: users.id, first_name: users.firstName, last_name: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.roleId, [...roleIds]), eq(users.crewStatus, CREW_STATUS.ACTIVE)))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));

/** The active members whose crew foreman is `foremanId`, limited to the given roles. */
export const listCrewOfForeman = (db: DbOrTx, companyId: number, foremanId: number, roleIds: readonly number[]) =>
  db
    .select({
      id: users.id,
      first_name: users.firstName,
      last_name: users.lastName,
      role_id: users.roleId,
      display_role_name: sql<string>`coalesce(${companyRoles.displayRoleName}, '')`,
    })
    .from(users)
    .leftJoin(companyRoles, and(eq(companyRoles.companyId, users.companyId), eq(companyRoles.roleId, users.roleId)))
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.foremanId, foremanId),
        inArray(users.roleId, [...roleIds]),
        eq(users.crewStatus, CREW_STATUS.ACTIVE),
      ),
    )
    .orderBy(asc(users.roleId), asc(users.firstName), asc(users.lastName), asc(users.id));

export const insertMember = async (db: DbOrTx, values: typeof users.$inferInsert) =>
  (await db.insert(users).values(values).returning({ id: users.id }))[0];

export const updateMember = (
  db: DbOrTx,
  companyId: number,
  id: number,
  values: Pick<typeof users.$inferInsert, 'firstName' | 'lastName' | 'phoneNumber' | 'roleId' | 'foremanId' | 'crewStatus'>,
) => db.update(users).set(values).where(and(eq(users.companyId, companyId), eq(users.id, id)));
