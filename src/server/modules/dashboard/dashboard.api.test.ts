import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/constants';
import { addDays, dayInZone, lastWeekStarts } from '../../../shared/dashboard';
import Big from 'big.js';
import { DASHBOARD_JOB_SORTS, dashboardReply, type DashboardJob, type DashboardJobSort, type DashboardReply } from '../../../shared/dashboard.schemas';
import { sumMoney } from '../../../shared/money';
import { textKey } from '../../../shared/sorting';
import { computeProduction, type ProductionTask } from '../../../shared/production';
import { queryStats } from '../../db/client';
import { billedTickets, companies, invoices, jobs, ticketTasks, tickets, units, users, utilities } from '../../db/schema/index';
import { createTestApp, dbKind } from '../../test/harness';
import { SEEDED_USERS, type SeededRole } from '../../test/seeded-users';

/**
 * GET /dashboard (docs/product/billing.md §6, decision 026). The figures are checked on a company of our own,
 * "Dash Co" (New York time, four priced and unpriced units, three jobs with tickets open,
 * overdue, completed this week, last week, at the edge of the week, weeks ago, billed and not),
 * so every expected number below is worked out by hand. The seeded demo companies stay: their
 * tickets must never count for Dash Co, and Dash Co's never for them.
 */
const t = await createTestApp();
const API = '/api/v1';
const TZ = 'America/New_York';
const tokens = {} as Record<SeededRole, string>;
const dash = {} as Record<'admin' | 'fred' | 'gina' | 'lou', { id: number; token: string }>;
let dashCompany: number;
const job = {} as Record<'J1' | 'J2' | 'J3' | 'J4', number>;

const today = dayInZone(new Date(), TZ);
const weeks = lastWeekStarts(today);
const thisWeek = weeks[11]!;
/** Noon in New York on `day` (17:00 UTC is 12:00 or 13:00 there): that day on the company's calendar. */
const noonOf = (day: string) => new Date(`${day}T17:00:00Z`);

const get = (token: string | undefined, query = '') => t.request({ method: 'GET', url: `${API}/dashboard${query}`, token });
async function dashboardOf(token: string, query = ''): Promise<DashboardReply> {
  const res = await get(token, query);
  expect(res.statusCode, res.body).toBe(200);
  // Sent as kept bytes (dashboard.service dashboardReplyOf): byte for byte what the schema's serializer would send.
  expect(res.body).toBe(JSON.stringify(dashboardReply.parse(res.json())));
  return dashboardReply.strict().parse(res.json());
}

