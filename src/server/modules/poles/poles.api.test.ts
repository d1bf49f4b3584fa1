import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../shared/messages';
import { jobs, poles, tickets, utilities } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let admin: string;
let wforeman: string;
let lineman: string;
let other: string;
let ngrid: number;
let eversource: number;
let j1: number;
let otherCompanyPole: number;
let demoCompany: number;

beforeAll(async () => {
  t = await createTestApp();
  [admin, wforeman, lineman, other] = await t.loginAs('admin', 'wforeman', 'lineman', 'other');
  const us = await t.ctx.db.select().from(utilities);
  ngrid = us.find((u) => u.code === 'NGRID')!.id;
  eversource = us.find((u) => u.code === 'EVERSOURCE')!.id;
  demoCompany = us.find((u) => u.code === 'NGRID')!.companyId;
  const [job] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.jobNumber, 'J-1001'), eq(jobs.companyId, demoCompany)));
  j1 = job.id;
  const [op] = await t.ctx.db.select().from(poles).where(eq(poles.companyId, us.find((u) => u.code === 'OTHERPOWER')!.companyId));
  otherCompanyPole = op.id;
});

const get = (url: string, token = admin) => t.request({ method: 'GET', url: `/api/v1${url}`, token });

describe('GET /poles/byUtility', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'GET', url: '/api/v1/poles/byUtility' })).statusCode).toBe(401);
  });

  it('lists the poles of one utility by id or code, and of all utilities when empty', async () => {
    const byId = (await get(`/poles/byUtility?utility=${ngrid}`)).json().poles;
    expect(byId).toHaveLength(9);
    expect(byId.every((p: { utility_name: string }) => p.utility_name === 'NGRID')).toBe(true);
    expect((await get('/poles/byUtility?utility=eversource')).json().poles).toHaveLength(3);
    const all = (await get('/poles/byUtility?utility=')).json().poles;
    expect(all).toHaveLength(12); // the other company's pole is never listed
    expect(all[0]).toMatchObject({ pole_name: '10', line_name: '12', utility_id_owning_pole: ngrid, accessibility_label: 'Bucket truck', sub_curcuit: 'Springfield Sub' });
  });

  it('filters by pole and line prefix, case-insensitively, with LIKE wildcards taken literally', async () => {
    const res = (await get(`/poles/byUtility?utility=${ngrid}&pole=1&line=7`)).json().poles;
    expect(res.map((p: { pole_name: string }) => p.pole_name)).toEqual(['16', '17', '18']);
    expect((await get('/poles/byUtility?pole=%25')).json().poles).toEqual([]);
    expect((await get('/poles/byUtility?pole=_')).json().poles).toEqual([]);
  });

  it('answers no poles for an unknown utility or another company’s utility', async () => {
    expect((await get('/poles/byUtility?utility=999999')).json().poles).toEqual([]);
    expect((await get('/poles/byUtility?utility=OTHERPOWER')).json().poles).toEqual([]);
  });

  it('is limited to 50 rows', async () => {
    await t.ctx.db.insert(poles).values(Array.from({ length: 60 }, (_, i) => ({ companyId: demoCompany, utilityId: eversource, poleName: `LIM-${i}`, lineName: 'LIM' })));
    const res = (await get('/poles/byUtility?pole=lim-')).json().poles;
    expect(res).toHaveLength(50);
  });
});

describe('GET /poles/polesByPoleOrLine', () => {
  it('searches by pole with porlType=pole, by line with porlType=line', async () => {
    const byPole = (await get('/poles/polesByPoleOrLine?pole=11&line=zzz&porlType=pole')).json().poles;
    expect(byPole.map((p: { pole_name: string }) => p.pole_name)).toEqual(['11']);
    const byLine = (await get('/poles/polesByPoleOrLine?pole=zzz&line=7&porlType=line')).json().poles;
    expect(byLine).toHaveLength(6);
    expect(byLine.every((p: { line_name: string }) => p.line_name === '7')).toBe(true);
  });
  it('is read by every role', async () => {
    expect((await get('/poles/polesByPoleOrLine?pole=1', lineman)).statusCode).toBe(200);
  });
});

