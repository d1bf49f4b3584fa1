import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoToUs } from '../../../shared/dates';
import { companyToday } from '../../../shared/dig-safe';
import { MSG } from '../../../shared/messages';
import type { Ticket, TicketRow } from '../../../shared/tickets.schemas';
import { permits, tickets } from '../../db/schema/index';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * Permits and dig safe with dates, and Clear to dig (docs/product/records.md §5, decision 045): what a save
 * stores and every read answers (GET /tickets/{id}, the job page's rows, My Work), the 400s of
 * bad dates, tenancy and roles. On PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
const tok: Record<string, string> = {};
let j1: number;
let j1Tickets: number[];

/** The company's calendar day plus `n` days, 'YYYY-MM-DD'. */
const day = (n: number) => {
  const [y, m, d] = companyToday().split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
};

beforeAll(async () => {
  t = await createTestApp();
  [tok.admin, tok.wforeman, tok.lineman, tok.other] = await t.loginAs('admin', 'wforeman', 'lineman', 'other');
  const demo = await t.demo();
  j1 = demo.job['J-1001'];
  j1Tickets = (await t.ctx.db.select().from(tickets).where(eq(tickets.jobId, j1)).orderBy(asc(tickets.id))).map((r) => r.id);
});

const api = (method: 'GET' | 'PUT', url: string, token: string | undefined, body?: unknown) => t.request({ method, url: `/api/v1${url}`, token, body });
const read = async (id: number, token = tok.admin): Promise<Ticket> => {
  const res = await api('GET', `/tickets/${id}`, token);
  expect(res.statusCode).toBe(200);
  return res.json();
};
const save = (ticket: unknown, token = tok.admin) => api('PUT', '/tickets/', token, { ticket });
const jobRow = async (id: number): Promise<TicketRow> => {
  const res = await api('GET', `/jobs/${j1}`, tok.admin);
  expect(res.statusCode).toBe(200);
  return (res.json().tickets as TicketRow[]).find((r) => r.id === id)!;
};
const workRow = async (id: number): Promise<TicketRow | undefined> => {
  const res = await api('GET', '/work', tok.admin);
  expect(res.statusCode).toBe(200);
  return (res.json().tickets as TicketRow[]).find((r) => r.id === id);
};

describe('the dig-safe record and permits with dates', () => {
  it('saves number, valid from and expiry (MM/DD/YYYY or YYYY-MM-DD) and reads them back everywhere', async () => {
    const id = j1Tickets[0];
    const cur = await read(id);
    const res = await save({
      id,
      version: cur.version,
      dig_safe_required: 1,
      dig_safe_number: ' 20264711 ',
      dig_safe_valid_from: isoToUs(day(-2)),
      dig_safe_expires_on: day(30),
      permits: [{ number: 'ROW-12', valid_from: day(-10), expires_on: isoToUs(day(3)) }, { number: 'P-2', expires_on: day(60) }],
    });
    expect(res.statusCode).toBe(200);
    const saved: Ticket = res.json().ticket;
    expect(saved).toMatchObject({ dig_safe_number: '20264711', dig_safe_valid_from: day(-2), dig_safe_expires_on: day(30), permit_expires_on: day(3) });
    expect(saved.permits.map((p) => [p.number, p.valid_from, p.expires_on])).toEqual([
      ['ROW-12', day(-10), day(3)],
      ['P-2', null, day(60)],
    ]);
    // Stored as calendar dates.
    const [row] = await t.ctx.db.select().from(tickets).where(eq(tickets.id, id));
    expect([row.digSafeNumber, row.digSafeValidFrom, row.digSafeExpiresOn]).toEqual(['20264711', day(-2), day(30)]);
    expect((await t.ctx.db.select().from(permits).where(eq(permits.ticketId, id))).map((p) => p.expiresOn).sort()).toEqual([day(3), day(60)]);

    expect(await read(id)).toMatchObject({ dig_safe_expires_on: day(30), permit_expires_on: day(3) });
    expect(await jobRow(id)).toMatchObject({ dig_safe_number: '20264711', dig_safe_valid_from: day(-2), dig_safe_expires_on: day(30), permit_expires_on: day(3) });
    expect(await workRow(id)).toMatchObject({ dig_safe_expires_on: day(30), permit_expires_on: day(3) });
  });

  it('a permit changed alone shows on the job page row at once (the kept reply is rebuilt)', async () => {
    const id = j1Tickets[0];
    await jobRow(id); // the reply is kept
    const cur = await read(id);
    const res = await save({ id, version: cur.version, permits: cur.permits.map((p) => ({ ...p, expires_on: p.number === 'ROW-12' ? day(-1) : p.expires_on })) });
    expect(res.statusCode).toBe(200);
    expect((await jobRow(id)).permit_expires_on).toBe(day(-1));
  });

  it('refuses a date that is not one with 400 and the message, storing nothing', async () => {
    const id = j1Tickets[1];
    const cur = await read(id);
    for (const [body, field, message] of [
      [{ dig_safe_expires_on: '13/45/2026' }, 'ticket.dig_safe_expires_on', MSG.recordDateInvalid('dig safe expiry date')],
      [{ dig_safe_valid_from: 'next week' }, 'ticket.dig_safe_valid_from', MSG.recordDateInvalid('dig safe "valid from" date')],
      [{ permits: [{ expires_on: '2026-02-30' }] }, 'ticket.permits.0.expires_on', MSG.recordDateInvalid("permit's expiry date")],
    ] as const) {
      const res = await save({ id, version: cur.version, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields[field]).toBe(message);
      expect(res.json().error).toContain(message);
    }
    expect(await read(id)).toMatchObject({ version: cur.version, dig_safe_expires_on: null, dig_safe_valid_from: null, permits: [] });
  });

  it('refuses "valid from" after the expiry, also against the stored date when only one is sent', async () => {
    const id = j1Tickets[1];
    let cur = await read(id);
    let res = await save({ id, version: cur.version, dig_safe_valid_from: day(5), dig_safe_expires_on: day(4) });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields['ticket.dig_safe_expires_on']).toBe(MSG.recordDatesOrder('dig safe ticket'));
    res = await save({ id, version: cur.version, permits: [{ valid_from: '12/10/2026', expires_on: '12/01/2026' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields['ticket.permits.0.expires_on']).toBe(MSG.recordDatesOrder('permit'));

    res = await save({ id, version: cur.version, dig_safe_valid_from: day(5) });
    expect(res.statusCode).toBe(200);
    cur = res.json().ticket;
    res = await save({ id, version: cur.version, dig_safe_expires_on: day(4) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: MSG.recordDatesOrder('dig safe ticket'), fields: { dig_safe_expires_on: MSG.recordDatesOrder('dig safe ticket') } });
    expect((await read(id)).dig_safe_expires_on).toBeNull();
  });

  it("another company's ticket answers 404 and is not changed", async () => {
    const id = j1Tickets[2];
    const cur = await read(id);
    expect((await api('GET', `/tickets/${id}`, tok.other)).statusCode).toBe(404);
    const res = await save({ id, version: cur.version, dig_safe_number: 'X', dig_safe_expires_on: day(9), permits: [{ number: 'X', expires_on: day(9) }] }, tok.other);
    expect(res.statusCode).toBe(404);
    expect(await read(id)).toMatchObject({ version: cur.version, dig_safe_number: null, dig_safe_expires_on: null });
  });

  it('a lineman may not edit the dig-safe record or a permit’s dates (403, nothing saved); a working foreman may', async () => {
    const id = j1Tickets[2];
    const cur = await read(id);
    for (const body of [{ dig_safe_number: 'L-1' }, { dig_safe_expires_on: day(9) }, { permits: [{ number: 'L', expires_on: day(9) }] }]) {
      const res = await save({ ...cur, ...body }, tok.lineman);
      expect(res.statusCode).toBe(403);
    }
    expect(await read(id)).toMatchObject({ version: cur.version, dig_safe_number: null, dig_safe_expires_on: null, permits: [] });
    // Sending the whole ticket back unchanged with a note is still only "adds a note".
    expect((await save({ ...cur, notes: [{ note_text: 'checked the locate marks' }] }, tok.lineman)).statusCode).toBe(200);
    const res = await save({ ...(await read(id)), dig_safe_number: 'WF-1', dig_safe_expires_on: day(9) }, tok.wforeman);
    expect(res.statusCode).toBe(200);
    expect(res.json().ticket).toMatchObject({ dig_safe_number: 'WF-1', dig_safe_expires_on: day(9) });
  });
});

describe('clear to dig on every ticket row', () => {
  /** Sets the ticket's dig-safe fields and due date; answers the saved ticket. */
  async function setDig(id: number, body: Record<string, unknown>): Promise<Ticket> {
    const cur = await read(id);
    const res = await save({ id, version: cur.version, ...body });
    expect(res.statusCode).toBe(200);
    return res.json().ticket;
  }

  it('is null when dig safe is not required', async () => {
    const id = j1Tickets[3];
    const saved = await setDig(id, { dig_safe_required: 0 });
    expect(saved).toMatchObject({ clear_to_dig: null, clear_to_dig_reason: null });
    expect(await jobRow(id)).toMatchObject({ clear_to_dig: null, clear_to_dig_reason: null });
  });

  it('says why not, the same in GET /tickets/{id}, the job page and My Work', async () => {
    const id = j1Tickets[3];
    const cases: [Record<string, unknown>, boolean, string | null][] = [
      [{ dig_safe_required: 1, dig_safe_number: null, dig_safe_valid_from: null, dig_safe_expires_on: null }, false, 'No dig safe ticket'],
      [{ dig_safe_number: 'DS-9' }, false, 'Dig safe ticket has no expiry date'],
      [{ dig_safe_expires_on: day(-1) }, false, `Dig safe expired ${isoToUs(day(-1))}`],
      [{ dig_safe_expires_on: day(5), due_date: day(6) }, false, `Dig safe expires ${isoToUs(day(5))}, before the due date ${isoToUs(day(6))}`],
      [{ dig_safe_expires_on: day(6) }, true, null],
      [{ due_date: null, dig_safe_expires_on: day(0) }, true, null],
    ];
    for (const [body, clear, reason] of cases) {
      const saved = await setDig(id, body);
      const want = { clear_to_dig: clear, clear_to_dig_reason: reason };
      expect(saved).toMatchObject(want);
      expect(await read(id, tok.lineman)).toMatchObject(want);
      expect(await jobRow(id)).toMatchObject(want);
      expect(await workRow(id)).toMatchObject(want);
    }
  });

  it('a Complete ticket is no longer asked (null); completing a not-clear ticket is allowed, never blocked', async () => {
    const id = j1Tickets[3];
    await setDig(id, { dig_safe_expires_on: day(-3) });
    const done = await setDig(id, { status: 'Complete' });
    expect(done).toMatchObject({ status: 'Complete', clear_to_dig: null, clear_to_dig_reason: null });
    const back = await setDig(id, { status: 'Pending' });
    expect(back).toMatchObject({ clear_to_dig: false, clear_to_dig_reason: `Dig safe expired ${isoToUs(day(-3))}` });
  });

  it("reads the company's calendar day in the company's time zone, not the server's", async () => {
    const id = j1Tickets[4];
    // UTC+14 and UTC-11 are 25 hours apart: at any instant their calendar days differ.
    const west = 'Pacific/Pago_Pago';
    const westToday = companyToday(new Date(), west);
    const setZone = async (zone: string) => expect((await t.request({ method: 'PUT', url: '/api/v1/company', token: tok.admin, body: { time_zone: zone } })).statusCode).toBe(200);
    try {
      await setZone(west);
      const saved = await setDig(id, { due_date: null, dig_safe_required: 1, dig_safe_number: 'DS-Z', dig_safe_expires_on: westToday });
      expect(saved).toMatchObject({ clear_to_dig: true, clear_to_dig_reason: null });
      await setZone('Pacific/Kiritimati');
      const expired = { clear_to_dig: false, clear_to_dig_reason: `Dig safe expired ${isoToUs(westToday)}` };
      expect(await read(id)).toMatchObject(expired);
      expect(await jobRow(id)).toMatchObject(expired);
      expect(await workRow(id)).toMatchObject(expired);
      // The web app learns the zone with who is signed in (its badges and the phone's offline copy).
      const me = await api('GET', '/crew/myData', tok.lineman);
      expect(me.json()[0].company_time_zone).toBe('Pacific/Kiritimati');
    } finally {
      await setZone('America/New_York');
    }
  });
});