beforeAll(async () => {
  const roles = Object.keys(SEEDED_USERS) as SeededRole[];
  const signed = await t.loginAs(...roles);
  roles.forEach((r, i) => (tokens[r] = signed[i]!));
  const db = t.ctx.db;

  // Dash Co and its people; they sign in with the demo password (its hash copied).
  const [{ hash }] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, SEEDED_USERS.admin));
  const [company] = await db.insert(companies).values({ name: 'Dash Co', timeZone: TZ, currency: 'USD' }).returning();
  dashCompany = company!.id;
  const person = async (key: keyof typeof dash, roleId: number, first: string) => {
    const email = `${key}@dash.example.com`;
    const [u] = await db.insert(users).values({ companyId: dashCompany, roleId, firstName: first, lastName: 'Dash', email, passwordHash: hash }).returning();
    dash[key] = { id: u!.id, token: await t.login(email) };
  };
  await person('admin', ROLE.ADMIN, 'Ada');
  await person('fred', ROLE.FOREMAN, 'Fred');
  await person('gina', ROLE.FOREMAN, 'Gina');
  await person('lou', ROLE.LINEMAN, 'Lou');

  const [utility] = await db.insert(utilities).values({ companyId: dashCompany, code: 'DU' }).returning();
  const unitRows = await db
    .insert(units)
    .values([
      { companyId: dashCompany, utilityId: utility!.id, code: 'A', unitPrice: '100.00' },
      { companyId: dashCompany, utilityId: utility!.id, code: 'B', unitPrice: '2.50' },
      { companyId: dashCompany, utilityId: utility!.id, code: 'C', unitPrice: null },
      { companyId: dashCompany, utilityId: utility!.id, code: 'D', unitPrice: '0.10' },
    ])
    .returning();
  const unit = Object.fromEntries(unitRows.map((u) => [u.code, u.id])) as Record<'A' | 'B' | 'C' | 'D', number>;

  const newJob = async (number: string, foremanId: number | null) => {
    const [j] = await db.insert(jobs).values({ companyId: dashCompany, jobNumber: number, foremanId, dueDate: '2030-12-31', utilityId: utility!.id }).returning();
    return j!.id;
  };
  type Task = [keyof typeof unit, number, number];
  const newTicket = async (jobId: number, o: { due?: string; done?: Date; tasks?: Task[] }) => {
    const [tk] = await db.insert(tickets).values({ companyId: dashCompany, jobId, dueDate: o.due ?? null, actualCompletionDate: o.done ?? null }).returning();
    if (o.tasks?.length)
      await db.insert(ticketTasks).values(o.tasks.map(([code, init, add]) => ({ companyId: dashCompany, ticketId: tk!.id, unitId: unit[code], initQty: init, additionalQty: add })));
    return tk!.id;
  };
  let invoiceNo = 0;
  const bill = async (jobId: number, ticketId: number) => {
    const [inv] = await db
      .insert(invoices)
      .values({ companyId: dashCompany, jobId, number: `INV-${String(++invoiceNo).padStart(6, '0')}`, currency: 'USD', total: '0.00' })
      .returning();
    await db.insert(billedTickets).values({ ticketId, companyId: dashCompany, invoiceId: inv!.id });
    await db.update(tickets).set({ billedAt: new Date(), invoiceNumber: inv!.number }).where(eq(tickets.id, ticketId));
  };

  // J1, Fred's.
  job.J1 = await newJob('D-1', dash.fred.id);
  await newTicket(job.J1, { due: addDays(today, -1), tasks: [['A', 2, 1]] }); // overdue
  await newTicket(job.J1, { due: today, tasks: [] }); // due today: open, not overdue
  await newTicket(job.J1, { done: noonOf(today), tasks: [['A', 1, 0], ['B', 4, 2]] }); // this week: 100.00 + 15.00
  const billedJ1 = await newTicket(job.J1, { done: noonOf(addDays(weeks[9]!, 2)), tasks: [['A', 2, 0]] }); // 2 weeks ago: 200.00, billed
  await bill(job.J1, billedJ1);
  // Monday 03:00 UTC is Sunday evening in New York: last week, not this one. C is unpriced (0);
  // D is 0.1 + 0.2 = 0.3 × 0.10 = 0.03 exactly.
  await newTicket(job.J1, { done: new Date(`${thisWeek}T03:00:00Z`), tasks: [['C', 5, 0], ['D', 0.1, 0.2]] });

  // J2, Gina's.
  job.J2 = await newJob('D-2', dash.gina.id);
  await newTicket(job.J2, { due: addDays(today, -2), tasks: [['B', 10, 0]] }); // overdue
  await newTicket(job.J2, { done: noonOf(today), tasks: [['D', 3, 0.335], ['B', 1, 1]] }); // this week: 3.335 × 0.10 = 0.33, + 5.00
  const billedJ2 = await newTicket(job.J2, { done: noonOf(weeks[0]!), tasks: [['A', 1, 0]] }); // 11 weeks ago: 100.00, billed
  await bill(job.J2, billedJ2);
  await newTicket(job.J2, { done: noonOf(addDays(weeks[0]!, -14)), tasks: [['A', 1, 0]] }); // before the chart: 100.00, unbilled

  // J3: no foreman, one open ticket without tasks or due date.
  job.J3 = await newJob('D-3', null);
  await newTicket(job.J3, {});

  // J4, Fred's: finished and billed long ago, nothing to show.
  job.J4 = await newJob('D-4', dash.fred.id);
  const old = await newTicket(job.J4, { done: noonOf(addDays(weeks[0]!, -70)), tasks: [['A', 1, 0]] });
  await bill(job.J4, old);
});

