import { beforeAll, describe, expect, it } from 'vitest';
import { defaultMappings } from '../../../shared/excel';
import { MSG } from '../../../shared/messages';
import { AppError } from '../../errors';
import { fixture } from '../../test/files';
import { createTestApp, type TestApp } from '../../test/harness';
import { getColumns, loadWorkbookImport } from './uploaded-workbook';

let t: TestApp;
let admin: string;
let demoCompanyId: number;
let otherCompanyId: number;

/** Store a fixture as if the browser had PUT it to a signed URL; returns the url the client keeps. */
async function upload(companyId: number, name: string): Promise<string> {
  const type = name.endsWith('.csv') ? 'text/csv' : undefined;
  return (await t.storeFile(companyId, 'excel', name, { body: fixture(name), type })).url;
}

const getCols = (url: string | undefined, token: string | null = admin) =>
  t.request({ method: 'GET', url: `/api/v1/jobs/excel/getColumns${url === undefined ? '' : `?url=${encodeURIComponent(url)}`}`, token: token ?? undefined });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin@example.com');
  // The two seeded companies, as the tokens say.
  const other = await t.login('admin@other.example.com');
  const ids = await Promise.all(
    [admin, other].map(async (token) => {
      const { verifyToken } = await import('../auth/token');
      const r = await verifyToken(token, t.config.jwtSecret);
      if (!r.ok) throw new Error('bad token');
      return r.claims.companyId;
    }),
  );
  [demoCompanyId, otherCompanyId] = ids;
});

describe('GET /jobs/excel/getColumns', () => {
  it('requires authentication', async () => {
    const url = await upload(demoCompanyId, 'good.xlsx');
    const res = await getCols(url, null);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe(MSG.notSignedIn);
  });

  it('is refused to roles that cannot create jobs (working foreman, lineman, apprentice)', async () => {
    const url = await upload(demoCompanyId, 'good.xlsx');
    for (const email of ['wforeman@example.com', 'lineman@example.com', 'apprentice@example.com']) {
      const res = await getCols(url, await t.login(email));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe(MSG.forbidden);
    }
  });

  it('returns the header columns of the Unit Tracking and Unit Library sheets of an openpyxl workbook', async () => {
    const url = await upload(demoCompanyId, 'good.xlsx');
    for (const email of ['admin@example.com', 'office@example.com', 'foreman@example.com']) {
      const res = await getCols(url, await t.login(email));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        jobColumns: [
          'Work Order',
          'POLE',
          'Line',
          'Pole ID',
          'Line ID',
          'Due Date',
          'Lat',
          'Long',
          'Primary Voltage',
          'Secondary Voltage',
          'Arc Rating',
          'Street',
          'Unit',
          'Description',
          'Quantity',
        ],
        libraryColumns: ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'],
        sheets: [
          { name: 'Read Me', hidden: false },
          { name: 'Unit Tracking', hidden: false },
          { name: 'Unit Library', hidden: false },
        ],
        tickets: { name: 'Unit Tracking', headerRow: 3, rows: 5 },
        library: { name: 'Unit Library', headerRow: 1, rows: 5 },
        notes: [],
      });
    }
  });

  it('answers 422 with the docs/product/rules.md messages for unusable files', async () => {
    const cases: [string, string][] = [
      ['too-few-columns.xlsx', `${MSG.tooFewJobColumns} ${MSG.excelHeaderUsed('Unit Tracking', 1, 5, 9)}`],
      ['too-few-library-columns.xlsx', `${MSG.tooFewLibraryColumns} ${MSG.excelHeaderUsed('Units', 1, 4, 7)}`],
      ['legacy.xls', MSG.excelLegacyXls],
      // A CSV has only the tickets sheet: it adds tickets to a job, and cannot create one.
      ['tickets.csv', MSG.excelCsvCannotCreateJob],
    ];
    for (const [name, message] of cases) {
      const res = await getCols(await upload(demoCompanyId, name));
      expect({ name, status: res.statusCode, error: res.json().error }).toEqual({ name, status: 422, error: message });
    }
  });

  it('answers 404 for another company’s file, a missing file, a foreign or crafted url', async () => {
    const foreign = await upload(otherCompanyId, 'good.xlsx');
    const res = await getCols(foreign);
    expect(res.statusCode).toBe(404);
    // …while that company's admin can read it.
    expect((await getCols(foreign, await t.login('admin@other.example.com'))).statusCode).toBe(200);

    const good = await upload(demoCompanyId, 'good.xlsx');
    for (const url of [
      t.ctx.storage.urlFor(`${demoCompanyId}/excel/nothing/here.xlsx`),
      `/files/${demoCompanyId}/../${otherCompanyId}/excel/goodxlsx/good.xlsx`,
      `/files/${demoCompanyId}/excel/%2e%2e/%2e%2e/${otherCompanyId}/excel/goodxlsx/good.xlsx`,
      `/files/${demoCompanyId}0/excel/goodxlsx/good.xlsx`,
      'https://example.com/somewhere/good.xlsx',
      good.replace(`/${demoCompanyId}/`, '/'),
      'not a url',
    ]) {
      const r = await getCols(url);
      expect({ url, status: r.statusCode }).toEqual({ url, status: 404 });
    }
  });

  it('answers 400 without a url, or with a url that is far too long', async () => {
    expect((await getCols(undefined)).statusCode).toBe(400);
    expect((await getCols('')).statusCode).toBe(400);
    expect((await getCols(`/files/1/${'a'.repeat(3000)}`)).statusCode).toBe(400);
  });
});

describe('loadWorkbookImport (used by the job save)', () => {
  const user = () => ({ id: 1, companyId: demoCompanyId });

  it('reads the stored workbook and converts it with the saved mapping and the job overrides', async () => {
    const url = await upload(demoCompanyId, 'good.xlsx');
    const columns = await getColumns(t.ctx, { id: 1, companyId: demoCompanyId, roleId: 1, firstName: '', lastName: '', email: '' }, url);
    const m = defaultMappings(columns);
    const result = await loadWorkbookImport(
      t.ctx,
      user(),
      { ticket_file_url: url, ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings },
      { arc_rating_override: '40 cal' },
    );
    expect(result.tickets.map((x) => `${x.pole.pole_name}/${x.pole.line_name}:${x.tasks.length}`)).toEqual(['P-1/L-10:3', 'P-2/L-10:1', 'P-3/L-11:1']);
    expect(result.tickets.every((x) => x.pole.arc_rating === '40 cal')).toBe(true);
    expect(result.library).toHaveLength(4);
  });

  it('throws a 422 naming the bad rows, before anything could be written', async () => {
    const url = await upload(demoCompanyId, 'bad-row.xlsx');
    const m = defaultMappings({ jobColumns: ['Work Order', 'POLE', 'Line', 'Unit', 'Description', 'Quantity'], libraryColumns: ['Family', 'Unit Code', 'Type', 'Action', 'UOM', 'Description', 'Notes'] });
    const err = await loadWorkbookImport(t.ctx, user(), { ticket_file_url: url, ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings }).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.statusCode).toBe(422);
    expect(err.message).toBe("Row 14: Quantity 'abc' is not a number; Row 15: Pole is missing");
  });

  it('does not read another company’s workbook', async () => {
    const url = await upload(otherCompanyId, 'good.xlsx');
    const m = defaultMappings({ jobColumns: [], libraryColumns: [] });
    const err = await loadWorkbookImport(t.ctx, user(), { ticket_file_url: url, ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings }).catch((e) => e);
    expect(err.statusCode).toBe(404);
  });
});
