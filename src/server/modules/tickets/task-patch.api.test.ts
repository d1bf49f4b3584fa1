import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODE } from '../../../shared/error-codes';
import { MSG } from '../../../shared/messages';
import type { Ticket } from '../../../shared/tickets.schemas';
import { ticketTasks } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * One task at a time (docs/product/integrations.md §2, docs/product/api.md §4): PATCH changes that task
 * only; PUT /tickets/ without `tasks` leaves every task as stored.
 */

let t: TestApp;
const tok: Record<string, string> = {};
let ngrid: number;

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.foreman, tok.wforeman, tok.lineman, tok.apprentice, tok.other] = await t.loginAs('admin', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
  ({ ngrid } = await t.demo());
});

const api = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, token: string | undefined, body?: unknown, headers?: Record<string, string>) =>
  t.request({ method, url: `/api/v1${url}`, token, body, headers });

/** A new ticket with three tasks of the demo utility's library. */
async function ticketWithTasks(name: string): Promise<Ticket> {
  const res = await api('POST', '/poles/', tok.admin, { pole_name: name, line_name: 'P', utility: ngrid, job_id: (await t.demo()).job['J-1001'] });
  expect(res.statusCode).toBe(200);
  const created: Ticket = res.json().ticket;
  const list: { id: number }[] = (await api('GET', `/units?utility_id=${ngrid}`, tok.admin)).json();
  const tasks = list.slice(0, 3).map((u, i) => ({ task_id: u.id, init_qty: 5 + i, additional_qty: 0 }));
  const saved = await api('PUT', '/tickets/', tok.admin, { ticket: { id: created.id, version: created.version, tasks } });
  expect(saved.statusCode).toBe(200);
  const ticket: Ticket = saved.json().ticket;
  expect(ticket.tasks).toHaveLength(3);
  return ticket;
}

const storedTasks = (ticketId: number) =>
  t.ctx.db.select().from(ticketTasks).where(eq(ticketTasks.ticketId, ticketId)).orderBy(asc(ticketTasks.id));

describe('PATCH /tickets/{id}/tasks/{ticket_task_id}', () => {
  it('changes that task only and answers the ticket with its new version', async () => {
    const ticket = await ticketWithTasks('PATCH-1');
    const [a, b, c] = ticket.tasks;
    const res = await api('PATCH', `/tickets/${ticket.id}/tasks/${b.ticket_task_id}`, tok.wforeman, {
      version: ticket.version,
      additional_qty: 2,
      date_completed: '2026-11-20T15:00:00.000Z',
    });
    expect(res.statusCode).toBe(200);
    const after: Ticket = res.json().ticket;
    expect(after.version).toBe(ticket.version + 1);
    expect(after.tasks.map((x) => x.ticket_task_id)).toEqual([a, b, c].map((x) => x.ticket_task_id));
    const stored = await storedTasks(ticket.id);
    expect(stored.map((x) => [x.id, x.initQty, x.additionalQty])).toEqual([
      [a.ticket_task_id, 5, 0],
      [b.ticket_task_id, 6, 2],
      [c.ticket_task_id, 7, 0],
    ]);
    expect(stored[1].dateCompleted?.toISOString()).toBe('2026-11-20T15:00:00.000Z');
    expect(stored[0].dateCompleted).toBeNull();
    expect(after.tasks[1]).toMatchObject({ additional_qty: 2, date_completed: '2026-11-20T15:00:00.000Z' });
  });

  it('answers 409 stale_version for a version that is not the current one, and changes nothing', async () => {
    const ticket = await ticketWithTasks('PATCH-2');
    const task = ticket.tasks[0];
    const first = await api('PATCH', `/tickets/${ticket.id}/tasks/${task.ticket_task_id}`, tok.admin, { version: ticket.version, init_qty: 9 });
    expect(first.statusCode).toBe(200);
    const stale = await api('PATCH', `/tickets/${ticket.id}/tasks/${task.ticket_task_id}`, tok.admin, { version: ticket.version, init_qty: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: MSG.staleVersion, code: ERROR_CODE.staleVersion });
    expect((await storedTasks(ticket.id))[0].initQty).toBe(9);
  });

  it('requires the version, and clamps the change as a ticket save does', async () => {
    const ticket = await ticketWithTasks('PATCH-3');
    const url = `/tickets/${ticket.id}/tasks/${ticket.tasks[0].ticket_task_id}`;
    expect((await api('PATCH', url, tok.admin, { additional_qty: 1 })).statusCode).toBe(400);
    const res = await api('PATCH', url, tok.admin, { version: ticket.version, additional_qty: -100 });
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.tasks[0].additional_qty).toBe(-5);
  });

  it('answers 404 for another company, another ticket’s task and unknown ids', async () => {
    const ticket = await ticketWithTasks('PATCH-4');
    const other = await ticketWithTasks('PATCH-5');
    const body = { version: ticket.version, additional_qty: 1 };
    expect((await api('PATCH', `/tickets/${ticket.id}/tasks/${ticket.tasks[0].ticket_task_id}`, tok.other, body)).statusCode).toBe(404);
    expect((await api('PATCH', `/tickets/${ticket.id}/tasks/${other.tasks[0].ticket_task_id}`, tok.admin, body)).statusCode).toBe(404);
    expect((await api('PATCH', `/tickets/99999999/tasks/${ticket.tasks[0].ticket_task_id}`, tok.admin, body)).statusCode).toBe(404);
    expect((await storedTasks(ticket.id)).every((x) => x.additionalQty === 0)).toBe(true);
  });

  it('follows the ticket edit roles: Lineman and Apprentice 403, Working Foreman and Foreman may', async () => {
    const ticket = await ticketWithTasks('PATCH-6');
    const url = `/tickets/${ticket.id}/tasks/${ticket.tasks[0].ticket_task_id}`;
    for (const role of ['lineman', 'apprentice']) {
      expect((await api('PATCH', url, tok[role], { version: ticket.version, additional_qty: 1 })).statusCode).toBe(403);
    }
    const res = await api('PATCH', url, tok.foreman, { version: ticket.version, additional_qty: 1 });
    expect(res.statusCode).toBe(200);
  });

  it('applies once with an Idempotency-Key: the repeat is answered from the stored reply', async () => {
    const ticket = await ticketWithTasks('PATCH-7');
    const url = `/tickets/${ticket.id}/tasks/${ticket.tasks[2].ticket_task_id}`;
    const body = { version: ticket.version, additional_qty: 3 };
    const headers = { 'idempotency-key': `patch-${ticket.id}` };
    const first = await api('PATCH', url, tok.admin, body, headers);
    const again = await api('PATCH', url, tok.admin, body, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().ticket.version).toBe(ticket.version + 1);
  });
});

describe('PUT /tickets/ without `tasks`', () => {
  it('leaves every task as stored', async () => {
    const ticket = await ticketWithTasks('PATCH-8');
    const before = await storedTasks(ticket.id);
    const res = await api('PUT', '/tickets/', tok.admin, { ticket: { id: ticket.id, version: ticket.version, description: 'No tasks sent' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket.description).toBe('No tasks sent');
    expect(await storedTasks(ticket.id)).toEqual(before);
  });
});
