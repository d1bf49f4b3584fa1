import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '../../../shared/messages';
import { jobs, users } from '../../db/schema/index';
import { createTestApp, resetLinkFrom } from '../../test/harness';

const t = await createTestApp();
const API = '/api/v1';

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, otherAdmin: string;
const ids: Record<string, number> = {};

const userByEmail = async (email: string) => (await t.ctx.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0];

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, otherAdmin] = await Promise.all(
    ['admin@example.com', 'office@example.com', 'foreman@example.com', 'wforeman@example.com', 'lineman@example.com', 'admin@other.example.com'].map(
      (e) => t.login(e),
    ),
  );
  for (const email of ['admin@example.com', 'office@example.com', 'foreman@example.com', 'fiona@example.com', 'wforeman@example.com', 'wendy@example.com', 'lineman@example.com', 'ray@example.com', 'admin@other.example.com', 'apprentice@example.com']) {
    ids[email] = (await userByEmail(email)).id;
  }
});

let seq = 0;
const newCrew = (over: Record<string, unknown> = {}) => {
  seq++;
  return {
    first_name: 'Nina',
    last_name: `Newhire${seq}`,
    email: `nina.${seq}.${Date.now()}@example.com`,
    phone_number: '6175550199',
    role_id: 5,
    foreman: ids['foreman@example.com'],
    crew_status: 1,
    ...over,
  };
};
const post = (token: string | undefined, crew: unknown) => t.request({ method: 'POST', url: `${API}/crew`, token, body: { crew } });
const put = (token: string | undefined, id: number, crew: unknown) => t.request({ method: 'PUT', url: `${API}/crew/${id}`, token, body: { crew } });
const get = (token: string | undefined, url: string) => t.request({ method: 'GET', url: `${API}${url}`, token });

/** The member's current row as PUT expects it (the spec client sends the whole object back). */
async function editable(id: number) {
  const list = (await get(admin, '/crew/allCrew')).json() as Array<Record<string, unknown>>;
  const m = list.find((x) => x.id === id)!;
  return {
    first_name: m.first_name,
    last_name: m.last_name,
    email: m.email,
    phone_number: m.phone_number,
    role_id: m.role_id,
    foreman: m.foreman,
    crew_status: m.crew_status,
  };
}

describe('GET /crew/allCrew', () => {
  it('requires authentication', async () => {
    const res = await get(undefined, '/crew/allCrew');
    expect(res.statusCode).toBe(401);
  });

  it('lists the whole company roster (active and inactive) in the docs/product/entities.md shape, and nothing of another company', async () => {
    const res = await get(office, '/crew/allCrew');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Array<Record<string, unknown>>;
    const emails = list.map((m) => m.email);
    expect(emails).toContain('ray@example.com');
    expect(emails).not.toContain('admin@other.example.com');
    const liam = list.find((m) => m.email === 'lineman@example.com')!;
    expect(Object.keys(liam).sort()).toEqual(
      [
        'id',
        'first_name',
        'last_name',
        'email',
        'phone_number',
        'role_id',
        'display_role_name',
        'crew_status',
        'foreman',
        'foreman_firstname',
        'foreman_lastname',
        'status_name',
        'date_created',
        // Beyond docs/product/entities.md: whether the invitation is still open.
        'invitation_pending',
      ].sort(),
    );
    expect(liam).toMatchObject({
      first_name: 'Liam',
      role_id: 5,
      display_role_name: 'Lineman',
      crew_status: 1,
      status_name: 'Active',
      foreman: ids['foreman@example.com'],
      foreman_firstname: 'Frank',
      foreman_lastname: 'Foreman',
      phone_number: '5550123',
    });
    expect(new Date(liam.date_created as string).getTime()).not.toBeNaN();
    expect(list.find((m) => m.email === 'ray@example.com')).toMatchObject({ crew_status: 2, status_name: 'Inactive' });
  });

  it('lets a Foreman view the crew', async () => {
    expect((await get(foreman, '/crew/allCrew')).statusCode).toBe(200);
  });

  it('refuses a Working Foreman and a Lineman with 403 and the message in body.status', async () => {
    for (const token of [wforeman, lineman]) {
      const res = await get(token, '/crew/allCrew');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: MSG.forbidden, status: MSG.forbidden });
    }
  });

  it('scopes another company to its own roster', async () => {
    const list = (await get(otherAdmin, '/crew/allCrew')).json() as Array<{ email: string }>;
    expect(list.map((m) => m.email)).toEqual(['admin@other.example.com']);
  });
});

