import { z } from 'zod';
import { LIMITS, ROLE } from './constants';
import { MSG } from './messages';

/**
 * API tokens (docs/product/integrations.md §API tokens, decision 049): request and reply
 * contracts of /api/v1/api-tokens, shared by the server and the Admin's page.
 */

/** What every secret starts with: a person or a secret scanner can tell what it is. */
export const API_TOKEN_PREFIX = 'lc_';
/** `lc_` then 32 random bytes in base64url (43 characters). */
export const API_TOKEN_PATTERN = /^lc_[A-Za-z0-9_-]{43,}$/;

export const apiTokenCreateBody = z.object({
  name: z.string().trim().min(1, MSG.apiTokenNameRequired).max(LIMITS.shortTextMax),
  /** 1 Admin … 6 Apprentice; never above the creator's own role. */
  role_id: z.number().int().min(ROLE.ADMIN).max(ROLE.APPRENTICE),
  /** ISO-8601 instant; absent or null: the token does not expire. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});
export type ApiTokenCreate = z.infer<typeof apiTokenCreateBody>;

export const apiTokenItem = z.object({
  id: z.number().int(),
  name: z.string(),
  role_id: z.number().int(),
  /** The secret's last 4 characters (the secret itself is never shown again). */
  hint: z.string(),
  created_at: z.string(),
  created_by_name: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type ApiTokenItem = z.infer<typeof apiTokenItem>;

export const apiTokensReply = z.object({ tokens: z.array(apiTokenItem) });
export type ApiTokensReply = z.infer<typeof apiTokensReply>;

/** POST reply: the only time the secret is shown. */
export const apiTokenCreateReply = z.object({
  token: apiTokenItem,
  secret: z.string().describe('The token itself, shown this once: send it as `Authorization: Bearer lc_…`. Only its hash is kept.'),
});
export type ApiTokenCreateReply = z.infer<typeof apiTokenCreateReply>;