describe('GET /poles/specificPole', () => {
  it('answers the exact pole on the line of the utility as a list with sub_curcuit and id', async () => {
    const res = await get(`/poles/specificPole?pole=12&line=12&utility=${ngrid}`);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ pole_name: '12', line_name: '12', sub_curcuit: 'Springfield Sub' });
    expect(typeof list[0].id).toBe('number');
    expect((await get(`/poles/specificPole?pole=1&line=12&utility=${ngrid}`)).json()).toEqual([]); // exact, not prefix
    expect((await get(`/poles/specificPole?pole=12&line=12&utility=${eversource}`)).json()).toEqual([]);
  });
});

describe('GET /poles/accessTypes, /specs/partial, /permits/types', () => {
  it('require authentication', async () => {
    for (const url of ['/poles/accessTypes', '/specs/partial?partial=S', '/permits/types']) {
      expect((await t.request({ method: 'GET', url: `/api/v1${url}` })).statusCode).toBe(401);
    }
  });
  it('list the company’s access types and permit types as {id, title}', async () => {
    const access = (await get('/poles/accessTypes', lineman)).json();
    expect(access.map((a: { title: string }) => a.title)).toEqual(['Bucket truck', 'Climb only', 'Off-road / track machine', 'Backyard']);
    expect(Object.keys(access[0]).sort()).toEqual(['id', 'title']);
    const permits = (await get('/permits/types')).json();
    expect(permits.map((a: { title: string }) => a.title)).toEqual(['Town / City', 'State DOT', 'Railroad', 'Police detail']);
    expect((await get('/poles/accessTypes', other)).json()).toEqual([]);
  });
  it('search spec numbers by prefix', async () => {
    expect((await get('/specs/partial?partial=s-1')).json()).toEqual([{ spec_number: 'S-100' }, { spec_number: 'S-110' }, { spec_number: 'S-120' }]);
    expect((await get('/specs/partial?partial=T')).json()).toEqual([{ spec_number: 'T-300' }]);
    expect((await get('/specs/partial?partial=x')).json()).toEqual([]);
    expect((await get('/specs/partial?partial=S', other)).json()).toEqual([]);
  });
});