describe('GET /crew/foremen and /crew/working_foremen', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/crew/foremen')).statusCode).toBe(401);
    expect((await get(undefined, '/crew/working_foremen')).statusCode).toBe(401);
  });

  it('offers the active foremen (role 3) of the company as {id, first_name, last_name}', async () => {
    const res = await get(office, '/crew/foremen');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: ids['fiona@example.com'], first_name: 'Fiona', last_name: 'Field' },
      { id: ids['foreman@example.com'], first_name: 'Frank', last_name: 'Foreman' },
    ]);
  });

  it('offers the active working foremen (role 4), readable by any signed-in role', async () => {
    const res = await get(lineman, '/crew/working_foremen');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: ids['wforeman@example.com'], first_name: 'Walt', last_name: 'Working' },
      { id: ids['wendy@example.com'], first_name: 'Wendy', last_name: 'Wire' },
    ]);
  });

  it('does not offer an inactive member, yet their past work stays attributed to them', async () => {
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.foremanId, ids['foreman@example.com'])).limit(1);
    // Fiona becomes inactive: she leaves the foremen list...
    const fiona = ids['fiona@example.com'];
    await t.ctx.db.update(jobs).set({ foremanId: fiona }).where(eq(jobs.id, job.id));
    const res = await put(admin, fiona, { ...(await editable(fiona)), crew_status: 2 });
    expect(res.statusCode).toBe(200);
    const offered = (await get(office, '/crew/foremen')).json() as Array<{ id: number }>;
    expect(offered.map((f) => f.id)).not.toContain(fiona);
    // ...a new lineman cannot be put under her...
    const refused = await post(office, newCrew({ foreman: fiona }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().status).toBe(MSG.foremanInvalid);
    // ...but the job she ran still names her, and her crew still shows her as their foreman.
    const [after] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(after.foremanId).toBe(fiona);
    const luis = ((await get(admin, '/crew/allCrew')).json() as Array<Record<string, unknown>>).find((m) => m.email === 'luis@example.com');
    expect(luis).toMatchObject({ foreman: fiona, foreman_firstname: 'Fiona' });
    // Editing Luis's phone without re-assigning him keeps his (now inactive) foreman.
    const luisId = luis!.id as number;
    const edit = await put(office, luisId, { ...(await editable(luisId)), phone_number: '5551234' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().crew).toMatchObject({ foreman: fiona, phone_number: '5551234' });
    // Restore for the other tests.
    await put(admin, fiona, { ...(await editable(fiona)), crew_status: 1 });
    await t.ctx.db.update(jobs).set({ foremanId: job.foremanId }).where(eq(jobs.id, job.id));
  });

  it('does not offer an inactive working foreman', async () => {
    const wendy = ids['wendy@example.com'];
    await put(admin, wendy, { ...(await editable(wendy)), crew_status: 2 });
    const offered = (await get(office, '/crew/working_foremen')).json() as Array<{ id: number }>;
    expect(offered.map((f) => f.id)).toEqual([ids['wforeman@example.com']]);
    await put(admin, wendy, { ...(await editable(wendy)), crew_status: 1 });
  });
});

