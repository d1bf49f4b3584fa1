import { check } from '@placemarkio/check-geojson';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { TICKET_STATUS } from './constants';
import { mapExportFileName, positionOf, ticketsToGeoJson, ticketsToKml, xmlText, type MapTicket } from './map-export';
import { mapFeatureCollection } from './map.schemas';

const ticket = (over: Partial<MapTicket> = {}): MapTicket => ({
  id: 1,
  pole_name: 'P-1',
  line_name: 'L-10',
  status: TICKET_STATUS.PENDING,
  due_date: '2027-06-30',
  street: '1 Main St',
  geo_lat: 42.123456,
  geo_lon: -71.5,
  work_orders: ['WO-1', 'WO-2'],
  units: ['A-1', 'B-2'],
  ...over,
});

const TICKETS: MapTicket[] = [
  ticket(),
  ticket({ id: 2, pole_name: 'P-2', status: TICKET_STATUS.COMPLETE, due_date: null, street: null, work_orders: [], units: [] }),
  ticket({ id: 3, pole_name: 'No GPS', geo_lat: null, geo_lon: null }),
  ticket({ id: 4, pole_name: 'Half', geo_lat: 42, geo_lon: null }),
  ticket({ id: 5, pole_name: 'Far', geo_lat: 91, geo_lon: 10 }),
  ticket({ id: 6, pole_name: 'Swapped?', geo_lat: 10, geo_lon: -181 }),
  ticket({ id: 7, pole_name: 'NaN', geo_lat: Number.NaN, geo_lon: 1 }),
  ticket({ id: 8, pole_name: 'Edge', geo_lat: -90, geo_lon: 180 }),
];

const parseKml = (kml: string) =>
  new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['Placemark', 'Data', 'Style'].includes(name) }).parse(kml);

describe('positionOf', () => {
  it('gives [lon, lat] for finite coordinates in range, null otherwise', () => {
    expect(positionOf({ geo_lat: 42.5, geo_lon: -71.25 })).toEqual([-71.25, 42.5]);
    expect(positionOf({ geo_lat: 0, geo_lon: 0 })).toEqual([0, 0]); // zero is a coordinate, not "missing"
    expect(positionOf({ geo_lat: -90, geo_lon: 180 })).toEqual([180, -90]);
    for (const [lat, lon] of [[null, 1], [1, null], [90.000001, 0], [0, -180.5], [Infinity, 0], [0, Number.NaN]]) {
      expect(positionOf({ geo_lat: lat, geo_lon: lon }), `${lat}, ${lon}`).toBeNull();
    }
  });
});

describe('ticketsToGeoJson', () => {
  const fc = ticketsToGeoJson(TICKETS);

  it('is valid RFC 7946 GeoJSON with one Point per located ticket, in order', () => {
    expect(() => check(JSON.stringify(fc))).not.toThrow();
    mapFeatureCollection.strict().parse(fc);
    expect(fc.features.map((f) => f.properties.ticket_id)).toEqual([1, 2, 8]);
    expect(fc.features.map((f) => f.id)).toEqual([1, 2, 8]);
  });

  it('puts longitude first and carries the ticket\'s fields as properties', () => {
    expect(fc.features[0]).toEqual({
      type: 'Feature',
      id: 1,
      geometry: { type: 'Point', coordinates: [-71.5, 42.123456] },
      properties: {
        ticket_id: 1,
        pole_name: 'P-1',
        line_name: 'L-10',
        status: 'Pending',
        due_date: '2027-06-30',
        street: '1 Main St',
        work_orders: 'WO-1, WO-2',
        units: 'A-1, B-2',
      },
    });
    expect(fc.features[1].properties).toMatchObject({ status: 'Complete', due_date: null, street: null, work_orders: '', units: '' });
  });

  // Shapefile drops a list property and GeoPackage stores it as '(2:WO-1,WO-2)' (docs/product/imports.md).
  it('has only strings, numbers and nulls as properties: lists are joined by ", "', () => {
    for (const f of fc.features) {
      for (const [name, value] of Object.entries(f.properties)) {
        expect(value === null || ['string', 'number'].includes(typeof value), `${name}: ${JSON.stringify(value)}`).toBe(true);
      }
    }
    const one = ticketsToGeoJson([ticket({ work_orders: ['00123'], units: ['007', 'A, B'] })]).features[0].properties;
    expect(one).toMatchObject({ work_orders: '00123', units: '007, A, B' });
  });

  it('is an empty collection when no ticket has coordinates', () => {
    const empty = ticketsToGeoJson([ticket({ geo_lat: null, geo_lon: null })]);
    expect(empty).toEqual({ type: 'FeatureCollection', features: [] });
    expect(() => check(JSON.stringify(empty))).not.toThrow();
  });
});

