import { check } from '@placemarkio/check-geojson';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JobListItem, JobSaveInput } from '../../../shared/jobs.schemas';
import { mapFeatureCollection, type MapFeature } from '../../../shared/map.schemas';
import { ticketSchema, type Ticket } from '../../../shared/tickets.schemas';
import { queryStats } from '../../db/client';
import { companies, tickets, utilities } from '../../db/schema/index';
import { createTestApp } from '../../test/harness';

/**
 * GET /jobs/{id}/geojson and /kml (docs/product/map.md §5 exports): one point per ticket with coordinates,
 * as downloads named after the job; another company's job answers 404; every role reads them.
 */
const t = await createTestApp();
const API = '/api/v1';
const db = t.ctx.db;

let admin: string, lineman: string, otherAdmin: string;
let demoId: number, ngrid: number;

beforeAll(async () => {
  [admin, lineman, otherAdmin] = await t.loginAs('admin', 'lineman', 'other');
  demoId = (await db.select().from(companies).where(eq(companies.name, 'Demo Line Co')))[0].id;
  ngrid = (await db.select().from(utilities).where(and(eq(utilities.companyId, demoId), eq(utilities.code, 'NGRID'))))[0].id;
});

const get = (url: string, token: string | undefined = lineman) => t.request({ method: 'GET', url: `${API}${url}`, token });

let seq = 0;
const createJob = (jobNumber: string, newTickets: JobSaveInput['newTickets']): Promise<JobListItem> =>
  t.createJob(admin, demoId, {
    job_number: jobNumber,
    selected_utility_id: ngrid,
    newTickets,
    newUnits: [
      { code: 'MAP-A', description: 'Unit A' },
      { code: 'MAP-B', description: 'Unit B' },
    ],
  });

const fullTickets = async (jobId: number): Promise<Ticket[]> => {
  const res = await get(`/jobs/tickets/${jobId}`);
  expect(res.statusCode).toBe(200);
  return res.json().map((x: unknown) => ticketSchema.parse(x));
};
const located = (list: Ticket[]) => list.filter((x) => x.geo_lat != null && x.geo_lon != null);

const parseKml = (kml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['Placemark', 'Data'].includes(name) }).parse(kml);

let job: JobListItem;
beforeAll(async () => {
  job = await createJob(`MAP-${Date.now().toString(36)}-${++seq}`, [
    {
      pole: { pole_name: 'MP-1', line_name: 'ML-1', geo_lat: 42.123456, geo_lon: -71.654321, street_address: '1 Map St' },
      work_orders: ['WO-1', 'WO-2'],
      tasks: [
        { code: 'MAP-A', init_qty: 2 },
        { code: 'MAP-B', init_qty: 1 },
      ],
      due_date: '01/15/2028',
    },
    { pole: { pole_name: '<&>', line_name: 'ML-"2"', geo_lat: -33.5, geo_lon: 151.25, street_address: '<b>2 Elm</b> & Co' }, work_orders: [], tasks: [] },
    // No coordinates: left out of both files.
    { pole: { pole_name: 'MP-NOGPS', line_name: 'ML-1' }, work_orders: ['WO-9'], tasks: [{ code: 'MAP-A', init_qty: 1 }] },
    { pole: { pole_name: 'MP-4', line_name: 'ML-2', geo_lat: 0, geo_lon: 0 }, work_orders: [], tasks: [{ code: 'MAP-B', init_qty: 1 }] },
  ]);
  // One ticket Complete, through the API as a crew would.
  const first = (await fullTickets(job.id)).find((x) => x.pole_name === 'MP-1')!;
  const done = await t.request({ method: 'PUT', url: `${API}/tickets/`, token: admin, body: { ticket: { id: first.id, version: first.version, status: 'Complete' } } });
  expect(done.statusCode, done.body).toBe(200);
  // A ticket without a street of its own shows its pole's.
  const fourth = (await fullTickets(job.id)).find((x) => x.pole_name === 'MP-4')!;
  await db.update(tickets).set({ streetAddress: null }).where(eq(tickets.id, fourth.id));
});