describe('GET /crew/foreman-crew', () => {
  it('requires authentication', async () => {
    expect((await get(undefined, '/crew/foreman-crew?job_id=1')).statusCode).toBe(401);
  });

  it("lists the active working foremen and crew of the job's foreman", async () => {
    const frank = ids['foreman@example.com'];
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.foremanId, frank)).limit(1);
    expect(job).toBeDefined();
    const res = await get(wforeman, `/crew/foreman-crew?job_id=${job.id}`);
    expect(res.statusCode).toBe(200);
    const crew = res.json() as Array<{ id: number; role_id: number; first_name: string; display_role_name: string }>;
    expect(crew.map((c) => c.first_name)).toEqual(['Walt', 'Wendy', 'Liam', 'Ava']);
    expect(crew[0]).toEqual({ id: ids['wforeman@example.com'], first_name: 'Walt', last_name: 'Working', role_id: 4, display_role_name: 'Working Foreman' });
  });

  it('answers an empty list for a job without a foreman', async () => {
    const [job] = await t.ctx.db
      .insert(jobs)
      .values({
        companyId: (await userByEmail('admin@example.com')).companyId,
        jobNumber: `NOFOREMAN-${Date.now()}`,
        dueDate: '2030-01-01',
        utilityId: (await t.ctx.db.select({ u: jobs.utilityId }).from(jobs).limit(1))[0].u,
      })
      .returning();
    const res = await get(office, `/crew/foreman-crew?job_id=${job.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
  });

  it("answers 404 for another company's job and 400 for a missing or bad job_id", async () => {
    const [job] = await t.ctx.db.select().from(jobs).limit(1);
    const res = await get(otherAdmin, `/crew/foreman-crew?job_id=${job.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().status).toBeTruthy();
    expect((await get(office, '/crew/foreman-crew')).statusCode).toBe(400);
    expect((await get(office, '/crew/foreman-crew?job_id=abc')).statusCode).toBe(400);
  });
});

