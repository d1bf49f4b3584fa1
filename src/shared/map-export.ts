import { TICKET_STATUS, type TicketStatus } from './constants';
import { jobFileStem } from './export';
import { formatGeo, LAT_RANGE, LON_RANGE } from './geo';
import type { MapFeature, MapFeatureCollection } from './map.schemas';

/**
 * A job's tickets as map layers (docs/product/map.md §5 exports), as pure functions: GeoJSON (RFC 7946) for
 * GIS tools and web maps, KML 2.2 for Google Earth. The server sends both
 * (GET /jobs/{id}/geojson and /kml); the web map may build the same features from its rows.
 * Only tickets with both coordinates, finite and in range, become points; the others are left out.
 */

/** What the exports read of a ticket. */
export interface MapTicket {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  status: TicketStatus;
  due_date: string | null;
  /** The ticket's street address, else its pole's. */
  street: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
  work_orders: readonly string[];
  units: readonly string[];
}

export type MapExportKind = 'geojson' | 'kml';

export const MAP_EXPORT_TYPE: Record<MapExportKind, string> = {
  geojson: 'application/geo+json',
  kml: 'application/vnd.google-earth.kml+xml',
};

/** '{job_number}.geojson' / '.kml', with the characters no file system accepts as '_'. */
export function mapExportFileName(jobNumber: string, kind: MapExportKind): string {
  return `${jobFileStem(jobNumber)}.${kind}`;
}

const inRange = (v: number | null, range: { min: number; max: number }): v is number =>
  v !== null && Number.isFinite(v) && v >= range.min && v <= range.max;

/** The ticket's position as [lon, lat] (RFC 7946 order), or null when it has none to show. */
export function positionOf(t: Pick<MapTicket, 'geo_lat' | 'geo_lon'>): [number, number] | null {
  return inRange(t.geo_lon, LON_RANGE) && inRange(t.geo_lat, LAT_RANGE) ? [t.geo_lon, t.geo_lat] : null;
}

/** The tickets with a position, each with it. */
function located(tickets: readonly MapTicket[]): { t: MapTicket; at: [number, number] }[] {
  const out: { t: MapTicket; at: [number, number] }[] = [];
  for (const t of tickets) {
    const at = positionOf(t);
    if (at) out.push({ t, at });
  }
  return out;
}

/** A list as one property: GIS formats (Shapefile, GeoPackage) have no list type (docs/product/imports.md). */
const joined = (list: readonly string[]) => list.join(', ');

/**
 * A FeatureCollection of one Point per located ticket, in the tickets' order. Every property is
 * a string, a number or null: the lists (work orders, units) are joined by ', ', because
 * Shapefile drops a list property and GeoPackage stores it as '(2:WO-1,WO-2)'.
 */
export function ticketsToGeoJson(tickets: readonly MapTicket[]): MapFeatureCollection {
  return {
    type: 'FeatureCollection',
    features: located(tickets).map(
      ({ t, at }): MapFeature => ({
        type: 'Feature',
        id: t.id,
        geometry: { type: 'Point', coordinates: at },
        properties: {
          ticket_id: t.id,
          pole_name: t.pole_name,
          line_name: t.line_name,
          status: t.status,
          due_date: t.due_date,
          street: t.street,
          work_orders: joined(t.work_orders),
          units: joined(t.units),
        },
      }),
    ),
  };
}

// XML 1.0 allows tab, LF, CR and U+0020 onwards except U+FFFE/U+FFFF and lone surrogates; any
// other character makes the whole document unreadable even when escaped, so it becomes U+FFFD.
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text without the characters XML 1.0 cannot carry (each becomes U+FFFD); also what an .xlsx cell may hold. */
export function xmlChars(value: string): string {
  return value.replace(NOT_XML, '\uFFFD');
}

/** Text as XML character data (or an attribute value): markup characters escaped, characters XML cannot carry replaced. */
export function xmlText(value: string): string {
  return xmlChars(value).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

// Google Earth shows a placemark's description as HTML: the people's text in it is escaped as
// HTML first (a street written '<b>' shows as typed, never as markup), then the whole as XML.
const HTML_ESCAPES: Record<string, string> = { ...XML_ESCAPES, "'": '&#39;' };
const htmlText = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

const STYLE: Record<TicketStatus, { id: string; color: string }> = {
  // KML colours are aabbggrr.
  [TICKET_STATUS.PENDING]: { id: 'pending', color: 'ff0080ff' }, // orange
  [TICKET_STATUS.COMPLETE]: { id: 'complete', color: 'ff00b000' }, // green
};

/** The lines of a placemark's description: line, status, street, due date (the ones known). */
function descriptionLines(t: MapTicket): string[] {
  const lines = [
    ['Line', t.line_name],
    ['Status', t.status],
    ['Street', t.street],
    ['Due date', t.due_date],
    ['Work orders', joined(t.work_orders)],
    ['Units', joined(t.units)],
  ] as const;
  return lines.filter(([, v]) => v).map(([label, v]) => `${label}: ${v}`);
}

/**
 * A KML 2.2 document named after the job, with one Placemark per located ticket: name = pole
 * name, a description (line, status, street, due date, work orders, units), a style by status,
 * the same fields as ExtendedData, and a Point at `lon,lat`. Every text is XML-escaped.
 */
export function ticketsToKml(job: { job_number: string }, tickets: readonly MapTicket[]): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<kml xmlns="http://www.opengis.net/kml/2.2">',
    '<Document>',
    `<name>${xmlText(job.job_number)}</name>`,
    ...Object.values(STYLE).map((s) => `<Style id="${s.id}"><IconStyle><color>${s.color}</color></IconStyle></Style>`),
  ];
  const data = (name: string, value: string | null) => (value ? `<Data name="${name}"><value>${xmlText(value)}</value></Data>` : '');
  for (const { t, at } of located(tickets)) {
    out.push(
      `<Placemark id="ticket-${t.id}">` +
        `<name>${xmlText(t.pole_name ?? `Ticket ${t.id}`)}</name>` +
        `<description>${xmlText(descriptionLines(t).map(htmlText).join('<br/>'))}</description>` +
        `<styleUrl>#${STYLE[t.status].id}</styleUrl>` +
        '<ExtendedData>' +
        data('ticket_id', String(t.id)) +
        data('line_name', t.line_name) +
        data('status', t.status) +
        data('street', t.street) +
        data('due_date', t.due_date) +
        data('work_orders', joined(t.work_orders)) +
        data('units', joined(t.units)) +
        '</ExtendedData>' +
        `<Point><coordinates>${formatGeo(at[0])},${formatGeo(at[1])}</coordinates></Point>` +
        '</Placemark>',
    );
  }
  out.push('</Document>', '</kml>', '');
  return out.join('\n');
}
