import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { AppContext } from '../../context';
import type { CurrentUser } from '../../plugins/auth';
import { AppError } from '../../errors';
import { MSG } from '../../../shared/messages';
import type { SessionItem } from '../../../shared/auth.schemas';
import * as repo from './sessions.repository';
import { signToken } from './token';
import { summarizeUserAgent } from './user-agent';

/** The caller and the session of their request's token. */
export interface Me {
  user: CurrentUser;
  sessionId: string;
}

/** Where a sign-in comes from: the request's user agent and client address. */
export interface Device {
  userAgent: string | undefined;
  ip: string;
}

/** Last seen is written at most this often per session (not on every request). */
export const SESSION_TOUCH_MS = 60_000;

/**
 * A new session (docs/product/sessions-and-safety.md §4): a row, then the token that names it. The row lives as long as the
 * token (`expires_at` = the token's `exp`); ending it ends the token on its next request.
 */
export async function startSession(ctx: AppContext, user: { id: number; companyId: number; roleId: number }, device: Device): Promise<string> {
  const sessionId = randomUUID();
  const token = await signToken({ userId: user.id, companyId: user.companyId, roleId: user.roleId, sessionId }, ctx.config.jwtSecret, ctx.config.jwtExpiresIn);
  const { browser, system } = summarizeUserAgent(device.userAgent);
  await repo.insertSession(ctx.db, { id: sessionId, userId: user.id, browser, system, address: device.ip, expiresAt: new Date(decodeJwt(token).exp! * 1000) });
  if (Math.random() < 0.01) await repo.sweepExpiredSessions(ctx.db);
  return token;
}

/** GET /crew/sessions: mine, this device first, then the most recently seen. */
export async function listSessions(ctx: AppContext, { user, sessionId }: Me): Promise<{ sessions: SessionItem[] }> {
  const rows = await repo.listSessions(ctx.db, user.id);
  const items = rows.map((r) => ({
    id: r.id,
    current: r.id === sessionId,
    browser: r.browser,
    system: r.system,
    address: r.address,
    created_at: r.createdAt.toISOString(),
    last_seen_at: r.lastSeenAt.toISOString(),
  }));
  return { sessions: [...items.filter((s) => s.current), ...items.filter((s) => !s.current)] };
}

/** POST /crew/logout: this device only. */
export async function logout(ctx: AppContext, { user, sessionId }: Me) {
  await repo.endSession(ctx.db, user.id, sessionId);
  return { success: true };
}

/** POST /crew/logout-all: every session of mine; /crew/logout-others: every one but this ("Sign out everywhere else"). */
export async function logoutAll(ctx: AppContext, { user, sessionId }: Me, keepCurrent: boolean) {
  const ended = await repo.endAllSessions(ctx.db, user.id, keepCurrent ? sessionId : undefined);
  return { success: true, ended };
}

/** DELETE /crew/sessions/{id}: one of mine; anyone else's (or an ended one) is 404. */
export async function endSession(ctx: AppContext, { user, sessionId }: Me, id: string) {
  if ((await repo.endSession(ctx.db, user.id, id)) === 0) throw new AppError(404, MSG.sessionNotFound);
  return { success: true, current: id === sessionId };
}
