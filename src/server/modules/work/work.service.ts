import { ROLE } from '../../../shared/constants';
import { can } from '../../../shared/permissions';
import { isEvidenced } from '../../../shared/evidence';
import { sortWorkTickets } from '../../../shared/work.list';
import { evidencePhotosRequired } from '../auth/auth.service';
import type { WorkQuery, WorkReply } from '../../../shared/work.schemas';
import type { AppContext } from '../../context';
import { forbidden } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import type { CachedReply, ReplyCache } from '../../plugins/reply-cache';
import * as repo from './work.repository';

/**
 * Which open tickets concern a member (docs/product/field-mode.md §1 My Work): a foreman, those of the jobs he
 * runs; a working foreman, those assigned to him and those of his crew foreman's jobs; linemen
 * and apprentices, those of their crew foreman's jobs; the office, all of them.
 */
function scopeOf(me: CurrentUser): repo.WorkScope {
  if (can(me.roleId, 'work.all')) return { kind: 'company' };
  switch (me.roleId) {
    case ROLE.FOREMAN:
      return { kind: 'foreman', foremanId: me.id };
    case ROLE.WORKING_FOREMAN:
      return { kind: 'crew', userId: me.id, assigned: true };
    case ROLE.LINEMAN:
    case ROLE.APPRENTICE:
      return { kind: 'crew', userId: me.id, assigned: false };
    default:
      throw forbidden();
  }
}

/** Who shares a reply: the office (company scope), one foreman, one crew member (his own assignments). */
function scopeKey(scope: repo.WorkScope): string {
  if (scope.kind === 'company') return 'company';
  if (scope.kind === 'foreman') return `foreman:${scope.foremanId}`;
  return `crew:${scope.userId}:${scope.assigned}`;
}

/**
 * GET /work as serialised bytes, kept per scope, query and company day in the reply cache
 * (plugins/reply-cache.ts) as the job page is (decision 054): a foreman reloads My Work all day,
 * and its 2,000 open tickets' keys and rows cost far more than their fingerprint. The
 * fingerprint is read FIRST (work.repository `workFingerprint`), then (on a change) the reply,
 * so a stored reply is never older than its fingerprint and a stale one is never served.
 */
export async function myWorkReply(ctx: AppContext, me: CurrentUser, query: WorkQuery, cache: ReplyCache): Promise<CachedReply> {
  const scope = scopeOf(me);
  const found = await repo.workFingerprint(ctx.db, me.companyId, me.id, scope, query.foreman_id);
  const key = `work:${me.companyId}:${scopeKey(scope)}:${query.foreman_id ?? ''}:${query.limit}:${found.day}`;
  return cache.get(key, found.fingerprint, () => myWork(ctx, me, query));
}

/**
 * GET /work: the caller's first `limit` open tickets in work order (src/shared/work.list.ts)
 * and how many there are in all, and their Complete tickets still short of the photos required as
 * evidence (docs/product/records.md §8). The order is the shared rule's, applied to every open
 * ticket's sort keys (one narrow statement); only the first `limit` are then read whole (a second
 * one): a foreman's 2,000 open tickets never become a megabyte reply (docs/product/scale.md §5). `foreman_id`
 * narrows any role's list to that foreman's jobs; a foreman of another company (or no foreman)
 * narrows it to nothing: the same empty list as a foreman with no open work, so it tells
 * nothing about other companies and costs no extra statement.
 */
export async function myWork(ctx: AppContext, me: CurrentUser, query: WorkQuery): Promise<WorkReply> {
  const scope = scopeOf(me);
  const [keys, required] = await Promise.all([repo.openTicketKeys(ctx.db, me.companyId, scope, query.foreman_id), evidencePhotosRequired(ctx.db, me.companyId)]);
  const first = sortWorkTickets(keys).slice(0, query.limit);
  const [rows, complete] = await Promise.all([
    repo.openTicketRows(ctx.db, me.companyId, first.map((k) => k.id)),
    repo.unevidencedTicketRows(ctx.db, me.companyId, scope, required, NEEDS_PHOTOS_MAX, query.foreman_id),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  // In the keys' order; a ticket completed between the two statements is left out.
  const tickets = first.flatMap((k) => byId.get(k.id) ?? []);
  return {
    tickets,
    total: keys.length - (first.length - tickets.length),
    needs_photos: complete.filter((t) => isEvidenced(t, required) === false),
    evidence_photos_required: required,
  };
}

/** At most this many completed tickets wait for photos on My Work: the newest, the ones a crew can still reach. */
const NEEDS_PHOTOS_MAX = 100;
