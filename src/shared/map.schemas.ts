import { z } from 'zod';

/**
 * The map's base layer (DESIGN §7.2): GET /api/v1/map/config. A Leaflet raster tile URL template
 * (`{z}/{x}/{y}`), the attribution the tile source asks for, and the deepest zoom it serves.
 */
export const mapConfigReply = z.object({
  tile_url: z.string(),
  attribution: z.string(),
  max_zoom: z.number().int(),
});
export type MapConfig = z.infer<typeof mapConfigReply>;