/**
 * By hand:
 * J1 open 2 (1 overdue), 1 completed this week. Unbilled complete: A 1 (100.00), B 6 (15.00),
 *    C 5 (unpriced, 0), D 0.3 (0.03) = 115.03. Actual amount A 6 = 600.00 + 15.00 + 0.03 =
 *    615.03; completed A 3 = 300.00 + 15.00 + 0.03 = 315.03; 315.03 / 615.03 = 51.2 %.
 * J2 open 1 (overdue), 1 completed this week. Unbilled: 0.33 + 5.00 + 100.00 = 105.33. Actual
 *    A 2 = 200.00, B 12 = 30.00, D 3.335 = 0.33: 230.33; completed 200.00 + 5.00 + 0.33 =
 *    205.33: 89.1 %.
 * J3 open 1, no tasks: 0 %.   J4: nothing open, nothing unbilled: left out of by_job.
 */
const J1 = { job_number: 'D-1', foreman_name: 'Fred Dash', open: 2, overdue: 1, completed_this_week: 1, unbilled_completed_amount: '115.03', percent_complete: 51.2 };
const J2 = { job_number: 'D-2', foreman_name: 'Gina Dash', open: 1, overdue: 1, completed_this_week: 1, unbilled_completed_amount: '105.33', percent_complete: 89.1 };
const J3 = { job_number: 'D-3', foreman_name: null, open: 1, overdue: 0, completed_this_week: 0, unbilled_completed_amount: '0.00', percent_complete: 0 };

