import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dashboardReply, type DashboardReply } from '../../shared/dashboard.schemas';
import { addDays, dayInZone, lastWeekStarts } from '../../shared/dashboard';
import { money } from '../../shared/money';
import { computeProduction } from '../../shared/production';
import { productionReply } from '../../shared/production.schemas';
import { createTestApp } from '../test/harness';
import { keptFiguresDiff, keptFiguresSnapshot } from '../test/kept-figures';
import { SEEDED_USERS } from '../test/seeded-users';
import { rowsOf } from './client';

/**
 * The production figures kept by migration 0030's triggers (decision 059) stay equal to the sums
 * over the tasks after every kind of write — task added, changed, moved, removed; ticket added,
 * completed, reopened, assigned, re-dated, marked billed, deleted; put on an invoice and taken off;
 * a unit's price; a job created (published or still importing), published, given another foreman,
 * renumbered, deleted; the company's time zone — in a random sequence of single-row and
 * bulk statements, checked after each against a from-scratch sum (test/kept-figures.ts). The
 * dashboard's and production's replies are then compared with the same figures summed over the
 * tasks as the routes did before (decision 026's statements, kept here as the reference).
 */
const t = await createTestApp();
const db = t.ctx.db;
const API = '/api/v1';
let admin: string;
let companyId: number;

const q = async <T,>(query: ReturnType<typeof sql>) => rowsOf<T>(await db.execute(query));
const expectKept = async (what: string) => expect(await keptFiguresDiff(db), what).toEqual({});

