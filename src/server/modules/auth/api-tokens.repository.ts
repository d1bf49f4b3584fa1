import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { apiTokens, users } from '../../db/schema/index';

/** API token rows (docs/product/integrations.md §API tokens): the only place with SQL for them. */

export async function insertToken(db: DbOrTx, values: typeof apiTokens.$inferInsert) {
  const [row] = await db.insert(apiTokens).values(values).returning({ id: apiTokens.id });
  return row.id;
}

/** The company's tokens with their creator's name, oldest first; `id` narrows to one. */
export const listTokens = (db: DbOrTx, companyId: number, id?: number) =>
  db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      roleId: apiTokens.roleId,
      hint: apiTokens.hint,
      createdAt: apiTokens.createdAt,
      expiresAt: apiTokens.expiresAt,
      lastUsedAt: apiTokens.lastUsedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.createdBy))
    .where(and(eq(apiTokens.companyId, companyId), id === undefined ? undefined : eq(apiTokens.id, id)))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id));

/** Revokes (deletes) one token of the company; the number deleted (0: not theirs, or gone already). */
export async function deleteToken(db: DbOrTx, companyId: number, id: number): Promise<number> {
  const rows = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.companyId, companyId), eq(apiTokens.id, id)))
    .returning({ id: apiTokens.id });
  return rows.length;
}

/** Last use moves forward only when older than `minAgeMs` (one write a minute per busy token at most). */
export const touchToken = (db: DbOrTx, id: number, minAgeMs: number) =>
  db
    .update(apiTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(and(eq(apiTokens.id, id), sql`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < now() - make_interval(secs => ${minAgeMs / 1000}))`));
