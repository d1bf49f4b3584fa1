import { mapConfigReply, type MapConfig } from '../../../shared/map.schemas';
import type { App, AppContext } from '../../context';

/** The base map (docs/product/map.md §4): where the browser gets its tiles; the server never fetches one. */
export async function mapRoutes(app: App, ctx: AppContext) {
  const reply: MapConfig = { tile_url: ctx.config.map.tileUrl, attribution: ctx.config.map.attribution, max_zoom: ctx.config.map.maxZoom };
  app.get(
    '/map/config',
    {
      config: { allow: 'read' },
      schema: { tags: ['map'], summary: 'The base map: raster-tile URL template (Leaflet), attribution text, deepest zoom', response: { 200: mapConfigReply } },
    },
    async () => reply,
  );
}