/** A small deterministic PRNG (mulberry32): the same sequence every run, so a failure reproduces. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  [admin] = await t.loginAs('admin');
  companyId = (await q<{ company_id: number }>(sql`select company_id from users where email = ${SEEDED_USERS.admin}`))[0]!.company_id;
});

describe('kept production figures (migration 0030)', () => {
  it('are the sums over the tasks from the start (the backfill and the seed)', async () => {
    await expectKept('after the seed');
    expect((await q<{ n: number }>(sql`select count(*)::int as n from job_unit_figures`))[0]!.n).toBeGreaterThan(0);
  });

  it('stay the sums over the tasks after each write of a random sequence, single-row and bulk', async () => {
    const rand = prng(59);
    const pick = <T,>(xs: readonly T[]): T | undefined => xs[Math.floor(rand() * xs.length)];
    const qty = () => Math.round(rand() * 40) / 4 - (rand() < 0.1 ? 3 : 0);
    // Invoices to put tickets on, one per company with a job.
    await db.execute(sql`insert into invoices (company_id, job_id, number, currency, total)
      select distinct on (j.company_id) j.company_id, j.id, 'KEPT-' || j.id, 'USD', 0 from jobs j order by j.company_id, j.id`);
    const kinds = [
      'task+',
      'tasks+',
      'task~',
      'task unit',
      'task move',
      'task-',
      'tasks-',
      'complete',
      'complete job',
      'reopen',
      'assign',
      'due',
      'billed_at',
      'invoice+',
      'invoice-',
      'ticket+',
      'ticket-',
      'price',
      'zone',
      'job+',
      'job publish',
      'job foreman',
      'job number',
      'job-',
    ] as const;
    const done = new Set<string>();
    for (let step = 0; step < 90; step++) {
      // Every kind at least once (in order first), then at random; a job is deleted only late.
      const kind = step < kinds.length ? kinds[step]! : pick(kinds.filter((k) => k !== 'job-' || step > 80))!;
      const tickets = await q<{ id: number; company_id: number; job_id: number; open: boolean }>(
        sql`select id, company_id, job_id, actual_completion_date is null as open from tickets order by id`,
      );
      const tasks = await q<{ id: number; ticket_id: number; company_id: number }>(sql`select id, ticket_id, company_id from ticket_tasks order by id`);
      const ticket = pick(tickets)!;
      const task = pick(tasks)!;
      // A unit of the job's utility, as the app and imports choose them.
      const unitOf = async (ticketId: number) =>
        pick(await q<{ id: number }>(sql`select u.id from units u join jobs j on j.utility_id = u.utility_id and j.company_id = u.company_id
          join tickets t on t.job_id = j.id where t.id = ${ticketId} order by u.id`))!.id;
      switch (kind) {
        case 'task+':
          await db.execute(sql`insert into ticket_tasks (company_id, ticket_id, unit_id, init_qty, additional_qty)
            values (${ticket.company_id}, ${ticket.id}, ${await unitOf(ticket.id)}, ${qty()}, ${qty()})`);
          break;
        case 'tasks+': {
          // Many tasks over many tickets in one statement, as an import writes them.
          const unit = await unitOf(ticket.id);
          const some = tickets.filter((x) => x.job_id === ticket.job_id).slice(0, 6);
          await db.execute(sql`insert into ticket_tasks (company_id, ticket_id, unit_id, init_qty, additional_qty)
            select ${ticket.company_id}, id, ${unit}, 1.5, 0.25 from tickets where id in (${sql.join(
              some.map((x) => sql`${x.id}`),
              sql`, `,
            )})`);
          break;
        }
        case 'task~':
          await db.execute(sql`update ticket_tasks set init_qty = ${qty()}, additional_qty = ${qty()} where id = ${task.id}`);
          break;
        case 'task unit':
          await db.execute(sql`update ticket_tasks set unit_id = ${await unitOf(task.ticket_id)} where id = ${task.id}`);
          break;
        case 'task move': {
          // A merge moves tasks to the ticket kept.
          const from = tickets.find((x) => x.id === task.ticket_id)!;
          const to = pick(tickets.filter((x) => x.job_id === from.job_id && x.id !== task.ticket_id));
          if (to) await db.execute(sql`update ticket_tasks set ticket_id = ${to.id} where ticket_id = ${task.ticket_id}`);
          break;
        }
        case 'task-':
          await db.execute(sql`delete from ticket_tasks where id = ${task.id}`);
          break;
        case 'tasks-':
          await db.execute(sql`delete from ticket_tasks where ticket_id in (select id from tickets where job_id = ${ticket.job_id}) and id % 3 = 0`);
          break;
        case 'complete':
          await db.execute(sql`update tickets set actual_completion_date = now() - ${Math.floor(rand() * 40 * 24)} * interval '1 hour' where id = ${ticket.id}`);
          break;
        case 'complete job':
          await db.execute(sql`update tickets set actual_completion_date = now() where job_id = ${ticket.job_id} and actual_completion_date is null`);
          break;
        case 'reopen':
          await db.execute(sql`update tickets set actual_completion_date = null where id = ${pick(tickets.filter((x) => !x.open))?.id ?? ticket.id}`);
          break;
        case 'assign':
          await db.execute(sql`update tickets set assigned_to = (select id from users where company_id = ${ticket.company_id} order by random() limit 1) where id = ${ticket.id}`);
          break;
        case 'due':
          await db.execute(sql`update tickets set due_date = ${rand() < 0.2 ? null : addDays(dayInZone(new Date(), 'UTC'), Math.floor(rand() * 20) - 10)}::date where id = ${ticket.id}`);
          break;
        case 'billed_at':
          await db.execute(sql`update tickets set billed_at = case when billed_at is null then now() end where id = ${ticket.id}`);
          break;
        case 'invoice+':
          await db.execute(sql`insert into billed_tickets (ticket_id, company_id, invoice_id)
            select t.id, t.company_id, v.id from tickets t
            join lateral (select v.id from invoices v where v.company_id = t.company_id order by v.id limit 1) v on true where t.job_id = ${ticket.job_id} and t.actual_completion_date is not null on conflict do nothing`);
          break;
        case 'invoice-':
          await db.execute(sql`delete from billed_tickets where ticket_id in (select ticket_id from billed_tickets order by ticket_id limit 2)`);
          break;
        case 'ticket+':
          await db.execute(sql`insert into tickets (company_id, job_id, due_date) values (${ticket.company_id}, ${ticket.job_id}, ${dayInZone(new Date(), 'UTC')}::date)`);
          break;
        case 'ticket-':
          await db.execute(sql`delete from tickets where id = ${ticket.id}`);
          break;
        case 'price':
          await db.execute(sql`update units set unit_price = ${rand() < 0.2 ? null : (Math.round(rand() * 10000) / 100).toFixed(2)} where id = ${await unitOf(ticket.id)}`);
          break;
        case 'zone':
          await db.execute(sql`update companies set time_zone = ${pick(['Pacific/Auckland', 'America/Los_Angeles', 'UTC', 'America/New_York'])!} where id = ${ticket.company_id}`);
          break;
        case 'job+':
          // Two jobs in one statement, one of them still being imported (decision 027), as the
          // app and an import create them; then a ticket on each.
          await db.execute(sql`insert into jobs (company_id, job_number, foreman_id, due_date, utility_id, import_pending)
            select company_id, 'K-' || ${step} || '-' || n, foreman_id, due_date, utility_id, n = 2 from jobs, generate_series(1, 2) n where id = ${ticket.job_id}`);
          await db.execute(sql`insert into tickets (company_id, job_id) select company_id, id from jobs where job_number like ${`K-${step}-%`}`);
          break;
        case 'job publish':
          await db.execute(sql`update jobs set import_pending = not import_pending where id = ${ticket.job_id}`);
          break;
        case 'job foreman':
          await db.execute(sql`update jobs set foreman_id = (select id from users where company_id = ${ticket.company_id} and id <> coalesce(jobs.foreman_id, 0) order by random() limit 1)
            where id = ${ticket.job_id}`);
          break;
        case 'job number':
          await db.execute(sql`update jobs set job_number = job_number || '-' || ${step} where id = ${ticket.job_id}`);
          break;
        case 'job-':
          await db.execute(sql`delete from jobs where id = ${ticket.job_id}`);
          break;
      }
      done.add(kind);
      await expectKept(`after step ${step}: ${kind}`);
    }
    expect(done.size).toBe(kinds.length);
  });

  it('a rolled-back write leaves them as they were', async () => {
    const before = await keptFiguresSnapshot(db);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`update tickets set actual_completion_date = now() where actual_completion_date is null`);
        await tx.execute(sql`update ticket_tasks set additional_qty = additional_qty + 7`);
        await tx.execute(sql`delete from billed_tickets`);
        expect(await keptFiguresSnapshot(tx)).not.toEqual(before);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await keptFiguresSnapshot(db)).toEqual(before);
  });

  it("the dashboard and production answer what the tasks sum to (the routes' former statements), for this company only", async () => {
    const [{ time_zone: tz }] = await q<{ time_zone: string }>(sql`select time_zone from companies where id = ${companyId}`);
    const today = dayInZone(new Date(), tz);
    const weeks = lastWeekStarts(today);
    const weekStart = weeks[weeks.length - 1]!;
    const weekEnd = addDays(weekStart, 6);
    const res = await t.request({ method: 'GET', url: `${API}/dashboard`, token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const reply: DashboardReply = dashboardReply.strict().parse(res.json());

    // decision 026's statements: counts per job, tasks per job × unit × state, straight from the tickets.
    const counts = await q<{ job_id: number; open: number; overdue: number; completed_this_week: number }>(sql`
      select j.id as job_id,
        (count(t.id) filter (where t.actual_completion_date is null))::int as open,
        (count(t.id) filter (where t.actual_completion_date is null and t.due_date < ${today}::date))::int as overdue,
        (count(t.id) filter (where (t.actual_completion_date at time zone ${tz}::text)::date between ${weekStart}::date and ${weekEnd}::date))::int as completed_this_week
      from jobs j left join tickets t on t.job_id = j.id and t.company_id = j.company_id
      where j.company_id = ${companyId} and not j.import_pending group by j.id`);
    const sums = await q<{ job_id: number; code: string; unit_price: string | null; complete: boolean; billed: boolean; qty: string }>(sql`
      select t.job_id, un.code, un.unit_price::text as unit_price, (t.actual_completion_date is not null) as complete, (b.ticket_id is not null) as billed,
        sum(tt.init_qty::numeric + tt.additional_qty::numeric)::text as qty
      from ticket_tasks tt join tickets t on t.id = tt.ticket_id join jobs j on j.id = t.job_id join units un on un.id = tt.unit_id
      left join billed_tickets b on b.ticket_id = t.id
      where j.company_id = ${companyId} and not j.import_pending
      group by t.job_id, un.id, 3, 4, 5 order by t.job_id, un.id`);
    const expected = counts
      .map((c) => {
        const totals = computeProduction(
          sums
            .filter((s) => s.job_id === c.job_id)
            .map((s) => ({ code: s.code, description: '', uom: '', unit_price: s.unit_price, init_qty: Number(s.qty), additional_qty: 0, complete: s.complete, billed: s.billed })),
        ).totals;
        return { ...c, unbilled_completed_amount: totals.unbilled_completed_amount, percent_complete: totals.percent_complete };
      })
      .filter((j) => j.open > 0 || j.completed_this_week > 0 || j.unbilled_completed_amount !== '0.00');
    const shown = reply.by_job.map(({ job_id, open, overdue, completed_this_week, unbilled_completed_amount, percent_complete }) => ({
      job_id,
      open,
      overdue,
      completed_this_week,
      unbilled_completed_amount,
      percent_complete,
    }));
    expect(shown.sort((a, b) => a.job_id - b.job_id)).toEqual(expected.sort((a, b) => a.job_id - b.job_id));
    expect(reply.totals.open).toBe(expected.reduce((n, j) => n + j.open, 0));

    // Every job's production: units and totals as computeProduction makes them from its tasks.
    for (const { job_id } of counts) {
      const p = await t.request({ method: 'GET', url: `${API}/jobs/${job_id}/production`, token: admin });
      expect(p.statusCode, p.body).toBe(200);
      const got = productionReply.parse(p.json());
      const rows = await q<{ code: string; description: string; uom: string; unit_price: string | null; init_qty: number; additional_qty: number; complete: boolean; billed: boolean }>(sql`
        select un.code, un.description, un.uom, un.unit_price::text as unit_price, tt.init_qty, tt.additional_qty,
          (t.actual_completion_date is not null) as complete, (t.billed_at is not null or b.ticket_id is not null) as billed
        from ticket_tasks tt join tickets t on t.id = tt.ticket_id left join billed_tickets b on b.ticket_id = t.id join units un on un.id = tt.unit_id
        where t.job_id = ${job_id} order by un.code, tt.id`);
      const billed = (await q<{ total: string }>(sql`select coalesce(sum(x.amount), 0)::text as total from invoice_lines x join invoices v on v.id = x.invoice_id where v.job_id = ${job_id}`))[0]!.total;
      const want = computeProduction(
        rows.map((r) => ({ ...r, unit_price: r.unit_price === null ? null : money(r.unit_price), init_qty: Number(r.init_qty), additional_qty: Number(r.additional_qty) })),
        billed,
      );
      const { actual_amount: _a, ...wantTotals } = want.totals;
      expect(got.units, `job ${job_id}`).toEqual(want.units);
      expect(got.totals, `job ${job_id}`).toEqual(wantTotals);
    }
  });

  it("another company's writes leave this company's dashboard as it was", async () => {
    const before = (await t.request({ method: 'GET', url: `${API}/dashboard`, token: admin })).json();
    await db.execute(sql`update ticket_tasks set additional_qty = additional_qty + 5 where company_id <> ${companyId}`);
    await db.execute(sql`update tickets set actual_completion_date = now() where company_id <> ${companyId} and actual_completion_date is null`);
    await expectKept('after the other companies changed');
    expect((await t.request({ method: 'GET', url: `${API}/dashboard`, token: admin })).json()).toEqual(before);
  });
});