describe('GET /jobs/{id}/geojson', () => {
  it('is a valid GeoJSON download: one Point [lon, lat] per ticket with coordinates, with the ticket\'s fields', async () => {
    const res = await get(`/jobs/${job.id}/geojson`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/geo+json');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.job_number}.geojson"`);

    expect(() => check(res.body)).not.toThrow(); // RFC 7946 structure
    const fc = mapFeatureCollection.strict().parse(JSON.parse(res.body));
    const all = await fullTickets(job.id);
    const withGps = located(all);
    expect(all).toHaveLength(4);
    expect(fc.features).toHaveLength(withGps.length);
    expect(fc.features.map((f) => f.properties.ticket_id).sort()).toEqual(withGps.map((x) => x.id).sort());
    expect(fc.features.map((f) => f.properties.pole_name)).not.toContain('MP-NOGPS');

    for (const f of fc.features) {
      const tk = all.find((x) => x.id === f.properties.ticket_id)!;
      const [lon, lat] = f.geometry.coordinates;
      expect([lon, lat]).toEqual([tk.geo_lon, tk.geo_lat]); // longitude first
      expect(Math.abs(lon)).toBeLessThanOrEqual(180);
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
      expect(f.id).toBe(tk.id);
      expect(f.properties).toEqual({
        ticket_id: tk.id,
        pole_name: tk.pole_name,
        line_name: tk.line_name,
        status: tk.status,
        due_date: tk.due_date,
        street: tk.street_address ?? tk.pole?.street_address ?? null,
        // Lists joined by ', ': GIS formats keep strings, not lists (docs/product/imports.md).
        work_orders: tk.work_orders.join(', '),
        units: tk.tasks.map((k) => k.code).join(', '),
      });
    }
    const byPole = (name: string) => fc.features.find((f) => f.properties.pole_name === name) as MapFeature;
    expect(byPole('MP-1').geometry.coordinates).toEqual([-71.654321, 42.123456]);
    expect(byPole('MP-1').properties).toMatchObject({ status: 'Complete', due_date: '2028-01-15', work_orders: 'WO-1, WO-2', units: 'MAP-A, MAP-B' });
    expect(byPole('<&>').properties).toMatchObject({ status: 'Pending', street: '<b>2 Elm</b> & Co', work_orders: '', units: '' });
    expect(byPole('MP-4').geometry.coordinates).toEqual([0, 0]); // 0, 0 is a place, not "unknown"
    expect(byPole('MP-4').properties.street).toBeNull(); // neither the ticket nor its pole has one
  });

  it('is an empty FeatureCollection for a job whose tickets have no coordinates', async () => {
    const bare = await createJob(`MAP-BARE-${++seq}`, [{ pole: { pole_name: 'B-1', line_name: 'BL' }, work_orders: [], tasks: [] }]);
    const res = await get(`/jobs/${bare.id}/geojson`);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ type: 'FeatureCollection', features: [] });
  });

  it('reads the job in the same few statements whatever its number of tickets (no query per ticket)', async () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      pole: { pole_name: `MANY-${i}`, line_name: 'L', geo_lat: 42 + i / 1000, geo_lon: -71 },
      work_orders: [`WO-${i}`],
      tasks: [{ code: 'MAP-A', init_qty: 1 }],
    }));
    const big = await createJob(`MAP-MANY-${++seq}`, many);
    const statements = async (id: number) => {
      const before = queryStats.count;
      const res = await get(`/jobs/${id}/geojson`);
      expect(res.statusCode).toBe(200);
      return queryStats.count - before;
    };
    const small = await statements(job.id);
    const large = await statements(big.id);
    expect(large).toBe(small);
    expect(large).toBeLessThanOrEqual(3); // the session check, the job, its located tickets
    expect(JSON.parse((await get(`/jobs/${big.id}/geojson`)).body).features).toHaveLength(40);
  });
});

