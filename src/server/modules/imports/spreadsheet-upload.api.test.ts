import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { jobs, tickets, ticketTasks, units } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';
import { fixture, multipart } from '../../test/files';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

let t: TestApp;
let admin: string;
let other: string;
let j1: number;
let j3: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, other] = await t.loginAs('admin', 'other');
  const js = await t.ctx.db.select().from(jobs).orderBy(asc(jobs.id));
  j1 = js.find((j) => j.jobNumber === 'J-1001')!.id;
  j3 = js.find((j) => j.jobNumber === 'J-1003')!.id;
});

function upload(fields: Record<string, string>, file?: { name: string; content: Buffer; type?: string }, token: string | null = admin) {
  const body = multipart(fields, file ? { field: 'file', name: file.name, type: file.type ?? XLSX, content: file.content } : undefined);
  return t.request({ method: 'POST', url: '/api/v1/tickets/xls-upload', token: token ?? undefined, headers: body.headers, payload: body.payload });
}
const countTickets = async (jobId: number) => (await t.ctx.db.select().from(tickets).where(eq(tickets.jobId, jobId))).length;

describe('POST /tickets/xls-upload', () => {
  it('requires authentication', async () => {
    expect((await upload({ job_id: String(j1) }, { name: 'good.xlsx', content: fixture('good.xlsx') }, null)).statusCode).toBe(401);
  });

  it('adds the workbook’s tickets and tasks to the job with the default mapping, and imports its unit library', async () => {
    const before = await countTickets(j1);
    const res = await upload({ job_id: String(j1) }, { name: 'good.xlsx', content: fixture('good.xlsx') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tickets: 3, tasks: 5, updated: 0, rejectedRows: [] });
    expect(await countTickets(j1)).toBe(before + 3);
    expect((await t.ctx.db.select().from(units).where(eq(units.code, 'U-300')))[0].description).toBe('Crossarm 10 ft');
  });

  it('rejects the whole file when any row is bad (422, every rejected row listed, nothing added)', async () => {
    const before = await countTickets(j1);
    const tasksBefore = (await t.ctx.db.select().from(ticketTasks)).length;
    const res = await upload({ job_id: String(j1) }, { name: 'bad-row.xlsx', content: fixture('bad-row.xlsx') });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.tickets).toBe(0);
    expect(body.rejectedRows.map((r: { row: number }) => r.row)).toEqual([14, 15]);
    expect(body.rejectedRows[0].message).toContain('Row 14');
    expect(body.error).toContain(MSG.xlsRejected(2));
    expect(await countTickets(j1)).toBe(before);
    expect((await t.ctx.db.select().from(ticketTasks)).length).toBe(tasksBefore);
  });

  it('rejects rows whose unit is not in the job utility’s library (the sheet has no library)', async () => {
    const before = await countTickets(j3);
    const res = await upload({ job_id: String(j3) }, { name: 'tickets.csv', content: fixture('tickets.csv'), type: 'text/csv' });
    expect(res.statusCode).toBe(422);
    expect(res.json().rejectedRows[0].message).toContain("'U-100'");
    expect(await countTickets(j3)).toBe(before);
  });

  it('uses the mapping sent as JSON', async () => {
    const csv = [
      'WO,Pole Number,Line Number,A,B,C,D,E,F,Unit Code,Qty',
      'WO-9,X-1,Y-1,,,,,,,P40-2,2',
      'WO-9,X-1,Y-1,,,,,,,PR,1',
      'WO-8,X-2,Y-1,,,,,,,XA8,4',
    ].join('\n');
    const mapping = { work_order: 'WO', pole: 'Pole Number', line: 'Line Number', unit_task: 'Unit Code', qty: 'Qty' };
    const res = await upload({ job_id: String(j3), ticketsMappings: JSON.stringify(mapping) }, { name: 'm.csv', content: Buffer.from(csv), type: 'text/csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ tickets: 2, tasks: 3, updated: 0, rejectedRows: [] });
    expect((await upload({ job_id: String(j3), ticketsMappings: '{not json' }, { name: 'm.csv', content: Buffer.from(csv) })).statusCode).toBe(400);
    const incomplete = await upload({ job_id: String(j3), ticketsMappings: JSON.stringify({ pole: 'Pole Number' }) }, { name: 'm.csv', content: Buffer.from(csv) });
    expect(incomplete.statusCode).toBe(422);
    expect(incomplete.json().rejectedRows[0].row).toBe(0);
  });

  it('answers clear errors for a missing file, a legacy .xls and too few columns', async () => {
    expect((await upload({ job_id: String(j1) })).json().error).toBe(MSG.xlsFileMissing);
    const xls = await upload({ job_id: String(j1) }, { name: 'legacy.xls', content: fixture('legacy.xls'), type: 'application/vnd.ms-excel' });
    expect(xls.statusCode).toBe(422);
    expect(xls.json().error).toBe(MSG.excelLegacyXls);
    const few = await upload({ job_id: String(j1) }, { name: 'few.xlsx', content: fixture('too-few-columns.xlsx') });
    expect(few.statusCode).toBe(422);
    expect(few.json().error).toContain(MSG.tooFewJobColumns);
    // Multipart files may be larger than the 1 MB JSON body limit (up to the excel upload limit).
    const big = Buffer.from(`a,b,c\n${'1,2,3\n'.repeat(400_000)}`);
    expect(big.length).toBeGreaterThan(2_000_000);
    const bigRes = await upload({ job_id: String(j1) }, { name: 'big.csv', content: big, type: 'text/csv' });
    // …and read: its 400,000 rows are over the row limit of a workbook.
    expect(bigRes.statusCode).toBe(422);
    expect(bigRes.json().error).toBe(MSG.excelTooManyRows(20_000));
    expect((await upload({}, { name: 'good.xlsx', content: fixture('good.xlsx') })).statusCode).toBe(400);
  });

  it('answers 404 for another company’s job and 403 for roles that may not create tickets', async () => {
    expect((await upload({ job_id: String(j1) }, { name: 'good.xlsx', content: fixture('good.xlsx') }, other)).statusCode).toBe(404);
    for (const email of ['wforeman@example.com', 'lineman@example.com']) {
      const token = await t.login(email);
      expect((await upload({ job_id: String(j1) }, { name: 'good.xlsx', content: fixture('good.xlsx') }, token)).statusCode).toBe(403);
    }
  });
});