describe('PUT /poles/', () => {
  const put = (pole: unknown, token = admin) => t.request({ method: 'PUT', url: '/api/v1/poles/', token, body: { pole } });

  it('saves the pole fields, truncating coordinates to 6 decimals, and answers {pole}', async () => {
    const [p] = (await get(`/poles/specificPole?pole=15&line=12&utility=${ngrid}`)).json();
    const access = (await get('/poles/accessTypes')).json();
    const res = await put({
      ...p,
      street_address: '1 New St',
      geo_lat: 42.12345678,
      geo_lon: -72.98765432,
      accessibility_id: access[1].id,
      utility_spec: 'S-200',
      primary_voltage: '23 kV',
      secondary_voltage: '120/240 V',
      arc_rating: '12 cal/cm²',
      sub_curcuit: 'North Sub',
      sap_curcuit: 'N-1',
      utility_name: 'ignored',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().pole).toMatchObject({
      id: p.id,
      street_address: '1 New St',
      geo_lat: 42.123456,
      geo_lon: -72.987654,
      accessibility_id: access[1].id,
      accessibility_label: 'Climb only',
      utility_spec: 'S-200',
      sub_curcuit: 'North Sub',
      sap_curcuit: 'N-1',
      utility_name: 'NGRID',
    });
    const [row] = await t.ctx.db.select().from(poles).where(eq(poles.id, p.id));
    expect(row.geoLat).toBe(42.123456);
    expect(row.primaryVoltage).toBe('23 kV');
  });

  it('needs tickets.write: a working foreman or lineman gets 403', async () => {
    const [p] = (await get(`/poles/specificPole?pole=15&line=12&utility=${ngrid}`)).json();
    expect((await put({ id: p.id, street_address: 'x' }, wforeman)).statusCode).toBe(403);
    expect((await put({ id: p.id, street_address: 'x' }, lineman)).statusCode).toBe(403);
  });

  it('answers 404 for another company’s pole and 400 for bad input', async () => {
    expect((await put({ id: otherCompanyPole, street_address: 'x' })).statusCode).toBe(404);
    const [p] = (await get(`/poles/specificPole?pole=15&line=12&utility=${ngrid}`)).json();
    expect((await put({ id: p.id, geo_lat: 123 })).statusCode).toBe(400);
    expect((await put({ id: p.id, pole_name: '' })).statusCode).toBe(400);
    expect((await put({ id: p.id, accessibility_id: 999999 })).json().error).toBe(MSG.poleAccessTypeInvalid);
    expect((await put({ id: p.id, utility_id_owning_pole: 999999 })).json().error).toBe(MSG.poleUtilityInvalid);
  });
});

describe('POST /poles/ (add a pole)', () => {
  const post = (body: unknown, token = admin) => t.request({ method: 'POST', url: '/api/v1/poles/', token, body });

  it('adds a pole without a job and answers ok with the pole', async () => {
    const res = await post({ pole_name: 'N-1', line_name: 'L-N', utility: ngrid, pole_id: 'PID-1', line_id: 'LID-1', geo_lat: 42.9876549, geo_lon: -71.1234567 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.ok).toBe(true);
    expect(body.ticket).toBeUndefined();
    expect(body.pole).toMatchObject({ pole_name: 'N-1', line_name: 'L-N', pole_id: 'PID-1', line_id: 'LID-1', utility_id_owning_pole: ngrid, geo_lat: 42.987654, geo_lon: -71.123456 });
  });

  it('accepts the utility id as text and the {pole} form', async () => {
    const res = await post({ pole: { pole_name: 'N-2', line_name: 'L-N', utility: String(ngrid) } });
    expect(res.statusCode).toBe(200);
    expect(res.json().pole.pole_name).toBe('N-2');
  });

  it('with job_id also creates the ticket of the pole in that job, saved at once', async () => {
    const res = await post({ pole_name: 'N-3', line_name: 'L-N', utility: ngrid, due_date: '12/31/2030', job_id: j1 });
    expect(res.statusCode).toBe(200);
    const { pole, ticket } = res.json();
    expect(ticket).toMatchObject({ job_id: j1, pole_id: pole.id, pole_name: 'N-3', line_name: 'L-N', status: 'Pending', due_date: '2030-12-31', version: 1 });
    const [row] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(row.poleId).toBe(pole.id);
  });

  it('refuses a missing pole name, line name or utility with the SPEC message', async () => {
    for (const body of [
      { pole_name: '', line_name: 'L', utility: ngrid },
      { pole_name: 'P', line_name: '  ', utility: ngrid },
      { pole_name: 'P', line_name: 'L' },
      { pole_name: 'P', line_name: 'L', utility: -1 },
      { pole_name: 'P', line_name: 'L', utility: 999999 },
    ]) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(MSG.addPoleMissing);
    }
  });

  it('refuses a pole and line that a ticket of the job already has (409, SPEC message), whatever the case', async () => {
    const res = await post({ pole_name: '10', line_name: '12', utility: ngrid, job_id: j1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MSG.addPoleDuplicate);
    const again = await post({ pole_name: 'n-3 ', line_name: 'l-n', utility: ngrid, job_id: j1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(MSG.addPoleDuplicate);
  });

  it('answers 404 for another company’s job and writes nothing', async () => {
    const before = (await t.ctx.db.select().from(poles)).length;
    const res = await post({ pole_name: 'X', line_name: 'X', utility: ngrid, job_id: j1 }, other);
    expect(res.statusCode).toBe(404);
    expect((await t.ctx.db.select().from(poles)).length).toBe(before);
  });

  it('needs tickets.write', async () => {
    expect((await post({ pole_name: 'W', line_name: 'W', utility: ngrid }, wforeman)).statusCode).toBe(403);
    expect((await post({ pole_name: 'W', line_name: 'W', utility: ngrid }, lineman)).statusCode).toBe(403);
  });
});
