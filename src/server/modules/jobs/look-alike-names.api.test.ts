import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { rowsOf } from '../../db/client';
import { migrationsFolder } from '../../db/client';
import { jobs, poles, units } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * docs/product/sessions-and-safety.md §9 "names that look alike": job numbers, pole and line names and
 * unit codes are stored and compared in NFKC with zero-width and bidi controls removed and blanks
 * collapsed, on every write path; a migration normalises existing rows and reports clashes.
 */
let t: TestApp;
let office: string;
let company: number;
let ngrid: number;

beforeAll(async () => {
  t = await createTestApp();
  office = await t.login('office@example.com');
  ({ company, ngrid } = await t.demo());
});

const saveJob = async (job_number: string, extra: Record<string, unknown> = {}) => {
  const packet = await t.storeFile(company, 'work_packet', 'packet.pdf');
  return t.request({
    method: 'PUT',
    url: '/api/v1/jobs/',
    token: office,
    body: { job: { job_number, job_type: 0, due_date: '12/31/2027', selected_utility_id: ngrid, work_packet_url: packet.url, work_packet_name: 'p.pdf', ...extra } },
  });
};

describe('job numbers', () => {
  it('that only look alike are one job number: each look-alike answers 409, and job_exists finds it', async () => {
    const first = await saveJob('Ｊ-７７ ');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().job.job_number).toBe('J-77');
    for (const lookAlike of ['J-77', 'J\u200b-77', 'J-77\u00a0', '\u202eJ-77', 'Ｊ－７７', 'J\u2060-77\ufeff']) {
      const res = await saveJob(lookAlike);
      expect(res.statusCode, JSON.stringify(lookAlike)).toBe(409);
      expect(res.json().error).toBe(MSG.jobNumberExists);
    }
    const exists = await t.request({ url: `/api/v1/jobs/job_exists/${encodeURIComponent('Ｊ-７７\u200b')}`, token: office });
    expect(exists.json()).toEqual([expect.objectContaining({ job_number: 'J-77' })]);
    expect(await t.ctx.db.select().from(jobs).where(and(eq(jobs.companyId, company), sql`${jobs.jobNumber} like '%77%'`))).toHaveLength(1);
  });
});

