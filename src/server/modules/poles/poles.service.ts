import { MSG } from '../../../shared/messages';
import { addPoleMissing, POLE_SEARCH_LIMIT, type AddPoleBody, type PoleFields } from '../../../shared/poles.schemas';
import type { Pole, Ticket } from '../../../shared/tickets.schemas';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { badRequest, conflict, notFound } from '../../errors';
import type { CurrentUser } from '../../plugins/auth';
import { findJob, type JobRecord } from '../job-record/job-record.service';
import { findUtility } from '../reference/reference.service';
import * as repo from './poles.repository';

/**
 * Poles of the ticket window (docs/product/rules.md §2.2 Pole tab, §5 Add pole, §7 Poles). Searches are prefix
 * matches, case-insensitive, of at most POLE_SEARCH_LIMIT rows, always within the caller's company.
 */

/** A pole of the company, as the API shows it (the tickets module copies its place onto a new ticket). */
export const findPole = repo.findPole;

/**
 * What adding a pole to a job needs of the tickets module: its ticket, written in the pole's
 * transaction, then read as the reply shows it. The tickets module sits above poles (a ticket
 * shows and creates poles), so poles does not import it: app.ts hands tickets.service's own
 * functions to poleRoutes (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */
export interface TicketsOfPoles {
  /** Inserts the ticket and records its creation in the history (in the caller's transaction). */
  createTicketForPole(db: DbOrTx, user: CurrentUser, job: JobRecord, poleId: number, dueDate: string | null | undefined): Promise<number>;
  loadTicket(db: DbOrTx, companyId: number, ticketId: number): Promise<Ticket | null>;
}

/** A utility given as id or code; '' / undefined = all (null); unknown = no pole can match. */
async function utilityFilter(ctx: AppContext, companyId: number, utility: string | undefined): Promise<number | null | 'none'> {
  const u = utility?.trim();
  if (!u || u === '-1' || u.toLowerCase() === 'all') return null;
  const found = await findUtility(ctx.db, companyId, /^\d{1,10}$/.test(u) ? Number(u) : u);
  return found ? found.id : 'none';
}

/** GET /poles/accessTypes: the company's access types, by id. */
export const accessTypes = (ctx: AppContext, user: CurrentUser) => repo.listAccessTypes(ctx.db, user.companyId);

/** GET /poles/byUtility → {poles}. */
export async function byUtility(ctx: AppContext, user: CurrentUser, q: { utility?: string; pole?: string; line?: string }) {
  const utilityId = await utilityFilter(ctx, user.companyId, q.utility);
  if (utilityId === 'none') return { poles: [] };
  return {
    poles: await repo.searchPoles(ctx.db, { companyId: user.companyId, utilityId, pole: q.pole, line: q.line, limit: POLE_SEARCH_LIMIT }),
  };
}

/** GET /poles/polesByPoleOrLine → {poles}: porlType 'line' searches (and orders) by line, 'pole' by pole. */
export async function byPoleOrLine(ctx: AppContext, user: CurrentUser, q: { pole?: string; line?: string; porlType?: string }) {
  const type = q.porlType?.trim().toLowerCase();
  const pole = type === 'line' ? undefined : q.pole;
  const line = type === 'pole' ? undefined : q.line;
  return {
    poles: await repo.searchPoles(ctx.db, {
      companyId: user.companyId,
      pole,
      line,
      orderBy: type === 'line' ? 'line' : 'pole',
      limit: POLE_SEARCH_LIMIT,
    }),
  };
}

/** GET /poles/specificPole → the poles with exactly this name on exactly this line (of the utility). */
export async function specificPole(ctx: AppContext, user: CurrentUser, q: { pole?: string; line?: string; utility?: string }): Promise<Pole[]> {
  if (!q.pole?.trim()) return [];
  const utilityId = await utilityFilter(ctx, user.companyId, q.utility);
  if (utilityId === 'none') return [];
  return repo.searchPoles(ctx.db, { companyId: user.companyId, utilityId, pole: q.pole, line: q.line, exact: true, limit: POLE_SEARCH_LIMIT });
}

