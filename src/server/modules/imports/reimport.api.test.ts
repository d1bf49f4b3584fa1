import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { companies, jobs, poles, tickets, ticketTasks, units, users } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';
import { fixture, multipart } from '../../test/files';

/**
 * Re-importing a workbook into a job that already has its tickets: POST
 * /tickets/xls-upload with `mode` columns | preview | add_new (default) | update_quantities.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let t: TestApp;
let admin: string;
let office: string;
let other: string;
let companyId: number;
let utilityId: number;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, office, other] = await t.loginAs('admin', 'office', 'other');
  companyId = (await t.ctx.db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  userId = (await t.ctx.db.select().from(users).where(eq(users.email, 'admin@example.com')))[0].id;
  // The utility of J-1003, whose library has P40-2, PR and XA8.
  utilityId = (await t.ctx.db.select().from(jobs).where(and(eq(jobs.companyId, companyId), eq(jobs.jobNumber, 'J-1003'))))[0].utilityId;
});

let seq = 0;
/** A job of its own per test, so that counts are exact. */
async function freshJob() {
  const [job] = await t.ctx.db
    .insert(jobs)
    .values({ companyId, jobNumber: `REIMP-${++seq}`, dueDate: '2027-06-01', utilityId, createdBy: userId })
    .returning();
  return job.id;
}

/** A tickets-only CSV (9+ columns); rows are [work order, pole, line, unit code, quantity]. */
function csv(rows: [string, string, string, string, number | string][]): Buffer {
  return Buffer.from(
    ['Work Order,Pole,Line,Street,A,B,C,D,E,Unit,Qty', ...rows.map(([wo, p, l, code, q]) => `${wo},${p},${l},Main St,,,,,,${code},${q}`)].join('\n'),
  );
}
const MAPPING = JSON.stringify({ work_order: 'Work Order', pole: 'Pole', line: 'Line', street: 'Street', unit_task: 'Unit', qty: 'Qty' });

function upload(jobId: number, content: Buffer, fields: Record<string, string> = {}, token: string | null = admin, name = 'tickets.csv') {
  const body = multipart(
    { job_id: String(jobId), ticketsMappings: MAPPING, ...fields },
    { field: 'file', name, type: name.endsWith('.xlsx') ? XLSX : 'text/csv', content },
  );
  return t.request({ method: 'POST', url: '/api/v1/tickets/xls-upload', token: token ?? undefined, headers: body.headers, payload: body.payload });
}

/** The job's tasks as 'pole/line code init+additional', in a stable order. */
async function tasksOf(jobId: number): Promise<string[]> {
  const rows = await t.ctx.db
    .select({ pole: poles.poleName, line: poles.lineName, code: units.code, init: ticketTasks.initQty, add: ticketTasks.additionalQty, id: ticketTasks.id })
    .from(ticketTasks)
    .innerJoin(tickets, eq(tickets.id, ticketTasks.ticketId))
    .innerJoin(poles, eq(poles.id, tickets.poleId))
    .innerJoin(units, eq(units.id, ticketTasks.unitId))
    .where(eq(tickets.jobId, jobId))
    .orderBy(asc(poles.poleName), asc(ticketTasks.id));
  return rows.map((r) => `${r.pole}/${r.line} ${r.code} ${r.init}+${r.add}`);
}
const ticketCount = async (jobId: number) => (await t.ctx.db.select({ n: count() }).from(tickets).where(eq(tickets.jobId, jobId)))[0].n;
/** Row counts of every table an import writes. */
async function snapshot() {
  const n = async (table: typeof tickets | typeof ticketTasks | typeof poles | typeof units) => (await t.ctx.db.select({ n: count() }).from(table))[0].n;
  return { tickets: await n(tickets), tasks: await n(ticketTasks), poles: await n(poles), units: await n(units), qty: (await t.ctx.db.select().from(ticketTasks)).map((x) => [x.id, x.initQty]) };
}

