import type { FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { can, type Action } from '../../shared/permissions';
import { CREW_STATUS, CSRF_HEADER, SESSION_COOKIE } from '../../shared/constants';
import { ERROR_CODE } from '../../shared/error-codes';
import { MSG } from '../../shared/messages';
import { apiTokens, sessions, users } from '../db/schema/index';
import { forbidden, unauthorized } from '../errors';
import { verifyToken } from '../modules/auth/token';
import { touchSession } from '../modules/auth/sessions.repository';
import { SESSION_TOUCH_MS } from '../modules/auth/sessions.service';
import { hashApiToken } from '../modules/auth/api-tokens.service';
import { touchToken } from '../modules/auth/api-tokens.repository';
import { API_TOKEN_PREFIX } from '../../shared/api-tokens.schemas';
import { changesState, CHECKED_IN_HANDLER, type RoutePermission } from './routes';
import type { App, AppContext } from '../context';

/** The signed-in caller, as loaded fresh from the database on every request. */
export interface CurrentUser {
  id: number;
  companyId: number;
  roleId: number;
  firstName: string;
  lastName: string;
  email: string;
  /**
   * Set when the caller is an API token (decision 049): the request acts as the token's creator
   * (`id`, names above) at the token's role capped by the creator's; this names the token, so a
   * record of the change (history) can say "Jane Admin via API token 'ERP sync'".
   */
  apiToken?: { id: number; name: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route that is not `config: { public: true }`. */
    user: CurrentUser;
    /** The session row of this request's token (docs/product/sessions-and-safety.md §4): "This device", and what Logout ends. */
    sessionId: string;
    /** Throws 403 unless the caller's role may do `action` (the matrix of docs/product/roles-and-statuses.md §2). */
    require(action: Action): void;
  }
  interface FastifyContextConfig {
    /** Open to callers without a token (sign-in, reset, health, signed storage URLs). */
    public?: boolean;
  }
}

function tokenOf(request: FastifyRequest): { token: string | undefined; fromCookie: boolean } {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return { token: header.slice(7).trim(), fromCookie: false };
  return { token: request.cookies?.[SESSION_COOKIE], fromCookie: true };
}

/**
 * What an API token may not do (decision 049): act on a person's own account (profile,
 * password, sessions) or make and revoke tokens, so a leaked token cannot mint more.
 */
export const NOT_FOR_API_TOKENS: ReadonlySet<RoutePermission | undefined> = new Set(['profile', 'apiTokens.manage']);

/**
 * A browser attaches the cookie to any request to our host, including a form another site
 * submits or an <img src> on a page of ours; it attaches our custom header only when our own
 * script asks (a cross-origin page would need a CORS preflight, which we never grant). So a
 * state-changing call signed in by the cookie alone must carry the header.
 */
function needsCsrfHeader(request: FastifyRequest): boolean {
  return changesState(request.method, request.routeOptions.config);
}

/**
 * Every route requires a valid token unless it says `config: { public: true }`, and a role
 * allowed its declared `config.allow` (plugins/routes.ts). The token's session row and its user
 * are read on each request (one query), so an ended session (logout, "everywhere", a password
 * reset), a deactivated member or a changed role takes effect at once on every process, and no
 * process keeps session state of its own.
 */
export function registerAuth(app: App, { db, config }: AppContext) {
  app.decorateRequest('user', null as unknown as CurrentUser);
  app.decorateRequest('sessionId', '');
  app.decorateRequest('require', function (this: FastifyRequest, action: Action) {
    if (!can(this.user?.roleId, action)) throw forbidden();
  });

  // Who the caller is, whether they came with a session or an API token.
  const callerColumns = {
    id: users.id,
    companyId: users.companyId,
    roleId: users.roleId,
    firstName: users.firstName,
    lastName: users.lastName,
    email: users.email,
    crewStatus: users.crewStatus,
  };

  // Built once and prepared on the server: this runs before every request.
  const sessionUser = db
    .select({
      ...callerColumns,
      // Compared here, not by the caller's clock: processes may disagree on the time.
      stale: sql<boolean>`${sessions.lastSeenAt} < now() - make_interval(secs => ${SESSION_TOUCH_MS / 1000})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('sessionId')),
        eq(users.id, sql.placeholder('userId')),
        eq(users.companyId, sql.placeholder('companyId')),
        gt(sessions.expiresAt, sql`now()`),
      ),
    )
    .prepare('session_user');

  // An API token's row and its creator, by the secret's hash: like a session, read on every
  // request, so a revoked or expired token is refused at once by every process.
  const tokenUser = db
    .select({
      ...callerColumns,
      tokenId: apiTokens.id,
      tokenName: apiTokens.name,
      tokenRoleId: apiTokens.roleId,
      stale: sql<boolean>`(${apiTokens.lastUsedAt} is null or ${apiTokens.lastUsedAt} < now() - make_interval(secs => ${SESSION_TOUCH_MS / 1000}))`,
    })
    .from(apiTokens)
    .innerJoin(users, and(eq(users.id, apiTokens.createdBy), eq(users.companyId, apiTokens.companyId)))
    .where(and(eq(apiTokens.tokenHash, sql.placeholder('hash')), or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, sql`now()`))))
    .prepare('api_token_user');

  /** The caller of an API token, or 401 (decision 049). */
  async function apiTokenCaller(request: FastifyRequest, secret: string): Promise<CurrentUser> {
    const [row] = await tokenUser.execute({ hash: hashApiToken(secret) });
    if (!row || row.crewStatus !== CREW_STATUS.ACTIVE) throw unauthorized(MSG.apiTokenInvalid);
    const { crewStatus: _status, stale, tokenId, tokenName, tokenRoleId, ...user } = row;
    if (stale) await touchToken(db, tokenId, SESSION_TOUCH_MS);
    if (NOT_FOR_API_TOKENS.has(request.routeOptions.config?.allow)) throw forbidden(MSG.apiTokenNotForThis, ERROR_CODE.apiTokenNotForThis);
    // Role 1 is Admin, 6 Apprentice: the larger number may do less. A creator moved to a lower
    // role takes their tokens down with them.
    return { ...user, roleId: Math.max(user.roleId, tokenRoleId), apiToken: { id: tokenId, name: tokenName } };
  }

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    const { token, fromCookie } = tokenOf(request);
    if (!token) throw unauthorized();
    if (token.startsWith(API_TOKEN_PREFIX)) {
      // A cookie is sent by the browser on its own, cross-site too: a token there is refused,
      // so an API token never needs (nor gets) the CSRF header's protection.
      if (fromCookie) throw unauthorized(MSG.apiTokenInCookie);
      request.user = await apiTokenCaller(request, token);
    } else {
      if (fromCookie && needsCsrfHeader(request) && request.headers[CSRF_HEADER] === undefined) throw forbidden(MSG.csrfMissing, ERROR_CODE.csrfMissing);
      const result = await verifyToken(token, config.jwtSecret);
      if (!result.ok) throw unauthorized(result.expired ? MSG.sessionExpired : MSG.notSignedIn);
      const { userId, companyId, sessionId } = result.claims;
      const [row] = await sessionUser.execute({ sessionId, userId, companyId });
      // No row: the session was ended (logout on this device, "everywhere", a password reset).
      if (!row || row.crewStatus !== CREW_STATUS.ACTIVE) throw unauthorized(MSG.sessionExpired);
      const { crewStatus: _status, stale, ...user } = row;
      if (stale) await touchSession(db, sessionId, request.ip, SESSION_TOUCH_MS);
      request.user = user;
      request.sessionId = sessionId;
    }
    const user = request.user;
    // Checked before the body is read: a role that may not act gets 403 whatever it sent. A
    // route that declares nothing is refused (route-permissions.test.ts keeps there being none).
    const allow = request.routeOptions.config?.allow;
    if (allow !== CHECKED_IN_HANDLER && (!allow || !can(user.roleId, allow))) throw forbidden();
  });
}