describe('POST /crew', () => {
  it('requires authentication', async () => {
    expect((await post(undefined, newCrew())).statusCode).toBe(401);
  });

  it('lets an Office Manager add a lineman under a foreman: 200, stored with no password, and invited by mail', async () => {
    const crew = newCrew({ email: 'Nina.Lineman@Example.com' });
    const before = t.outbox().length;
    const res = await post(office, crew);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, invited: true });
    expect(body.crew).toMatchObject({
      first_name: 'Nina',
      last_name: crew.last_name,
      email: 'Nina.Lineman@Example.com',
      role_id: 5,
      display_role_name: 'Lineman',
      foreman: ids['foreman@example.com'],
      foreman_firstname: 'Frank',
      crew_status: 1,
      status_name: 'Active',
      phone_number: '6175550199',
    });
    const row = await userByEmail('nina.lineman@example.com');
    expect(row).toMatchObject({ passwordHash: null, roleId: 5, crewStatus: 1, foremanId: ids['foreman@example.com'] });
    expect(row.companyId).toBe((await userByEmail('office@example.com')).companyId);
    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].toLowerCase()).toContain('to: nina.lineman@example.com');
    expect(resetLinkFrom(mails[0]).userId).toBe(row.id);
  });

  it('the new member cannot log in until the invitation link is used, then can', async () => {
    const crew = newCrew();
    const before = t.outbox().length;
    expect((await post(admin, crew)).statusCode).toBe(200);
    const login = (password: string) => t.request({ method: 'POST', url: `${API}/crew/login`, body: { email: crew.email, password } });
    const refused = await login('anything');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toBe(MSG.loginUnverified);

    const { resetToken, userId } = resetLinkFrom(t.outbox()[before]);
    const reset = await t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password: 'my-new-pass' } });
    expect(reset.statusCode).toBe(200);
    const ok = await login('my-new-pass');
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ email: crew.email, role_id: 5 });
    // A lineman cannot see the crew page's data.
    expect((await get(ok.json().token, '/crew/allCrew')).statusCode).toBe(403);
  });

  it('creates an inactive member without inviting them', async () => {
    const before = t.outbox().length;
    const res = await post(office, newCrew({ crew_status: 2 }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, invited: false, crew: { crew_status: 2, status_name: 'Inactive' } });
    expect(t.outbox().length).toBe(before);
  });

  it('answers 409 MSG.emailTaken for a duplicate email, whatever its case, and for an address of another company', async () => {
    for (const email of ['LINEMAN@example.com', 'admin@other.example.com']) {
      const res = await post(office, newCrew({ email }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: MSG.emailTaken, status: MSG.emailTaken });
    }
    const [{ n }] = await t.ctx.db.select({ n: sql<number>`count(*)` }).from(users).where(sql`lower(${users.email}) = 'lineman@example.com'`);
    expect(Number(n)).toBe(1);
  });

  it('refuses a Foreman (may view, not edit) and a Lineman with 403, storing nothing', async () => {
    for (const token of [foreman, lineman, wforeman]) {
      const crew = newCrew();
      const res = await post(token, crew);
      expect(res.statusCode).toBe(403);
      expect(res.json().status).toBe(MSG.forbidden);
      expect(await userByEmail(crew.email)).toBeUndefined();
    }
  });

  it('refuses a bad body with 403 before 400 for a role that may not add crew', async () => {
    expect((await post(lineman, { first_name: '' })).statusCode).toBe(403);
  });

  it('only an Admin grants role 1', async () => {
    const byOffice = await post(office, newCrew({ role_id: 1, foreman: null }));
    expect(byOffice.statusCode).toBe(403);
    expect(byOffice.json().status).toBe(MSG.adminOnlyGrant);
    const byAdmin = await post(admin, newCrew({ role_id: 1, foreman: null }));
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().crew).toMatchObject({ role_id: 1, display_role_name: 'Admin', foreman: null });
  });

  it.each([
    ['first name shorter than 2', { first_name: 'N' }, MSG.firstName],
    ['blank first name', { first_name: '   ' }, MSG.firstName],
    ['last name shorter than 2', { last_name: 'X' }, MSG.lastName],
    ['bad email', { email: 'not-an-email' }, MSG.email],
    ['9-digit phone', { phone_number: '617555019' }, MSG.phone],
    ['8-digit phone', { phone_number: '61755501' }, MSG.phone],
    ['no role', { role_id: undefined }, MSG.role],
    ['unknown role', { role_id: 9 }, MSG.role],
    ['lineman without foreman', { role_id: 5, foreman: null }, MSG.foreman],
    ['apprentice without foreman', { role_id: 6, foreman: undefined }, MSG.foreman],
    ['working foreman without foreman', { role_id: 4, foreman: null }, MSG.foreman],
  ])('answers 400 with the docs/product/rules.md message for a %s', async (_name, over, message) => {
    const crew = newCrew(over);
    const res = await post(office, crew);
    expect(res.statusCode).toBe(400);
    expect(res.json().status).toContain(message);
    expect(res.json().error).toContain(message);
    if (typeof crew.email === 'string' && crew.email.includes('@')) expect(await userByEmail(crew.email)).toBeUndefined();
  });

  it('accepts a 7-digit phone, an empty phone and no phone', async () => {
    for (const phone_number of ['5550199', '', null]) {
      const res = await post(office, newCrew({ phone_number }));
      expect(res.statusCode).toBe(200);
      expect(res.json().crew.phone_number).toBe(phone_number || null);
    }
  });

  it('requires the foreman to be an active Foreman (role 3) of the same company', async () => {
    for (const foremanId of [ids['wforeman@example.com'], ids['lineman@example.com'], ids['admin@other.example.com'], 999999]) {
      const res = await post(office, newCrew({ foreman: foremanId }));
      expect(res.statusCode).toBe(400);
      expect(res.json().status).toBe(MSG.foremanInvalid);
    }
  });

  it('stores no crew foreman for roles that do not have one', async () => {
    const res = await post(office, newCrew({ role_id: 3, foreman: ids['foreman@example.com'] }));
    expect(res.statusCode).toBe(200);
    expect(res.json().crew).toMatchObject({ role_id: 3, foreman: null, foreman_firstname: null });
  });

  it('trims names and rejects over-long input with 400, never 500', async () => {
    const res = await post(office, newCrew({ first_name: '  Padded  ' }));
    expect(res.json().crew.first_name).toBe('Padded');
    expect((await post(office, newCrew({ first_name: 'x'.repeat(500) }))).statusCode).toBe(400);
    expect((await post(office, newCrew({ email: `${'x'.repeat(300)}@example.com` }))).statusCode).toBe(400);
    expect((await t.request({ method: 'POST', url: `${API}/crew`, token: office, body: { nope: 1 } })).statusCode).toBe(400);
  });
});

