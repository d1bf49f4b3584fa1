import type { Feature, Point } from 'geojson';
import { placeOf, type LatLon } from '../../../shared/distance';
import { ticketState, type TicketState } from '../../../shared/ticket-state';

/**
 * What the ticket maps draw (docs/product/map.md §1), as pure data: one point per ticket with coordinates,
 * its state and its look. Kept apart from Leaflet so that it is tested without a browser and
 * the pages that only count points do not load the map's code.
 */

/** The fields of a ticket row (job page or My Work) a map point needs. */
export interface MappableTicket {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  status: string;
  due_date: string | null;
  geo_lat: number | null;
  geo_lon: number | null;
}

export interface MapPoint extends LatLon {
  id: number;
  state: TicketState;
  /** "Pole P-1 · Line 3": the tooltip and the move question. */
  title: string;
}

export const ticketTitle = (t: Pick<MappableTicket, 'pole_name' | 'line_name'>) => `Pole ${t.pole_name ?? '--'} · Line ${t.line_name ?? '--'}`;

/** The tickets that have both coordinates, in the order given. */
export function toMapPoints(rows: readonly MappableTicket[], today: string): MapPoint[] {
  const points: MapPoint[] = [];
  for (const t of rows) {
    const at = placeOf(t);
    if (!at || !Number.isFinite(at.lat) || !Number.isFinite(at.lon)) continue;
    points.push({ id: t.id, ...at, state: ticketState(t, today), title: ticketTitle(t) });
  }
  return points;
}

/** "N of M poles on the map": M rows (after the filters), N of them with coordinates. */
export const mapCountText = (onMap: number, rows: number) => `${onMap} of ${rows} pole${rows === 1 ? '' : 's'} on the map`;

/**
 * How each state looks (Overdue = Pending past its due date, src/shared/ticket-state.ts): a colour, and a letter and a size so that it reads without colour too
 * (WCAG 1.4.1). Colours are dark enough that white letters on them pass 4.5:1, and their
 * white outline sets them off any base map (1.4.11).
 */
export const POINT_STYLE: Record<TicketState, { color: string; letter: string; radius: number; label: string }> = {
  Pending: { color: '#1864ab', letter: 'P', radius: 9, label: 'Pending' },
  Complete: { color: '#237a35', letter: 'C', radius: 9, label: 'Complete' },
  Overdue: { color: '#c92a2a', letter: '!', radius: 11, label: 'Overdue' },
};

/** Overdue drawn last, on top: the points that need someone are never hidden under the others. */
const DRAW_ORDER: Record<TicketState, number> = { Complete: 0, Pending: 1, Overdue: 2 };
export const byDrawOrder = (a: MapPoint, b: MapPoint) => DRAW_ORDER[a.state] - DRAW_ORDER[b.state];

/**
 * supercluster's input: GeoJSON points `[lon, lat]`, each naming its map point by index and
 * counting 1 when overdue, so that a cluster can tell how many of its poles are overdue.
 */
export type ClusterProps = { i: number; overdue: number };
export function clusterInput(points: readonly MapPoint[]): Feature<Point, ClusterProps>[] {
  return points.map((p, i) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lon, p.lat] }, properties: { i, overdue: p.state === 'Overdue' ? 1 : 0 } }));
}

/** What a cluster adds up: its overdue poles. */
export type ClusterSums = { overdue: number };

/**
 * supercluster's options for Leaflet: its 256-px tiles (`extent`), so `radius` is in screen
 * pixels; poles within ~60 px merge, and from zoom 17 on (a pole every few metres) none do.
 */
export const CLUSTER_OPTIONS = {
  radius: 60,
  extent: 256,
  maxZoom: 16,
  map: (p: ClusterProps): ClusterSums => ({ overdue: p.overdue }),
  reduce: (acc: ClusterSums, p: ClusterSums) => {
    acc.overdue += p.overdue;
  },
};

/** A cluster's name for a screen reader and its tooltip. */
export const clusterLabel = (count: number, overdue: number) => `${count} poles here${overdue ? `, ${overdue} overdue` : ''}: zoom in`;

/** The box around the points ([[south, west], [north, east]]), null for none. */
export function boundsOf(points: readonly LatLon[]): [[number, number], [number, number]] | null {
  if (points.length === 0) return null;
  let s = Infinity;
  let w = Infinity;
  let n = -Infinity;
  let e = -Infinity;
  for (const p of points) {
    s = Math.min(s, p.lat);
    n = Math.max(n, p.lat);
    w = Math.min(w, p.lon);
    e = Math.max(e, p.lon);
  }
  return [
    [s, w],
    [n, e],
  ];
}