describe('pole, line and unit codes', () => {
  it('are stored normalised from a job save with new tickets and units, and look-alikes are one pole and one unit', async () => {
    const res = await saveJob('LOOK-1', {
      newUnits: [{ code: 'ＬＡ-１', description: 'Look-alike unit', family: 'F', type: 'T', action: 'A', uom: 'EA', notes: '' }],
      newTickets: [
        { pole: { pole_name: 'Ｐ\u200b-１', line_name: 'Main\u00a0\u00a0Line' }, tasks: [{ code: 'LA\u200b-1', init_qty: 1 }] },
        { pole: { pole_name: 'P-1', line_name: 'Main Line' }, tasks: [{ code: 'LA-1', init_qty: 2 }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.ctx.db.select({ code: units.code }).from(units).where(and(eq(units.companyId, company), sql`${units.code} like '%1'`, sql`${units.description} = 'Look-alike unit'`));
    expect(stored).toEqual([{ code: 'LA-1' }]);
    const tickets = (await t.request({ url: `/api/v1/jobs/tickets/${res.json().job.id}`, token: office })).json();
    expect(tickets).toHaveLength(1);
    expect(tickets[0]).toMatchObject({ pole_name: 'P-1', line_name: 'Main Line' });
  });

  it('are normalised when a pole is added or edited, so a look-alike pole in the job is the duplicate it is', async () => {
    const job = (await saveJob('LOOK-2')).json().job;
    const add = (pole_name: string, line_name: string) =>
      t.request({ method: 'POST', url: '/api/v1/poles/', token: office, body: { pole_name, line_name, utility: ngrid, job_id: job.id } });
    const first = await add('Ｑ-９', 'L\u200e-9');
    expect(first.statusCode, first.body).toBe(200);
    const [row] = await t.ctx.db.select().from(poles).where(eq(poles.id, first.json().ticket.pole_id));
    expect({ pole: row.poleName, line: row.lineName }).toEqual({ pole: 'Q-9', line: 'L-9' });
    const again = await add('Q-9', 'L-9\u00a0');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(MSG.addPoleDuplicate);
    const edit = await t.request({ method: 'PUT', url: '/api/v1/poles/', token: office, body: { pole: { id: row.id, pole_name: 'Ｑ-１０\u200b' } } });
    expect(edit.statusCode, edit.body).toBe(200);
    const [edited] = await t.ctx.db.select().from(poles).where(eq(poles.id, row.id));
    expect(edited.poleName).toBe('Q-10');
  });
});

describe('the migration', () => {
  it('normalises existing rows and reports look-alikes that would clash instead of failing', async () => {
    const db = t.ctx.db;
    const exec = (q: ReturnType<typeof sql>) => db.execute(q);
    // Rows written before the rule, straight into the tables.
    await exec(sql`insert into jobs (company_id, job_number, job_type, utility_id, due_date) values (${company}, 'MIG-1', 0, ${ngrid}, '2027-12-31'), (${company}, 'ＭＩＧ-１', 0, ${ngrid}, '2027-12-31'), (${company}, 'ＭＩＧ-２\u200b', 0, ${ngrid}, '2027-12-31')`);
    await exec(sql`insert into units (company_id, utility_id, code) values (${company}, ${ngrid}, 'ＵＭ-１'), (${company}, ${ngrid}, 'UM-1\u00a0'), (${company}, ${ngrid}, 'ＵＭ-２')`);
    await exec(sql`insert into poles (company_id, utility_id, pole_name, line_name) values (${company}, ${ngrid}, 'ＰＭ-1', 'L\u00a0\u00a01')`);

    // What the migration runs (its SQL function), run again over these rows.
    const file = readdirSync(migrationsFolder).find((f) => f.endsWith('_look_alike_names.sql'))!;
    const sqlText = readFileSync(path.join(migrationsFolder, file), 'utf8');
    expect(sqlText).toContain('SELECT linecrew_normalize_names()');
    const report = rowsOf<{ n: number }>(await exec(sql`select linecrew_normalize_names() as n`))[0];
    expect(Number(report.n)).toBe(4);

    const numbers = rowsOf<{ job_number: string }>(await exec(sql`select job_number from jobs where company_id = ${company} and (job_number like '%MIG%' or job_number like '%ＭＩＧ%')`));
    // MIG-2 is normalised; the two MIG-1 look-alikes clash: both kept as they were, and reported.
    expect(numbers.map((r) => r.job_number).sort()).toEqual(['MIG-1', 'MIG-2', 'ＭＩＧ-１'].sort());
    const codes = rowsOf<{ code: string }>(await exec(sql`select code from units where company_id = ${company} and (code like '%UM%' or code like '%ＵＭ%')`));
    expect(codes.map((r) => r.code).sort()).toEqual(['UM-1\u00a0', 'UM-2', 'ＵＭ-１'].sort());
    const pole = rowsOf<{ pole_name: string; line_name: string }>(await exec(sql`select pole_name, line_name from poles where pole_name like 'PM%' or pole_name like 'ＰＭ%'`));
    expect(pole).toEqual([{ pole_name: 'PM-1', line_name: 'L 1' }]);

    const clashes = rowsOf<{ kind: string; original: string; normalized: string }>(
      await exec(sql`select kind, original, normalized from name_clashes order by kind, original`),
    );
    expect(clashes).toEqual([
      { kind: 'jobs.job_number', original: 'MIG-1', normalized: 'MIG-1' },
      { kind: 'jobs.job_number', original: 'ＭＩＧ-１', normalized: 'MIG-1' },
      { kind: 'units.code', original: 'UM-1\u00a0', normalized: 'UM-1' },
      { kind: 'units.code', original: 'ＵＭ-１', normalized: 'UM-1' },
    ]);
  });
});
