import ExcelJS from 'exceljs';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMappings } from '../../../shared/excel';
import type { JobSaveInput } from '../../../shared/jobs.schemas';
import { money } from '../../../shared/money';
import { unitLibraryItemSchema, type UnitLibraryItem } from '../../../shared/production.schemas';
import { companies, units, utilities } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * Unit prices (docs/product/billing.md §2): GET /units shows `unit_price` to roles 1–3 only, PUT /units/{id}
 * sets or clears it (roles 1–2), and the workbook's library sheet may carry a Price column.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

let admin: string, office: string, foreman: string, wforeman: string, lineman: string, apprentice: string, otherAdmin: string;
let demoId: number, ngrid: number, unit: UnitLibraryItem, otherUnitId: number;

beforeAll(async () => {
  [admin, office, foreman, wforeman, lineman, apprentice, otherAdmin] = await t.loginAs('admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice', 'other');
  demoId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  ngrid = (await db.select().from(utilities).where(and(eq(utilities.companyId, demoId), eq(utilities.code, 'NGRID'))))[0].id;
  const [u] = await db
    .insert(units)
    .values({ companyId: demoId, utilityId: ngrid, code: 'PRICE-1', description: 'Priced unit', family: 'F', type: 'T', action: 'A', uom: 'EA', notes: '' })
    .returning();
  unit = { id: u.id, code: u.code, description: u.description, family: u.family, type: u.type, action: u.action, uom: u.uom, utility_id: u.utilityId };
  const theirs = (await t.request({ method: 'GET', url: `${API}/units?search=OTHER-1`, token: otherAdmin })).json() as UnitLibraryItem[];
  otherUnitId = theirs[0].id;
});

/** What the database holds, as "12.50" (PGlite reads a numeric as a number). */
const storedPrice = async (id: number) => {
  const price = (await db.select().from(units).where(eq(units.id, id)))[0].unitPrice;
  return price == null ? null : money(price);
};
const list = (token: string | undefined, q = `?search=PRICE-1&utility_id=${ngrid}`) => t.request({ method: 'GET', url: `${API}/units${q}`, token });
const put = (token: string | undefined, id: number, unit_price: unknown) =>
  t.request({ method: 'PUT', url: `${API}/units/${id}`, token, body: { unit: { unit_price } } });

describe('PUT /units/{id}', () => {
  it('requires authentication', async () => {
    expect((await put(undefined, unit.id, '1.00')).statusCode).toBe(401);
  });

  it('sets a price for roles 1–2, as typed by a person, and answers the unit', async () => {
    const res = await put(admin, unit.id, '$1,234.5');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unit: { ...unit, unit_price: '1234.50' } });
    const byOffice = await put(office, unit.id, 12.5);
    expect(byOffice.statusCode).toBe(200);
    expect(byOffice.json().unit.unit_price).toBe('12.50');
    expect(await storedPrice(unit.id)).toBe('12.50');
  });

  it('refuses roles 3–6 with 403 and changes nothing', async () => {
    await put(admin, unit.id, '7.00');
    for (const token of [foreman, wforeman, lineman, apprentice]) expect((await put(token, unit.id, '9.99')).statusCode).toBe(403);
    expect(await storedPrice(unit.id)).toBe('7.00');
  });

  it("answers 404 for another company's unit and leaves it alone", async () => {
    expect((await put(admin, otherUnitId, '1.00')).statusCode).toBe(404);
    expect(await storedPrice(otherUnitId)).toBeNull();
    expect((await put(admin, 2_000_000_000, '1.00')).statusCode).toBe(404);
  });

  it("rejects a bad price with 400 and parsePrice's message on the field", async () => {
    await put(admin, unit.id, '7.00');
    const cases: [unknown, string][] = [
      ['abc', 'Price must be a number of dollars and cents, like 12.50.'],
      ['1.234', 'Price can have at most two decimals.'],
      ['-5', 'Price must be a number of dollars and cents, like 12.50.'],
      [-5, 'Price must be a number of dollars and cents, like 12.50.'],
      ['1000000000000', 'Price is too large.'],
    ];
    for (const [input, message] of cases) {
      const res = await put(admin, unit.id, input);
      expect(res.statusCode, String(input)).toBe(400);
      expect(res.json()).toMatchObject({ error: message, fields: { unit_price: message } });
    }
    // Not a string, number or null: the schema's 400.
    expect((await put(admin, unit.id, { x: 1 })).statusCode).toBe(400);
    expect((await t.request({ method: 'PUT', url: `${API}/units/${unit.id}`, token: admin, body: {} })).statusCode).toBe(400);
    expect((await put(admin, 0, '1.00')).statusCode).toBe(400);
    expect(await storedPrice(unit.id)).toBe('7.00');
  });

  it('clears the price with null or an empty text', async () => {
    await put(admin, unit.id, '7.00');
    expect((await put(admin, unit.id, null)).json().unit.unit_price).toBeNull();
    await put(admin, unit.id, '7.00');
    expect((await put(office, unit.id, '  ')).json().unit.unit_price).toBeNull();
  });
});