const FIRST = csv([
  ['WO-1', 'RP-1', 'L1', 'P40-2', 1],
  ['WO-1', 'RP-1', 'L1', 'XA8', 2],
  ['WO-2', 'RP-2', 'L1', 'PR', 1],
]);
/** The same job a week later: RP-1's crossarms 2 → 4, a new unit on RP-1, a new pole RP-3. */
const SECOND = csv([
  ['WO-1', 'RP-1', 'L1', 'P40-2', 1],
  ['WO-1', 'RP-1', 'L1', 'XA8', 4],
  ['WO-1', 'RP-1', 'L1', 'PR', 1],
  ['WO-2', 'RP-2', 'L1', 'PR', 1],
  ['WO-3', 'RP-3', 'L1', 'XA8', 3],
]);

describe('POST /tickets/xls-upload: re-import into a job that has the tickets', () => {
  it('requires authentication', async () => {
    expect((await upload(await freshJob(), FIRST, { mode: 'preview' }, null)).statusCode).toBe(401);
  });

  it('uploading the same workbook twice creates no task twice: the bid quantities stay (an old client sends no mode)', async () => {
    const job = await freshJob();
    const first = await upload(job, FIRST);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ tickets: 2, tasks: 3, updated: 0, rejectedRows: [] });
    const before = await tasksOf(job);
    expect(before).toEqual(['RP-1/L1 P40-2 1+0', 'RP-1/L1 XA8 2+0', 'RP-2/L1 PR 1+0']);
    for (let i = 0; i < 2; i++) {
      const again = await upload(job, FIRST);
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual({ tickets: 0, tasks: 0, updated: 0, rejectedRows: [] });
    }
    expect(await tasksOf(job)).toEqual(before);
    expect(await ticketCount(job)).toBe(2);
  });

  it('a preview lists new tickets, new tasks, changed quantities and unchanged rows, and writes nothing', async () => {
    const job = await freshJob();
    expect((await upload(job, FIRST)).statusCode).toBe(200);
    const before = await snapshot();
    const res = await upload(job, SECOND, { mode: 'preview' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      mode: 'preview',
      new_tickets: 1,
      new_tasks: 2,
      changed_quantities: [{ pole: 'RP-1', line: 'L1', code: 'XA8', from: 2, to: 4 }],
      changed_total: 1,
      unchanged: 2,
      preview_token: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await snapshot()).toEqual(before);
    // The same file and the same job give the same token.
    expect((await upload(job, SECOND, { mode: 'preview' })).json().preview_token).toBe(body.preview_token);
  });

  it('"Add new only" adds the new ticket and task and leaves the matched quantities', async () => {
    const job = await freshJob();
    await upload(job, FIRST);
    const { preview_token } = (await upload(job, SECOND, { mode: 'preview' })).json();
    const res = await upload(job, SECOND, { mode: 'add_new', preview_token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tickets: 1, tasks: 2, updated: 0, rejectedRows: [] });
    expect(await tasksOf(job)).toEqual(['RP-1/L1 P40-2 1+0', 'RP-1/L1 XA8 2+0', 'RP-1/L1 PR 1+0', 'RP-2/L1 PR 1+0', 'RP-3/L1 XA8 3+0']);
  });

  it('"Update quantities too" sets init_qty of the matched tasks, keeps their change, and moves the ticket’s version on', async () => {
    const job = await freshJob();
    await upload(job, FIRST);
    const [rp1] = await t.ctx.db.select().from(tickets).innerJoin(poles, eq(poles.id, tickets.poleId)).where(and(eq(tickets.jobId, job), eq(poles.poleName, 'RP-1')));
    // A crew recorded one more crossarm than bid.
    await t.ctx.db.update(ticketTasks).set({ additionalQty: 1 }).where(eq(ticketTasks.ticketId, rp1.tickets.id));
    const { preview_token } = (await upload(job, SECOND, { mode: 'preview' })).json();
    const res = await upload(job, SECOND, { mode: 'update_quantities', preview_token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tickets: 1, tasks: 2, updated: 1, rejectedRows: [] });
    expect(await tasksOf(job)).toEqual(['RP-1/L1 P40-2 1+1', 'RP-1/L1 XA8 4+1', 'RP-1/L1 PR 1+0', 'RP-2/L1 PR 1+0', 'RP-3/L1 XA8 3+0']);
    const [after] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, rp1.tickets.id));
    expect(after.version).toBe(rp1.tickets.version + 1);
    // Once more: nothing left to do.
    const again = await upload(job, SECOND, { mode: 'preview' });
    expect(again.json()).toMatchObject({ new_tickets: 0, new_tasks: 0, changed_quantities: [], unchanged: 5 });
  });

  it('a stale preview (the job changed since) is refused with 409 and the preview as it is now; nothing is written', async () => {
    const job = await freshJob();
    await upload(job, FIRST);
    const { preview_token } = (await upload(job, SECOND, { mode: 'preview' })).json();
    // Meanwhile someone changes the crossarms of RP-1 to 3.
    const [xa] = await t.ctx.db
      .select({ id: ticketTasks.id })
      .from(ticketTasks)
      .innerJoin(tickets, eq(tickets.id, ticketTasks.ticketId))
      .innerJoin(units, eq(units.id, ticketTasks.unitId))
      .where(and(eq(tickets.jobId, job), eq(units.code, 'XA8')));
    await t.ctx.db.update(ticketTasks).set({ initQty: 3 }).where(eq(ticketTasks.id, xa.id));
    const before = await snapshot();
    const res = await upload(job, SECOND, { mode: 'update_quantities', preview_token });
    expect(res.statusCode, res.body).toBe(409);
    const body = res.json();
    expect(body.error).toBe(MSG.reimportStale);
    expect(body.preview.changed_quantities).toEqual([{ pole: 'RP-1', line: 'L1', code: 'XA8', from: 3, to: 4 }]);
    expect(body.preview.preview_token).not.toBe(preview_token);
    expect(await snapshot()).toEqual(before);
    // The new preview's token is accepted.
    const ok = await upload(job, SECOND, { mode: 'update_quantities', preview_token: body.preview.preview_token });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await tasksOf(job)).toContain('RP-1/L1 XA8 4+0');
  });

  it('a job hit by the old duplicating import: the preview shows the summed bid, and "Update quantities too" brings it back to the file’s', async () => {
    const job = await freshJob();
    await upload(job, FIRST);
    // What the old upload left behind: the same file three times.
    const rows = await t.ctx.db.select().from(ticketTasks).innerJoin(tickets, eq(tickets.id, ticketTasks.ticketId)).where(eq(tickets.jobId, job));
    const copies = rows.map((r) => ({ companyId, ticketId: r.ticket_tasks.ticketId, unitId: r.ticket_tasks.unitId, initQty: r.ticket_tasks.initQty }));
    await t.ctx.db.insert(ticketTasks).values([...copies, ...copies]);
    const preview = (await upload(job, FIRST, { mode: 'preview' })).json();
    expect(preview.changed_quantities).toEqual([
      { pole: 'RP-1', line: 'L1', code: 'P40-2', from: 3, to: 1 },
      { pole: 'RP-1', line: 'L1', code: 'XA8', from: 6, to: 2 },
      { pole: 'RP-2', line: 'L1', code: 'PR', from: 3, to: 1 },
    ]);
    expect(preview.new_tasks).toBe(0);
    const res = await upload(job, FIRST, { mode: 'update_quantities', preview_token: preview.preview_token });
    expect(res.statusCode, res.body).toBe(200);
    // Each unit's bid sums to the file's again; the extra tasks (and any change on them) are kept.
    const left = await tasksOf(job);
    const sum = (code: string) => left.filter((x) => x.includes(` ${code} `)).reduce((s, x) => s + Number(/ (\d+)\+/.exec(x)![1]), 0);
    expect([sum('P40-2'), sum('XA8'), sum('PR')]).toEqual([1, 2, 1]);
  });

  it('two uploads of the same new workbook at once create its tickets and tasks once', async () => {
    const job = await freshJob();
    const [a, b] = await Promise.all([upload(job, FIRST, {}, admin), upload(job, FIRST, {}, office)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(await ticketCount(job)).toBe(2);
    expect(await tasksOf(job)).toEqual(['RP-1/L1 P40-2 1+0', 'RP-1/L1 XA8 2+0', 'RP-2/L1 PR 1+0']);
  });

  it('all or nothing: a bad row rejects the whole file, matched quantities are not updated', async () => {
    const job = await freshJob();
    await upload(job, FIRST);
    const before = await snapshot();
    const unknownUnit = csv([
      ['WO-1', 'RP-1', 'L1', 'XA8', 9],
      ['WO-9', 'RP-9', 'L1', 'NOPE-1', 1],
    ]);
    const res = await upload(job, unknownUnit, { mode: 'update_quantities' });
    expect(res.statusCode).toBe(422);
    expect(res.json().rejectedRows[0].message).toContain("'NOPE-1'");
    const badQty = csv([
      ['WO-1', 'RP-1', 'L1', 'XA8', 9],
      ['WO-9', 'RP-9', 'L1', 'PR', 'lots'],
    ]);
    const res2 = await upload(job, badQty, { mode: 'update_quantities' });
    expect(res2.statusCode).toBe(422);
    expect(res2.json().rejectedRows.map((r: { row: number }) => r.row)).toEqual([3]);
    expect((await upload(job, badQty, { mode: 'preview' })).statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it('mode columns answers the headers (a CSV has no library sheet) and writes nothing', async () => {
    const job = await freshJob();
    const res = await upload(job, FIRST, { mode: 'columns' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      jobColumns: ['Work Order', 'Pole', 'Line', 'Street', 'A', 'B', 'C', 'D', 'E', 'Unit', 'Qty'],
      libraryColumns: [],
      sheets: [{ name: 'CSV', hidden: false }],
      tickets: { name: 'CSV', headerRow: 1 },
      library: null,
      notes: [],
    });
    const xlsx = await upload(job, fixture('good.xlsx'), { mode: 'columns' }, admin, 'good.xlsx');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.json().libraryColumns.length).toBeGreaterThanOrEqual(7);
    const few = await upload(job, fixture('too-few-columns.xlsx'), { mode: 'columns' }, admin, 'few.xlsx');
    expect(few.statusCode).toBe(422);
    expect(few.json().error).toContain(MSG.tooFewJobColumns);
    expect(await ticketCount(job)).toBe(0);
  });

  it('answers 400 for an unknown mode or a malformed preview token', async () => {
    const job = await freshJob();
    expect((await upload(job, FIRST, { mode: 'replace_all' })).statusCode).toBe(400);
    expect((await upload(job, FIRST, { mode: 'add_new', preview_token: 'abc' })).statusCode).toBe(400);
    expect(await ticketCount(job)).toBe(0);
  });

  it('answers 404 for another company’s job and 403 for roles that may not create tickets, in every mode', async () => {
    const job = await freshJob();
    for (const mode of ['columns', 'preview', 'add_new', 'update_quantities']) {
      expect((await upload(job, FIRST, { mode }, other)).statusCode).toBe(404);
      for (const email of ['wforeman@example.com', 'lineman@example.com']) {
        expect((await upload(job, FIRST, { mode }, await t.login(email))).statusCode).toBe(403);
      }
    }
    expect(await ticketCount(job)).toBe(0);
    expect(await t.ctx.db.select().from(tickets).where(inArray(tickets.jobId, [job]))).toEqual([]);
  });
});