describe('PUT /crew/{id}', () => {
  it('requires authentication', async () => {
    expect((await put(undefined, ids['lineman@example.com'], {})).statusCode).toBe(401);
  });

  it('lets an Office Manager edit a member: names, phone, role, foreman, status', async () => {
    const id = ids['apprentice@example.com'];
    const res = await put(office, id, {
      ...(await editable(id)),
      first_name: 'Avery',
      phone_number: '6175550177',
      role_id: 5,
      foreman: ids['fiona@example.com'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, crew: { id, first_name: 'Avery', role_id: 5, display_role_name: 'Lineman', foreman_firstname: 'Fiona' } });
    const row = await userByEmail('apprentice@example.com');
    expect(row).toMatchObject({ firstName: 'Avery', phoneNumber: '6175550177', roleId: 5, foremanId: ids['fiona@example.com'] });
  });

  it('deactivating a member stops their sign-in and their open session at once; reactivating restores it', async () => {
    const id = ids['lineman@example.com'];
    const res = await put(office, id, { ...(await editable(id)), crew_status: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json().crew).toMatchObject({ crew_status: 2, status_name: 'Inactive' });
    expect((await get(lineman, '/crew/myData')).statusCode).toBe(401);
    const login = await t.request({ method: 'POST', url: `${API}/crew/login`, body: { email: 'lineman@example.com', password: 'linecrew' } });
    expect(login.statusCode).toBe(403);
    expect((await put(office, id, { ...(await editable(id)), crew_status: 1 })).statusCode).toBe(200);
    lineman = await t.login('lineman@example.com');
  });

  it('refuses a Foreman with 403 (view, not edit) and a Lineman with 403, changing nothing', async () => {
    const id = ids['wendy@example.com'];
    for (const token of [foreman, lineman]) {
      const res = await put(token, id, { ...(await editable(id)), first_name: 'Hacked' });
      expect(res.statusCode).toBe(403);
      expect(res.json().status).toBe(MSG.forbidden);
    }
    expect((await userByEmail('wendy@example.com')).firstName).toBe('Wendy');
  });

  it("answers 404 for another company's member, and for an unknown id", async () => {
    const other = ids['admin@other.example.com'];
    const crew = { first_name: 'Hacked', last_name: 'Other', role_id: 2, crew_status: 1 };
    for (const id of [other, 999999]) {
      const res = await put(admin, id, crew);
      expect(res.statusCode).toBe(404);
      expect(res.json().status).toBeTruthy();
    }
    expect((await userByEmail('admin@other.example.com')).firstName).toBe('Otto');
    expect((await put(admin, 0, crew)).statusCode).toBe(400);
    expect((await t.request({ method: 'PUT', url: `${API}/crew/abc`, token: admin, body: { crew } })).statusCode).toBe(400);
  });

  it('only an Admin grants role 1, and only an Admin changes an Admin', async () => {
    const id = ids['wendy@example.com'];
    const promote = await put(office, id, { ...(await editable(id)), role_id: 1, foreman: null });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().status).toBe(MSG.adminOnlyGrant);
    expect((await userByEmail('wendy@example.com')).roleId).toBe(4);

    const adminId = ids['admin@example.com'];
    const demote = await put(office, adminId, { ...(await editable(adminId)), first_name: 'Changed' });
    expect(demote.statusCode).toBe(403);
    expect(demote.json().status).toBe(MSG.adminOnlyEdit);

    const officeId = ids['office@example.com'];
    const byAdmin = await put(admin, officeId, { ...(await editable(officeId)), role_id: 1 });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().crew.role_id).toBe(1);
    expect((await put(admin, officeId, { ...(await editable(officeId)), role_id: 2 })).statusCode).toBe(200);
  });

  it('keeps the email read-only: the same address is accepted, a different one refused', async () => {
    const id = ids['wendy@example.com'];
    const same = await put(office, id, { ...(await editable(id)), email: 'WENDY@example.com' });
    expect(same.statusCode).toBe(200);
    const changed = await put(office, id, { ...(await editable(id)), email: 'wendy2@example.com' });
    expect(changed.statusCode).toBe(400);
    expect(changed.json().status).toBe(MSG.crewEmailReadOnly);
    expect((await userByEmail('wendy@example.com')).email).toBe('wendy@example.com');
  });

  it('applies the docs/product/rules.md rules on edit too', async () => {
    const id = ids['wendy@example.com'];
    const base = await editable(id);
    for (const [over, message] of [
      [{ first_name: 'W' }, MSG.firstName],
      [{ phone_number: '123456789' }, MSG.phone],
      [{ foreman: null }, MSG.foreman],
      [{ foreman: ids['wforeman@example.com'] }, MSG.foremanInvalid],
    ] as const) {
      const res = await put(office, id, { ...base, ...over });
      expect(res.statusCode).toBe(400);
      expect(res.json().status).toContain(message);
    }
  });

  it('does not let a user deactivate themselves or change their own role', async () => {
    const id = ids['office@example.com'];
    for (const over of [{ crew_status: 2 }, { role_id: 3 }]) {
      const res = await put(office, id, { ...(await editable(id)), ...over });
      expect(res.statusCode).toBe(400);
      expect(res.json().status).toBe(MSG.crewSelfChange);
    }
    const rename = await put(office, id, { ...(await editable(id)), last_name: 'Officer' });
    expect(rename.statusCode).toBe(200);
  });
});