describe('GET /jobs/{id}/kml', () => {
  it('is a KML 2.2 download with one Placemark per ticket with coordinates: pole name, description, Point lon,lat', async () => {
    const res = await get(`/jobs/${job.id}/kml`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.google-earth\.kml\+xml(; charset=utf-8)?$/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${job.job_number}.kml"`);
    expect(XMLValidator.validate(res.body)).toBe(true);

    const doc = parseKml(res.body).kml;
    expect(doc['@xmlns']).toBe('http://www.opengis.net/kml/2.2');
    expect(doc.Document.name).toBe(job.job_number);
    const all = await fullTickets(job.id);
    const marks = doc.Document.Placemark as { name: string; description: string; Point: { coordinates: string } }[];
    expect(marks).toHaveLength(located(all).length);
    expect(marks.map((m) => m.name).sort()).toEqual(located(all).map((x) => x.pole_name).sort());
    expect(marks.map((m) => m.name)).not.toContain('MP-NOGPS');

    const mp1 = marks.find((m) => m.name === 'MP-1')!;
    expect(mp1.Point.coordinates).toBe('-71.654321,42.123456');
    for (const part of ['Line: ML-1', 'Status: Complete', 'Street: 1 Map St', 'Due date: 2028-01-15']) expect(mp1.description).toContain(part);
  });

  it('escapes what people typed: a pole named <&> keeps the document well-formed and reads back as typed', async () => {
    const res = await get(`/jobs/${job.id}/kml`);
    expect(res.body).not.toContain('<name><&></name>');
    const mark = (parseKml(res.body).kml.Document.Placemark as { name: string; description: string; Point: { coordinates: string } }[]).find((m) => m.name === '<&>')!;
    expect(mark).toBeDefined();
    expect(mark.Point.coordinates).toBe('151.250000,-33.500000');
    // Google Earth reads the description as HTML: the street's markup arrives escaped, as text.
    expect(mark.description).toContain('Street: &lt;b&gt;2 Elm&lt;/b&gt; &amp; Co');
    expect(mark.description).toContain('Line: ML-&quot;2&quot;');
  });
});

describe('map exports: access and names', () => {
  it("answers 404 for another company's job and 400 for a non-numeric id; signed out is 401", async () => {
    for (const kind of ['geojson', 'kml']) {
      const other = await get(`/jobs/${job.id}/${kind}`, otherAdmin);
      expect(other.statusCode).toBe(404);
      expect(other.body).not.toContain('MP-1');
      expect((await get(`/jobs/999999/${kind}`, admin)).statusCode).toBe(404);
      expect((await get(`/jobs/abc/${kind}`, admin)).statusCode).toBe(400);
      expect((await get(`/jobs/${job.id}/${kind}`, '')).statusCode).toBe(401);
    }
  });

  it('every role may download them (they hold what every role reads on the job page)', async () => {
    for (const role of ['admin', 'office', 'foreman', 'wforeman', 'lineman', 'apprentice'] as const) {
      const [token] = await t.loginAs(role);
      for (const kind of ['geojson', 'kml']) expect((await get(`/jobs/${job.id}/${kind}`, token)).statusCode, `${role} ${kind}`).toBe(200);
    }
  });

  it('names the file after the job number, safely: no quote or path in it, other scripts in filename*', async () => {
    const odd = await createJob(`Ö/"J" 1\\2 ${++seq}`, [{ pole: { pole_name: 'O-1', line_name: 'OL', geo_lat: 1, geo_lon: 2 }, work_orders: [], tasks: [] }]);
    const res = await get(`/jobs/${odd.id}/geojson`);
    expect(res.statusCode).toBe(200);
    const header = res.headers['content-disposition'] as string;
    const stem = `Ö__J_ 1_2 ${seq}`;
    expect(header).toBe(`attachment; filename="${stem.replace('Ö', '_')}.geojson"; filename*=UTF-8''${encodeURIComponent(stem)}.geojson`);
    const kml = await get(`/jobs/${odd.id}/kml`);
    expect(kml.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(stem)}.kml`);
    expect(parseKml(kml.body).kml.Document.name).toBe(odd.job_number);
  });
});
