import { z } from 'zod';
import { TICKET_STATUS } from './constants';
import { LAT_RANGE, LON_RANGE } from './geo';

/**
 * The map contract (docs/product/map.md §1 Map).
 * Used by: GET /api/v1/map/config (src/server/modules/map/map.routes.ts) and the web map, which
 * draws its base layer from it; GET /api/v1/jobs/{id}/geojson (src/server/modules/jobs/*), whose
 * features src/shared/map-export.ts builds. Types are z.infer of these schemas.
 */

/**
 * GET /map/config: the raster tiles of the base map (a Leaflet URL template with {z}, {x}, {y}
 * and perhaps {s} and {r}), the text to credit them with (plain text, never HTML) and the
 * deepest zoom they offer. From MAP_STYLE_URL / MAP_ATTRIBUTION / MAP_MAX_ZOOM (server config).
 * The server never fetches a tile itself: without a network the points still show.
 */
export const mapConfigReply = z.object({
  tile_url: z.string(),
  attribution: z.string(),
  max_zoom: z.number().int().min(0).max(24),
});
export type MapConfig = z.infer<typeof mapConfigReply>;

/** A position as RFC 7946 orders it: longitude first, then latitude. */
export const lonLatSchema = z.tuple([z.number().min(LON_RANGE.min).max(LON_RANGE.max), z.number().min(LAT_RANGE.min).max(LAT_RANGE.max)]);

/** What each point of a job's GeoJSON export says about its ticket: strings, numbers and nulls only. */
export const mapFeatureProperties = z.object({
  ticket_id: z.number().int(),
  pole_name: z.string().nullable(),
  line_name: z.string().nullable(),
  status: z.enum([TICKET_STATUS.PENDING, TICKET_STATUS.COMPLETE]),
  /** 'YYYY-MM-DD' or null. */
  due_date: z.string().nullable(),
  /** The ticket's street address, else its pole's (as the CSV export's Address column). */
  street: z.string().nullable(),
  /**
   * The ticket's work orders joined by ', ' ('' for none). Every property is a string, a number
   * or null (docs/product/imports.md): Shapefile drops a list and GeoPackage stores it as '(2:WO-1,WO-2)'.
   */
  work_orders: z.string(),
  /** The unit code of each of the ticket's tasks, in the tasks' order, joined by ', ' ('' for none). */
  units: z.string(),
});
export type MapFeatureProperties = z.infer<typeof mapFeatureProperties>;

export const mapFeature = z.object({
  type: z.literal('Feature'),
  /** The ticket's id again, so a map library can tell points apart. */
  id: z.number().int(),
  geometry: z.object({ type: z.literal('Point'), coordinates: lonLatSchema }),
  properties: mapFeatureProperties,
});
export type MapFeature = z.infer<typeof mapFeature>;

/** GET /jobs/{id}/geojson (application/geo+json): one Point per ticket with coordinates. */
export const mapFeatureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(mapFeature),
});
export type MapFeatureCollection = z.infer<typeof mapFeatureCollection>;