describe('POST /crew/{id}/reset-password', () => {
  it('requires authentication', async () => {
    expect((await t.request({ method: 'POST', url: `${API}/crew/${ids['wendy@example.com']}/reset-password` })).statusCode).toBe(401);
  });

  it('mails the member a working reset link and answers with the crew-modal message', async () => {
    const id = ids['wendy@example.com'];
    const before = t.outbox().length;
    const res = await t.request({ method: 'POST', url: `${API}/crew/${id}/reset-password`, token: office });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: MSG.crewResetSent });
    const mails = t.outbox().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain('To: wendy@example.com');
    const { resetToken, userId } = resetLinkFrom(mails[0]);
    expect(userId).toBe(id);
    const reset = await t.request({ method: 'POST', url: `${API}/crew/reset-password`, body: { resetToken, userId, password: 'wendy-pass' } });
    expect(reset.statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: `${API}/crew/login`, body: { email: 'wendy@example.com', password: 'wendy-pass' } })).statusCode).toBe(200);
  });

  it('refuses a Foreman and a Lineman (403), another company (404) and an inactive member (400)', async () => {
    const id = ids['wendy@example.com'];
    for (const token of [foreman, lineman]) {
      expect((await t.request({ method: 'POST', url: `${API}/crew/${id}/reset-password`, token })).statusCode).toBe(403);
    }
    expect((await t.request({ method: 'POST', url: `${API}/crew/${id}/reset-password`, token: otherAdmin })).statusCode).toBe(404);
    const ray = await t.request({ method: 'POST', url: `${API}/crew/${ids['ray@example.com']}/reset-password`, token: office });
    expect(ray.statusCode).toBe(400);
    expect(ray.json().status).toBe(MSG.crewResetInactive);
  });
});

describe('OpenAPI document', () => {
  it('describes the crew routes', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of ['/api/v1/crew/allCrew', '/api/v1/crew/foremen', '/api/v1/crew/working_foremen', '/api/v1/crew/foreman-crew', '/api/v1/crew', '/api/v1/crew/{id}', '/api/v1/crew/{id}/reset-password', '/api/v1/crew/{id}/resend-invitation']) {
      expect(paths).toContain(p);
    }
  });
});

describe('bad input to POST /crew and PUT /crew/{id}', () => {
  const SQLISH = "O'Brien'); DROP TABLE users; --";
  const routes = () => [
    { method: 'POST' as const, url: `${API}/crew` },
    { method: 'PUT' as const, url: `${API}/crew/${ids['wendy@example.com']}` },
  ];

  it('answers 400 with a message for a missing or mistyped body, never 500', async () => {
    for (const { method, url } of routes()) {
      for (const body of [{}, { crew: {} }, { crew: { first_name: { nested: [1] }, last_name: 5, email: [], role_id: '5', crew_status: 'yes' } }, { crew: null }]) {
        const res = await t.request({ method, url, token: admin, body });
        expect(res.statusCode).toBe(400);
        expect(res.json().status).toEqual(expect.any(String));
      }
    }
  });

  it('answers 400 or 413 for a 1 MB field and 400 for malformed JSON', async () => {
    for (const { method, url } of routes()) {
      const big = await t.request({ method, url, token: admin, body: { crew: newCrew({ first_name: 'x'.repeat(1024 * 1024) }) } });
      expect([400, 413]).toContain(big.statusCode);
      const bad = await t.request({ method, url, token: admin, payload: '{"crew": ', headers: { 'content-type': 'application/json' } });
      expect(bad.statusCode).toBe(400);
    }
  });

  it('stores SQL-looking names as plain text', async () => {
    const res = await post(admin, newCrew({ last_name: SQLISH }));
    expect(res.statusCode).toBe(200);
    expect(res.json().crew.last_name).toBe(SQLISH);
    const [{ n }] = await t.ctx.db.select({ n: sql<number>`count(*)` }).from(users);
    expect(Number(n)).toBeGreaterThan(10);
  });
});
