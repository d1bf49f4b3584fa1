import { createHash, randomBytes } from 'node:crypto';
import { MSG } from '../../../shared/messages';
import { API_TOKEN_PREFIX, type ApiTokenCreate, type ApiTokenCreateReply, type ApiTokenItem, type ApiTokensReply } from '../../../shared/api-tokens.schemas';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import * as repo from './api-tokens.repository';

/**
 * API tokens (docs/product/integrations.md §API tokens, decision 049). A token is a session of
 * its own kind: a row read on every request (plugins/auth.ts), so revoking it is seen at once by
 * every process. It acts as the Admin who made it, at the token's role or that person's current
 * role, whichever may do less.
 */

/** Only the hash is stored. The secret is 32 random bytes: SHA-256 is enough, there is nothing to guess. */
export const hashApiToken = (secret: string) => createHash('sha256').update(secret).digest('hex');

const toItem = (r: Awaited<ReturnType<typeof repo.listTokens>>[number]): ApiTokenItem => ({
  id: r.id,
  name: r.name,
  role_id: r.roleId,
  hint: r.hint,
  created_at: r.createdAt.toISOString(),
  created_by_name: `${r.firstName} ${r.lastName}`.trim(),
  expires_at: r.expiresAt?.toISOString() ?? null,
  last_used_at: r.lastUsedAt?.toISOString() ?? null,
});

/** POST /api-tokens: the secret in the reply, this once. */
export async function createToken(ctx: AppContext, me: CurrentUser, input: ApiTokenCreate): Promise<ApiTokenCreateReply> {
  // Role 1 is Admin and 6 Apprentice: a higher number may do less.
  if (input.role_id < me.roleId) throw badRequest(MSG.apiTokenRoleTooHigh, { role_id: MSG.apiTokenRoleTooHigh });
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest(MSG.apiTokenExpiryPast, { expires_at: MSG.apiTokenExpiryPast });
  const secret = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const id = await repo.insertToken(ctx.db, {
    companyId: me.companyId,
    createdBy: me.id,
    name: input.name,
    roleId: input.role_id,
    tokenHash: hashApiToken(secret),
    hint: secret.slice(-4),
    expiresAt,
  });
  const [row] = await repo.listTokens(ctx.db, me.companyId, id);
  return { token: toItem(row), secret };
}

/** GET /api-tokens: the company's tokens with their last use; never a secret. */
export async function listTokens(ctx: AppContext, me: CurrentUser): Promise<ApiTokensReply> {
  return { tokens: (await repo.listTokens(ctx.db, me.companyId)).map(toItem) };
}

/** DELETE /api-tokens/{id}: gone at once; another company's (or one revoked already) is 404. */
export async function revokeToken(ctx: AppContext, me: CurrentUser, id: number) {
  if ((await repo.deleteToken(ctx.db, me.companyId, id)) === 0) throw new AppError(404, MSG.apiTokenNotFound);
  return { success: true as const };
}