async function checkRefs(ctx: AppContext, companyId: number, f: PoleFields) {
  if (f.utility_id_owning_pole != null && !(await findUtility(ctx.db, companyId, f.utility_id_owning_pole))) {
    throw badRequest(MSG.poleUtilityInvalid);
  }
  if (f.accessibility_id != null && !(await repo.accessTypeExists(ctx.db, companyId, f.accessibility_id))) {
    throw badRequest(MSG.poleAccessTypeInvalid);
  }
}

/** PUT /poles/ {pole} → {pole}: saves the pole fields of the Pole tab. */
export async function updatePole(ctx: AppContext, user: CurrentUser, input: PoleFields & { id: number }): Promise<{ pole: Pole }> {
  const { id, ...fields } = input;
  if (fields.utility_id_owning_pole === null) throw badRequest(MSG.poleUtilityInvalid);
  await checkRefs(ctx, user.companyId, fields);
  if (!(await repo.updatePole(ctx.db, user.companyId, id, fields))) throw notFound('pole');
  return { pole: (await repo.findPole(ctx.db, user.companyId, id))! };
}

/**
 * A new pole for a ticket (docs/product/rules.md §2.3 Add pole): pole name, line name and one of the company's
 * utilities are required, and no ticket of the job may already be on that pole and line.
 */
export async function insertNewPole(
  db: DbOrTx,
  companyId: number,
  p: Omit<PoleFields, 'pole_name' | 'line_name'> & { pole_name?: string | null; line_name?: string | null; utility?: number | string | null },
  jobId: number | null,
): Promise<number> {
  const utilityId = Number(p.utility ?? p.utility_id_owning_pole);
  if (addPoleMissing({ pole_name: p.pole_name, line_name: p.line_name, utility: utilityId })) throw badRequest(MSG.addPoleMissing);
  if (!(await findUtility(db, companyId, utilityId))) throw badRequest(MSG.addPoleMissing);
  if (p.accessibility_id != null && !(await repo.accessTypeExists(db, companyId, p.accessibility_id))) {
    throw badRequest(MSG.poleAccessTypeInvalid);
  }
  const poleName = p.pole_name!.trim();
  const lineName = p.line_name!.trim();
  if (jobId != null && (await repo.ticketWithPoleLine(db, companyId, jobId, poleName, lineName)) !== undefined) {
    throw conflict(MSG.addPoleDuplicate);
  }
  const { utility: _u, ...fields } = p;
  return repo.insertPole(db, companyId, { ...fields, pole_name: poleName, line_name: lineName, utility_id_owning_pole: utilityId });
}

/**
 * POST /poles/ (docs/product/rules.md §2.3 Add pole): a new pole; with job_id also its ticket in that job, in the
 * same transaction (docs/product/rules.md §2.2: "it is saved immediately"). Missing pole name, line name or
 * utility → 400 MSG.addPoleMissing; a ticket of the job on that pole and line → 409.
 */
export async function addPole(ctx: AppContext, user: CurrentUser, body: AddPoleBody, tickets: TicketsOfPoles): Promise<{ ok: true; pole: Pole; ticket?: Ticket }> {
  const { job_id: jobId, due_date: dueDate, utility, ...fields } = body;
  const { poleId, ticketId } = await ctx.db.transaction(async (tx) => {
    const job = jobId != null ? await findJob(tx, user.companyId, jobId) : undefined;
    if (jobId != null && !job) throw notFound('job');
    const poleFields = { ...fields, pole_name: fields.pole_name ?? undefined, line_name: fields.line_name ?? undefined };
    const newPoleId = await insertNewPole(tx, user.companyId, { ...poleFields, utility }, job?.id ?? null);
    const newTicketId = job ? await tickets.createTicketForPole(tx, user, job, newPoleId, dueDate) : undefined;
    return { poleId: newPoleId, ticketId: newTicketId };
  });
  const pole = (await repo.findPole(ctx.db, user.companyId, poleId))!;
  if (ticketId === undefined) return { ok: true, pole };
  const ticket = await tickets.loadTicket(ctx.db, user.companyId, ticketId);
  return { ok: true, pole, ticket: ticket! };
}