describe('ticketsToKml', () => {
  it('is well-formed KML 2.2 with one Placemark per located ticket: name, description, style, Point lon,lat', () => {
    const kml = ticketsToKml({ job_number: 'J-1001' }, TICKETS);
    expect(XMLValidator.validate(kml)).toBe(true);
    const doc = parseKml(kml).kml;
    expect(doc['@xmlns']).toBe('http://www.opengis.net/kml/2.2');
    expect(doc.Document.name).toBe('J-1001');
    const marks = doc.Document.Placemark;
    expect(marks.map((p: { name: string }) => p.name)).toEqual(['P-1', 'P-2', 'Edge']);
    expect(marks[0].Point.coordinates).toBe('-71.500000,42.123456');
    expect(marks[2].Point.coordinates).toBe('180.000000,-90.000000');
    expect(marks[0].description).toBe('Line: L-10<br/>Status: Pending<br/>Street: 1 Main St<br/>Due date: 2027-06-30<br/>Work orders: WO-1, WO-2<br/>Units: A-1, B-2');
    expect(marks[1].description).toBe('Line: L-10<br/>Status: Complete');
    expect([marks[0].styleUrl, marks[1].styleUrl]).toEqual(['#pending', '#complete']);
    const styles = doc.Document.Style.map((s: { '@id': string }) => s['@id']);
    expect(styles).toEqual(expect.arrayContaining(['pending', 'complete']));
    const data = Object.fromEntries(marks[0].ExtendedData.Data.map((d: { '@name': string; value: string }) => [d['@name'], d.value]));
    expect(data).toMatchObject({ ticket_id: '1', line_name: 'L-10', status: 'Pending', street: '1 Main St', due_date: '2027-06-30', work_orders: 'WO-1, WO-2', units: 'A-1, B-2' });
  });

  it('escapes every text: a pole named <&> and HTML in a street stay text, in the XML and in the description\'s HTML', () => {
    const kml = ticketsToKml({ job_number: 'J<&>"\'' }, [
      ticket({ pole_name: '<&>', line_name: ']]> "q" \'a\'', street: '<b onmouseover="x()">5 Elm</b>' }),
    ]);
    expect(XMLValidator.validate(kml)).toBe(true);
    const doc = parseKml(kml).kml.Document;
    expect(doc.name).toBe('J<&>"\'');
    expect(doc.Placemark[0].name).toBe('<&>');
    // The description is HTML for Google Earth: what people typed is escaped once more inside it.
    expect(doc.Placemark[0].description).toContain('Street: &lt;b onmouseover=&quot;x()&quot;&gt;5 Elm&lt;/b&gt;<br/>');
    expect(doc.Placemark[0].description).toContain('Line: ]]&gt; &quot;q&quot; &#39;a&#39;<br/>');
  });

  it('keeps the document readable when a text holds characters XML 1.0 cannot carry', () => {
    const kml = ticketsToKml({ job_number: 'J' }, [ticket({ pole_name: 'P\u0001\u0008\uFFFF-1', street: 'lone \uD800 surrogate' })]);
    expect(XMLValidator.validate(kml)).toBe(true);
    expect(parseKml(kml).kml.Document.Placemark[0].name).toBe('P\uFFFD\uFFFD\uFFFD-1');
    expect(xmlText('tab\tline\nok \u{1F600}')).toBe('tab\tline\nok \u{1F600}'); // allowed characters and real pairs stay
  });

  it('names a placemark of a ticket without a pole after the ticket', () => {
    const doc = parseKml(ticketsToKml({ job_number: 'J' }, [ticket({ id: 42, pole_name: null })])).kml.Document;
    expect(doc.Placemark[0].name).toBe('Ticket 42');
  });

  it('is a document without placemarks when no ticket has coordinates', () => {
    const kml = ticketsToKml({ job_number: 'J' }, [ticket({ geo_lat: null })]);
    expect(XMLValidator.validate(kml)).toBe(true);
    expect(parseKml(kml).kml.Document.Placemark).toBeUndefined();
  });
});

describe('mapExportFileName', () => {
  it('is the job number with the extension; characters no file system accepts become _', () => {
    expect(mapExportFileName('J-1001', 'geojson')).toBe('J-1001.geojson');
    expect(mapExportFileName('J-1001', 'kml')).toBe('J-1001.kml');
    expect(mapExportFileName(' A/B:"C" ', 'kml')).toBe('A_B__C_.kml');
    expect(mapExportFileName('  ', 'geojson')).toBe('job.geojson');
  });
});