describe('GET /dashboard', () => {
  it('requires authentication', async () => {
    expect((await get(undefined)).statusCode).toBe(401);
  });

  it('is for roles 1–3: working foremen, linemen and apprentices get 403', async () => {
    for (const role of ['admin', 'office', 'foreman'] as const) expect((await get(tokens[role])).statusCode, role).toBe(200);
    for (const role of ['wforeman', 'lineman', 'apprentice'] as const) {
      const res = await get(tokens[role]);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().error).toBe('You do not have permission to do that.');
    }
    expect((await get(dash.lou.token)).statusCode).toBe(403);
  });

  it('adds up open, overdue, completed this week and unbilled completed work, worked out by hand', async () => {
    const d = await dashboardOf(dash.admin.token);
    expect(d.currency).toBe('USD');
    expect(d.today).toBe(today);
    expect(d.totals).toEqual({ open: 4, overdue: 2, completed_this_week: 2, unbilled_completed_amount: '220.36' });
    expect(d.by_job).toEqual([
      { job_id: job.J1, ...J1 },
      { job_id: job.J2, ...J2 },
      { job_id: job.J3, ...J3 },
    ]);
    expect(d.by_foreman).toEqual([
      { foreman_id: dash.fred.id, name: 'Fred Dash', open: 2, overdue: 1, completed_this_week: 1, unbilled_completed_amount: '115.03' },
      { foreman_id: dash.gina.id, name: 'Gina Dash', open: 1, overdue: 1, completed_this_week: 1, unbilled_completed_amount: '105.33' },
      { foreman_id: null, name: null, open: 1, overdue: 0, completed_this_week: 0, unbilled_completed_amount: '0.00' },
    ]);
  });

  it('charts the completed amount of the last 12 weeks, Monday to Sunday on the company’s calendar, billed or not', async () => {
    const d = await dashboardOf(dash.admin.token);
    expect(d.weekly.map((w) => w.week_start)).toEqual(weeks);
    const expected = Object.fromEntries(weeks.map((w) => [w, '0.00']));
    expected[weeks[11]!] = '120.33'; // J1 115.00 + J2 5.33
    expected[weeks[10]!] = '0.03'; // Sunday evening in New York (Monday in UTC)
    expected[weeks[9]!] = '200.00'; // billed: still work completed that week
    expected[weeks[0]!] = '100.00';
    expect(Object.fromEntries(d.weekly.map((w) => [w.week_start, w.completed_amount]))).toEqual(expected);
    for (const w of d.weekly) expect(new Date(`${w.week_start}T00:00:00Z`).getUTCDay(), w.week_start).toBe(1);
  });

  it('a billed ticket leaves the unbilled amount', async () => {
    const [open] = await t.ctx.db
      .select({ id: tickets.id })
      .from(tickets)
      .where(and(eq(tickets.jobId, job.J1), eq(tickets.actualCompletionDate, noonOf(today))));
    const [inv] = await t.ctx.db.insert(invoices).values({ companyId: dashCompany, jobId: job.J1, number: 'INV-000099', currency: 'USD', total: '115.00' }).returning();
    await t.ctx.db.insert(billedTickets).values({ ticketId: open!.id, companyId: dashCompany, invoiceId: inv!.id });
    try {
      const d = await dashboardOf(dash.admin.token);
      expect(d.totals.unbilled_completed_amount).toBe('105.36'); // 220.36 − 115.00
      expect(d.by_job.find((j) => j.job_id === job.J1)?.unbilled_completed_amount).toBe('0.03');
      expect(d.totals.completed_this_week).toBe(2); // still completed this week
      expect(d.weekly[11]!.completed_amount).toBe('120.33');
    } finally {
      await t.ctx.db.delete(invoices).where(eq(invoices.id, inv!.id)); // cascades to billed_tickets
    }
    expect((await dashboardOf(dash.admin.token)).totals.unbilled_completed_amount).toBe('220.36');
  });

  it('a foreman sees every job of the company, as the office does', async () => {
    const [asAdmin, asFred] = [await dashboardOf(dash.admin.token), await dashboardOf(dash.fred.token)];
    expect(asFred).toEqual(asAdmin);
  });

  it('never counts another company’s tickets', async () => {
    const demo = await dashboardOf(tokens.admin);
    const ours = Object.values(job);
    expect(demo.by_job.some((j) => ours.includes(j.job_id))).toBe(false);
    expect(demo.by_foreman.some((f) => f.foreman_id === dash.fred.id || f.foreman_id === dash.gina.id)).toBe(false);
    const other = await dashboardOf(tokens.other);
    expect(other.by_job.some((j) => ours.includes(j.job_id))).toBe(false);
    // The demo company's jobs never show for Dash Co (its figures above are exact besides).
    expect((await dashboardOf(dash.admin.token)).by_job.map((j) => j.job_id).sort()).toEqual([job.J1, job.J2, job.J3].sort());
  });

  it('narrows to one foreman’s jobs; another company’s foreman narrows to nothing', async () => {
    const gina = await dashboardOf(dash.admin.token, `?foreman_id=${dash.gina.id}`);
    expect(gina.totals).toEqual({ open: 1, overdue: 1, completed_this_week: 1, unbilled_completed_amount: '105.33' });
    expect(gina.by_job).toEqual([{ job_id: job.J2, ...J2 }]);
    expect(gina.weekly.find((w) => w.week_start === weeks[11])?.completed_amount).toBe('5.33');
    const [demoForeman] = await t.ctx.db.select({ id: users.id }).from(users).where(eq(users.email, SEEDED_USERS.foreman));
    const none = await dashboardOf(dash.admin.token, `?foreman_id=${demoForeman!.id}`);
    expect(none.totals).toEqual({ open: 0, overdue: 0, completed_this_week: 0, unbilled_completed_amount: '0.00' });
    expect(none.by_job).toEqual([]);
    expect(none.by_foreman).toEqual([]);
    expect(none.weekly.every((w) => w.completed_amount === '0.00')).toBe(true);
  });

  it('refuses a foreman_id that is not a row id', async () => {
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await get(dash.admin.token, `?foreman_id=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields).toHaveProperty('foreman_id');
    }
  });

  it('gives each job the unbilled amount and % complete of computeProduction on its tasks, and their sum as the total', async () => {
    // Prices on the demo company's units too, so its figures are not all zero.
    const [demoAdmin] = await t.ctx.db.select({ companyId: users.companyId }).from(users).where(eq(users.email, SEEDED_USERS.admin));
    await t.ctx.db.execute(sql`update units set unit_price = (12.34 + id % 7)::numeric(14,2) where company_id = ${demoAdmin!.companyId}`);
    for (const token of [dash.admin.token, tokens.admin]) {
      const me = token === dash.admin.token ? dashCompany : demoAdmin!.companyId;
      const d = await dashboardOf(token);
      // Every task of the company, one by one, as computeProduction takes them.
      const rows = await t.ctx.db
        .select({
          jobId: tickets.jobId,
          code: units.code,
          price: units.unitPrice,
          init: ticketTasks.initQty,
          add: ticketTasks.additionalQty,
          done: tickets.actualCompletionDate,
          billed: billedTickets.ticketId,
        })
        .from(ticketTasks)
        .innerJoin(tickets, eq(tickets.id, ticketTasks.ticketId))
        .innerJoin(units, eq(units.id, ticketTasks.unitId))
        .leftJoin(billedTickets, eq(billedTickets.ticketId, tickets.id))
        .where(eq(tickets.companyId, me));
      const byJob = new Map<number, ProductionTask[]>();
      for (const r of rows) {
        const task: ProductionTask = { code: r.code, description: '', uom: '', unit_price: r.price, init_qty: r.init, additional_qty: r.add, complete: r.done !== null, billed: r.billed !== null };
        byJob.set(r.jobId, [...(byJob.get(r.jobId) ?? []), task]);
      }
      const production = new Map([...byJob].map(([id, tasks]) => [id, computeProduction(tasks).totals]));
      expect(d.totals.unbilled_completed_amount).toBe(sumMoney([...production.values()].map((p) => p.unbilled_completed_amount)));
      expect(Number(d.totals.unbilled_completed_amount), 'some money to compare').toBeGreaterThan(0);
      for (const j of d.by_job) {
        expect(j.unbilled_completed_amount, j.job_number).toBe(production.get(j.job_id)?.unbilled_completed_amount ?? '0.00');
        expect(j.percent_complete, j.job_number).toBe(production.get(j.job_id)?.percent_complete ?? 0);
      }
    }
  });

  it('reads the same few statements however many jobs and tickets there are', async () => {
    // Each time a query of its own, so each reply is built (not served from the reply cache).
    let limit = 400;
    const count = async () => {
      const before = queryStats.count;
      await dashboardOf(dash.admin.token, `?job_limit=${++limit}`);
      return queryStats.count - before;
    };
    const before = await count();
    // Session check, fingerprint, calendar, per foreman, the page's ids and counts (and the jobs
    // with nothing open when the page reaches them), the weeks, the page's rows.
    expect(before).toBeLessThanOrEqual(9);
    const [utility] = await t.ctx.db.select({ id: utilities.id }).from(utilities).where(eq(utilities.companyId, dashCompany));
    const more = await t.ctx.db
      .insert(jobs)
      .values(Array.from({ length: 30 }, (_, i) => ({ companyId: dashCompany, jobNumber: `D-X${i}`, foremanId: dash.gina.id, dueDate: '2030-12-31', utilityId: utility!.id })))
      .returning();
    await t.ctx.db.insert(tickets).values(more.flatMap((j) => [{ companyId: dashCompany, jobId: j.id }, { companyId: dashCompany, jobId: j.id, dueDate: '2000-01-01' }]));
    expect(await count()).toBe(before);
    // A reply kept: the session check and the fingerprint only.
    const kept = queryStats.count;
    await dashboardOf(dash.admin.token, `?job_limit=${limit}`);
    expect(queryStats.count - kept).toBe(2);
    const d = await dashboardOf(dash.admin.token);
    expect(d.totals.open).toBe(4 + 60);
    expect(d.totals.overdue).toBe(2 + 30);
  });

  /** The order by_job promises (dashboard.schemas.ts): the column, ties by most open, job number (textKey), id. */
  function byRule(column: DashboardJobSort, dir: 'asc' | 'desc') {
    const text = (v: string | null) => (v === null ? null : textKey(v));
    const cmp = (x: string | number | Big | null, y: string | number | Big | null): number => {
      if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1; // none last ascending
      if (x instanceof Big) return x.cmp(y as Big);
      if (typeof x === 'number') return x - (y as number);
      return x < (y as string) ? -1 : x > (y as string) ? 1 : 0;
    };
    const key = (j: DashboardJob) =>
      column === 'job_number' ? text(j.job_number) : column === 'foreman_name' ? text(j.foreman_name) : column === 'unbilled_completed_amount' ? new Big(j.unbilled_completed_amount) : j[column];
    return (a: DashboardJob, b: DashboardJob) =>
      (dir === 'asc' ? 1 : -1) * cmp(key(a), key(b)) || b.open - a.open || cmp(text(a.job_number), text(b.job_number)) || a.job_id - b.job_id;
  }

  it('pages by_job in every order: the pages in turn are every job with something to show, in the promised order', async () => {
    // With the 30 jobs of the test above (the same counts: ties), jobs with nothing open that
    // come last in the first order: work to bill, or a ticket completed this week; numbers that
    // sort as numbers (D-9 before D-10).
    const [utility] = await t.ctx.db.select({ id: utilities.id }).from(utilities).where(eq(utilities.companyId, dashCompany));
    const [unitA] = await t.ctx.db.select({ id: units.id }).from(units).where(and(eq(units.companyId, dashCompany), eq(units.code, 'A')));
    for (const [number, foremanId, done] of [['D-10', dash.fred.id, addDays(weeks[0]!, 3)], ['D-9', null, today], ['D-11', dash.gina.id, today]] as const) {
      const [j] = await t.ctx.db.insert(jobs).values({ companyId: dashCompany, jobNumber: number, foremanId, dueDate: '2030-12-31', utilityId: utility!.id }).returning();
      const [tk] = await t.ctx.db.insert(tickets).values({ companyId: dashCompany, jobId: j!.id, actualCompletionDate: noonOf(done) }).returning();
      if (number !== 'D-9') await t.ctx.db.insert(ticketTasks).values({ companyId: dashCompany, ticketId: tk!.id, unitId: unitA!.id, initQty: 1, additionalQty: 0 });
    }
    const d = await dashboardOf(dash.admin.token, '?job_limit=500');
    expect(d.by_job.filter((j) => j.open === 0).map((j) => j.job_number)).toEqual(['D-9', 'D-10', 'D-11']);
    expect(d.by_job.length).toBe(d.by_job_total);
    expect(d.by_job_total).toBeGreaterThan(30);
    for (const query of ['', `&foreman_id=${dash.gina.id}`]) {
      const every = (await dashboardOf(dash.admin.token, `?job_limit=500${query}`)).by_job;
      for (const column of DASHBOARD_JOB_SORTS) {
        for (const dir of ['asc', 'desc'] as const) {
          const pages: DashboardJob[] = [];
          for (let offset = 0; ; offset += 7) {
            const page = await dashboardOf(dash.admin.token, `?job_sort=${column}&job_dir=${dir}&job_offset=${offset}&job_limit=7${query}`);
            expect(page.by_job_total, `${column} ${dir}${query}`).toBe(every.length);
            if (page.by_job.length === 0) break;
            pages.push(...page.by_job);
          }
          expect(pages, `${column} ${dir}${query}`).toEqual([...every].sort(byRule(column, dir)));
        }
      }
    }
    // The first page by default: 100 jobs, the most overdue first.
    const first = await dashboardOf(dash.admin.token);
    expect(first.by_job).toEqual([...d.by_job].sort(byRule('overdue', 'desc')).slice(0, 100));
  });

  describe('kept as bytes until a write (decision 062)', () => {
    const save = async (token: string, id: number, fields: Record<string, unknown>) => {
      const read = await t.request({ method: 'GET', url: `${API}/tickets/${id}`, token });
      expect(read.statusCode, read.body).toBe(200);
      const res = await t.request({ method: 'PUT', url: `${API}/tickets/`, token, body: { ticket: { id, version: read.json().version, ...fields } } });
      expect(res.statusCode, res.body).toBe(200);
    };
    const j3Ticket = async () => (await t.ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, job.J3)))[0]!.id;

    it('sends the same bytes and ETag while nothing changed, and 304 to a client that holds them', async () => {
      const a = await get(dash.admin.token);
      const b = await get(dash.fred.token);
      expect(b.body).toBe(a.body);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(a.headers['cache-control']).toBe('private, no-cache');
      const again = await t.request({ method: 'GET', url: `${API}/dashboard`, token: dash.admin.token, headers: { 'if-none-match': String(a.headers.etag) } });
      expect(again.statusCode).toBe(304);
      // Another query, another reply.
      expect((await get(dash.admin.token, '?job_limit=1')).headers.etag).not.toBe(a.headers.etag);
    });

    it('shows a write through the API on the next read', async () => {
      const id = await j3Ticket();
      const before = await dashboardOf(dash.admin.token);
      await save(dash.admin.token, id, { due_date: addDays(today, -3) });
      try {
        const after = await dashboardOf(dash.admin.token);
        expect(after.totals).toEqual({ ...before.totals, overdue: before.totals.overdue + 1 });
        expect(after.by_job.find((j) => j.job_id === job.J3)?.overdue).toBe(1);
      } finally {
        await save(dash.admin.token, id, { due_date: null });
      }
      expect((await dashboardOf(dash.admin.token)).totals).toEqual(before.totals);
    });

    it('shows writes made outside the API (plain SQL, another process) on the next read', async () => {
      const db = t.ctx.db;
      const id = await j3Ticket();
      const before = await dashboardOf(dash.admin.token);
      // A ticket overdue, then completed today.
      await db.execute(sql`update tickets set due_date = ${addDays(today, -5)} where id = ${id}`);
      expect((await dashboardOf(dash.admin.token)).totals.overdue).toBe(before.totals.overdue + 1);
      await db.execute(sql`update tickets set actual_completion_date = ${noonOf(today)} where id = ${id}`);
      const done = await dashboardOf(dash.admin.token);
      expect(done.totals).toEqual({ ...before.totals, open: before.totals.open - 1, completed_this_week: before.totals.completed_this_week + 1 });
      await db.execute(sql`update tickets set due_date = null, actual_completion_date = null where id = ${id}`);
      expect((await dashboardOf(dash.admin.token)).totals).toEqual(before.totals);
      // A unit's price: this week's chart bar (1.00 more per unit A completed this week: J1's one,
      // and those of the jobs added above) and J1's unbilled amount (one unit A).
      await db.execute(sql`update units set unit_price = 101.00 where company_id = ${dashCompany} and code = 'A'`);
      try {
        const priced = await dashboardOf(dash.admin.token);
        const more = new Big(priced.weekly[11]!.completed_amount).minus(before.weekly[11]!.completed_amount);
        expect(more.gte(1) && more.mod(1).eq(0), more.toString()).toBe(true);
        expect(priced.by_job.find((j) => j.job_id === job.J1)?.unbilled_completed_amount).toBe('116.03');
      } finally {
        await db.execute(sql`update units set unit_price = 100.00 where company_id = ${dashCompany} and code = 'A'`);
      }
      // A foreman's name, a job's number and the company's currency.
      await db.execute(sql`update users set first_name = 'Frederick' where id = ${dash.fred.id}`);
      await db.execute(sql`update jobs set job_number = 'D-1b' where id = ${job.J1}`);
      await db.execute(sql`update companies set currency = 'CAD' where id = ${dashCompany}`);
      try {
        const renamed = await dashboardOf(dash.admin.token);
        expect(renamed.by_foreman.map((f) => f.name)).toContain('Frederick Dash');
        expect(renamed.by_job.find((j) => j.job_id === job.J1)?.job_number).toBe('D-1b');
        expect(renamed.currency).toBe('CAD');
      } finally {
        await db.execute(sql`update users set first_name = 'Fred' where id = ${dash.fred.id}`);
        await db.execute(sql`update jobs set job_number = 'D-1' where id = ${job.J1}`);
        await db.execute(sql`update companies set currency = 'USD' where id = ${dashCompany}`);
      }
      expect(await dashboardOf(dash.admin.token)).toEqual(before);
    });

    it.skipIf(dbKind !== 'postgres')('two open transactions of one company stamp without waiting for each other (one row per backend)', async () => {
      const [a, b] = [job.J1, job.J2];
      const due = (jobId: number, day: string) => sql`update tickets set due_date = ${day} where job_id = ${jobId} and actual_completion_date is null`;
      const before = await dashboardOf(dash.admin.token);
      const stampsOf = async () =>
        ((await t.ctx.db.execute(sql`select coalesce(sum(writes), 0)::int as n from dashboard_stamps where company_id = ${dashCompany}`)) as unknown as { rows: { n: number }[] }).rows[0]!.n;
      const stamped = await stampsOf();
      // A holds its stamp row until it commits; B, on another connection, commits inside A. Were
      // the stamp one row per company, B would wait for A and A for B: the test would hang.
      await t.ctx.db.transaction(async (tx) => {
        await tx.execute(due(a, addDays(today, -9)));
        await t.ctx.db.transaction(async (other) => void (await other.execute(due(b, addDays(today, -9)))));
        expect(await stampsOf()).toBe(stamped + 1);
      });
      expect(await stampsOf()).toBe(stamped + 2);
      try {
        expect((await dashboardOf(dash.admin.token)).totals.overdue).toBe(before.totals.overdue + 1); // J1's ticket due today
      } finally {
        await t.ctx.db.execute(due(a, addDays(today, -1)));
        await t.ctx.db.execute(sql`update tickets set due_date = ${today} where job_id = ${a} and actual_completion_date is null and id = (select max(id) from tickets where job_id = ${a} and actual_completion_date is null)`);
        await t.ctx.db.execute(due(b, addDays(today, -2)));
      }
      expect(await dashboardOf(dash.admin.token)).toEqual(before);
    });

    it('a write that rolls back leaves the kept reply as it was', async () => {
      const a = await get(dash.admin.token);
      await expect(
        t.ctx.db.transaction(async (tx) => {
          await tx.execute(sql`update tickets set due_date = ${addDays(today, -5)} where job_id = ${job.J3}`);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const b = await get(dash.admin.token);
      expect(b.headers.etag).toBe(a.headers.etag);
      expect(b.body).toBe(a.body);
    });
  });

  it('refuses a job_sort, job_dir, job_offset or job_limit it does not know', async () => {
    for (const [field, bad] of [
      ['job_sort', 'job_id'],
      ['job_dir', 'up'],
      ['job_offset', '-1'],
      ['job_offset', 'x'],
      ['job_limit', '0'],
      ['job_limit', '501'],
    ] as const) {
      const res = await get(dash.admin.token, `?${field}=${bad}`);
      expect(res.statusCode, `${field}=${bad}`).toBe(400);
      expect(res.json().fields).toHaveProperty(field);
    }
  });
});
