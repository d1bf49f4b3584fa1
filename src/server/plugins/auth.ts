import type { FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { can, type Action } from '../../shared/permissions';
import { CREW_STATUS, SESSION_COOKIE } from '../../shared/constants';
import { MSG } from '../../shared/messages';
import { users } from '../db/schema/index';
import { forbidden, unauthorized } from '../errors';
import { verifyToken } from '../modules/auth/token';
import type { App, AppContext } from '../context';

/** The signed-in caller, as loaded fresh from the database on every request. */
export interface CurrentUser {
  id: number;
  companyId: number;
  roleId: number;
  firstName: string;
  lastName: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route that is not `config: { public: true }`. */
    user: CurrentUser;
    /** Throws 403 unless the caller's role may do `action` (the matrix of DESIGN §4). */
    require(action: Action): void;
  }
  interface FastifyContextConfig {
    /** Open to callers without a token (sign-in, reset, health, signed storage URLs). */
    public?: boolean;
  }
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim();
  return request.cookies?.[SESSION_COOKIE];
}

/**
 * Every route requires a valid token unless it says `config: { public: true }`. The user row
 * is read on each request, so a deactivated member or a changed role takes effect at once
 * and no process keeps session state of its own.
 */
export function registerAuth(app: App, { db, config }: AppContext) {
  app.decorateRequest('user', null as unknown as CurrentUser);
  app.decorateRequest('require', function (this: FastifyRequest, action: Action) {
    if (!can(this.user?.roleId, action)) throw forbidden();
  });

  // Built once and prepared on the server: this runs before every request.
  const sessionUser = db
    .select({
      id: users.id,
      companyId: users.companyId,
      roleId: users.roleId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      crewStatus: users.crewStatus,
    })
    .from(users)
    .where(and(eq(users.id, sql.placeholder('userId')), eq(users.companyId, sql.placeholder('companyId'))))
    .prepare('session_user');

  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public || !request.routeOptions.url) return;
    const token = tokenOf(request);
    if (!token) throw unauthorized();
    const result = await verifyToken(token, config.jwtSecret);
    if (!result.ok) throw unauthorized(result.expired ? MSG.sessionExpired : MSG.notSignedIn);
    const { userId, companyId } = result.claims;
    const [row] = await sessionUser.execute({ userId, companyId });
    if (!row || row.crewStatus !== CREW_STATUS.ACTIVE) throw unauthorized(MSG.sessionExpired);
    const { crewStatus: _status, ...user } = row;
    request.user = user;
  });
}