describe('GET /units with prices', () => {
  it('shows unit_price to roles 1–3 and never to roles 4–6', async () => {
    await put(admin, unit.id, '3.25');
    for (const token of [admin, office, foreman]) {
      const rows = (await list(token)).json() as UnitLibraryItem[];
      expect(rows.map((r) => unitLibraryItemSchema.strict().parse(r))).toEqual([{ ...unit, unit_price: '3.25' }]);
    }
    for (const token of [wforeman, lineman, apprentice]) {
      const res = await list(token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([unit]);
      expect(res.body).not.toContain('unit_price');
      expect(res.body).not.toContain('3.25');
    }
  });

  it('lists a whole library with limit, and refuses a limit out of range', async () => {
    const all = (await list(admin, `?utility_id=${ngrid}&limit=5000`)).json() as UnitLibraryItem[];
    expect(all.length).toBeGreaterThan(1);
    expect(all.every((u) => u.utility_id === ngrid && 'unit_price' in u)).toBe(true);
    expect((await list(admin, `?utility_id=${ngrid}&limit=1`)).json()).toHaveLength(1);
    expect((await list(admin, '?limit=0')).statusCode).toBe(400);
    expect((await list(admin, '?limit=5001')).statusCode).toBe(400);
  });
});

const TRACKING_COLUMNS = ['Work Order', 'Pole', 'Line', 'Pole ID', 'Line ID', 'Street', 'Description', 'Unit', 'Quantity'];

/** A two-sheet workbook: a ticket row per code, and the library rows given. */
async function workbook(library: (string | number | null)[][], withPrice: boolean): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const tracking = wb.addWorksheet('Unit Tracking');
  tracking.addRow(TRACKING_COLUMNS);
  library.forEach((row, i) => tracking.addRow([`WO-${i}`, `PP-${i}`, 'L1', '', '', '', '', row[0], 1]));
  const lib = wb.addWorksheet('Unit Library');
  lib.addRow(['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes', ...(withPrice ? ['Price'] : [])]);
  for (const [code, price] of library) lib.addRow(['F', code, 'T', 'A', 'EA', `Desc ${code}`, '', ...(withPrice ? [price] : [])]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

let seq = 0;
async function importWorkbook(buf: Buffer, mapPrice: boolean) {
  const name = `prices-${++seq}.xlsx`;
  const { url } = await t.storeFile(demoId, 'excel', name, { body: buf });
  const packet = await t.storeFile(demoId, 'work_packet', 'packet.pdf');
  const m = defaultMappings({ jobColumns: TRACKING_COLUMNS, libraryColumns: ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes', 'Price'] });
  const job: JobSaveInput = {
    job_number: `PRICES-${Date.now().toString(36)}-${seq}`,
    job_type: 0,
    due_date: '12/31/2027',
    selected_utility_id: ngrid,
    work_packet_url: packet.url,
    ticketsFile: {
      ticket_file_url: url,
      ticket_file_name: name,
      ticketsMappings: m.ticketsMappings,
      libraryMappings: { ...m.libraryMappings, unit_price: mapPrice ? 'Price' : null },
    },
  };
  return t.request({ method: 'PUT', url: `${API}/jobs/`, token: admin, body: { job } });
}
const priceOf = async (code: string) => {
  const [row] = await db.select().from(units).where(and(eq(units.companyId, demoId), eq(units.utilityId, ngrid), eq(units.code, code)));
  return row && (row.unitPrice == null ? null : money(row.unitPrice));
};

describe('Price column of the workbook library sheet', () => {
  it('sets prices from a mapped Price column, as numbers or text; a blank cell keeps the price', async () => {
    const res = await importWorkbook(await workbook([['WB-P1', 12.5], ['WB-P2', '$1,000'], ['WB-P3', null]], true), true);
    expect(res.statusCode, res.body).toBe(200);
    expect([await priceOf('WB-P1'), await priceOf('WB-P2'), await priceOf('WB-P3')]).toEqual(['12.50', '1000.00', null]);
    // Again with WB-P1 blank and WB-P2 changed.
    expect((await importWorkbook(await workbook([['WB-P1', null], ['WB-P2', 20]], true), true)).statusCode).toBe(200);
    expect([await priceOf('WB-P1'), await priceOf('WB-P2')]).toEqual(['12.50', '20.00']);
  });

  it('keeps every price when the Price column is not mapped (or not there)', async () => {
    expect((await importWorkbook(await workbook([['WB-P1', 99], ['WB-P2', 99]], true), false)).statusCode).toBe(200);
    expect((await importWorkbook(await workbook([['WB-P1', null], ['WB-P2', null]], false), false)).statusCode).toBe(200);
    expect([await priceOf('WB-P1'), await priceOf('WB-P2')]).toEqual(['12.50', '20.00']);
  });

  it('refuses a bad price with 400 naming the row, and writes nothing', async () => {
    const res = await importWorkbook(await workbook([['WB-P1', 1], ['WB-BAD', 'abc'], ['WB-BAD2', 1.234]], true), true);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('Unit Library row 3: Price must be a number of dollars and cents, like 12.50.');
    expect(res.json().error).toContain('Unit Library row 4: Price can have at most two decimals.');
    expect(await priceOf('WB-P1')).toBe('12.50');
    expect(await priceOf('WB-BAD')).toBeUndefined();
  });
});
