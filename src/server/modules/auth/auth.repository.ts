import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companies, companyRoles, passwordResetTokens, users } from '../../db/schema/index';

export const findUserByEmail = async (db: DbOrTx, email: string) =>
  (await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0];

export const findUserById = async (db: DbOrTx, id: number) => (await db.select().from(users).where(eq(users.id, id)))[0];

export const findCompanyName = async (db: DbOrTx, companyId: number) =>
  (await db.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId)))[0]?.name;

/** The company's IANA time zone (dates in exports, photo times without a zone); UTC if unset. */
export const companyTimeZone = async (db: DbOrTx, companyId: number) =>
  (await db.select({ tz: companies.timeZone }).from(companies).where(eq(companies.id, companyId)))[0]?.tz ?? 'UTC';

/** The company's evidence_photos_required (docs/product/records.md §8). */
export const evidencePhotosRequired = async (db: DbOrTx, companyId: number) =>
  (await db.select({ n: companies.evidencePhotosRequired }).from(companies).where(eq(companies.id, companyId)))[0]?.n ?? 1;

export const insertResetToken = (db: DbOrTx, userId: number, tokenHash: string, expiresAt: Date) =>
  db.insert(passwordResetTokens).values({ userId, tokenHash, expiresAt });

/** Marks the token used in the same statement that finds it, so two racing resets cannot both win. */
export async function consumeResetToken(db: DbOrTx, userId: number, tokenHash: string) {
  const [row] = await db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResetTokens.userId, userId),
        eq(passwordResetTokens.tokenHash, tokenHash),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .returning({ id: passwordResetTokens.id });
  return row;
}

/** A used link must also retire the user's other outstanding links. */
export const retireResetTokens = (db: DbOrTx, userId: number) =>
  db
    .update(passwordResetTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));

/** The caller ends the user's sessions in the same transaction (sessions.repository.ts). */
export const setPassword = (db: DbOrTx, userId: number, passwordHash: string) => db.update(users).set({ passwordHash }).where(eq(users.id, userId));

export async function findProfile(db: DbOrTx, userId: number, companyId: number) {
  const [row] = await db
    .select({
      id: users.id,
      company_id: users.companyId,
      first_name: users.firstName,
      last_name: users.lastName,
      email: users.email,
      phone_number: users.phoneNumber,
      company_name: companies.name,
      company_time_zone: companies.timeZone,
      created_date: users.createdDate,
      role_id: users.roleId,
      display_role_name: companyRoles.displayRoleName,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .leftJoin(companyRoles, and(eq(companyRoles.companyId, users.companyId), eq(companyRoles.roleId, users.roleId)))
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
  return row;
}

export const updateProfile = (
  db: DbOrTx,
  userId: number,
  values: { firstName: string; lastName: string; email: string; phoneNumber: string | null },
) => db.update(users).set(values).where(eq(users.id, userId));

export const listRoles = (db: DbOrTx, companyId: number) =>
  db
    .select({ id: companyRoles.roleId, display_role_name: companyRoles.displayRoleName })
    .from(companyRoles)
    .where(eq(companyRoles.companyId, companyId))
    .orderBy(companyRoles.roleId);

/** A company and its six role names (docs/product/roles-and-statuses.md §1: ids fixed, names per company). */
export async function insertCompany(db: DbOrTx, name: string, roleNames: Record<number, string>) {
  const [company] = await db.insert(companies).values({ name }).returning();
  await db
    .insert(companyRoles)
    .values(Object.entries(roleNames).map(([roleId, displayRoleName]) => ({ companyId: company.id, roleId: Number(roleId), displayRoleName })));
  return company;
}

export const insertUser = async (db: DbOrTx, values: typeof users.$inferInsert) =>
  (await db.insert(users).values(values).returning())[0];

/** Undoes an e-mail change whose notice could not be sent, unless the address changed again since. */
export const restoreEmail = (db: DbOrTx, userId: number, changedTo: string, previous: string) =>
  db
    .update(users)
    .set({ email: previous })
    .where(and(eq(users.id, userId), eq(users.email, changedTo)));
