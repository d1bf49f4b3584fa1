import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MapConfig } from '../../shared/map.schemas';
import { ApiError, apiFetch } from './client';
import { queryKeys } from './queryKeys';

/**
 * The base map when the server names none (a server without GET /map/config answers 404) or
 * cannot be asked (offline): OpenStreetMap's public raster tiles, no key needed (docs/product/map.md §4).
 */
export const DEFAULT_MAP_CONFIG: MapConfig = {
  tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
  max_zoom: 19,
};

/**
 * GET /map/config. The base map is a backdrop: the points show without it, so a failed read
 * falls back to the default instead of keeping the map from opening (its tiles then fail on
 * their own, and the map says "Base map unavailable"). `networkMode: 'always'` so that an
 * offline phone gets the fallback at once rather than a paused query.
 */
export const mapConfigQuery = () =>
  queryOptions({
    queryKey: queryKeys.mapConfig,
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<MapConfig>('/map/config', { signal });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.status !== 404 && err.status !== 0) console.warn('map config unavailable, using the default base map', err);
        return DEFAULT_MAP_CONFIG;
      }
    },
    staleTime: Infinity,
    networkMode: 'always',
  });
export const useMapConfig = () => useQuery(mapConfigQuery());
