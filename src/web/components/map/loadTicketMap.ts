import { mapConfigQuery } from '../../api/mapConfig';
import type { QueryClient } from '@tanstack/react-query';

type TicketMapModule = typeof import('./TicketMap');
let loaded: TicketMapModule | null = null;

/** The map's lazy chunk (Leaflet, supercluster, the map's CSS): one import, shared by MapView and the preload. */
export const loadTicketMap = () =>
  import('./TicketMap').then((m) => {
    loaded = m;
    return m;
  });

/**
 * The map's module once its chunk has arrived, else null. MapView renders it directly then: a
 * `lazy` component suspends on its first render even when its chunk is already here, and React
 * reveals a suspended boundary's content at the earliest 300 ms after its fallback (trace of the
 * big job: the first points came that much after the page, and the job's offline copy was
 * written in the gap).
 */
export const loadedTicketMap = () => loaded;

/**
 * Starts what a map needs before it is shown: its code and GET /map/config. A page that knows
 * the map will open (the job page remembered in Map view) calls this as navigation starts, so
 * neither waits for the tickets to arrive first (docs/product/scale.md §3: map usable < 1.5 s).
 */
export function preloadTicketMap(queryClient: QueryClient): void {
  void loadTicketMap().catch(() => {
    // A failed chunk is retried by MapView's lazy import, which shows its own error.
  });
  void queryClient.prefetchQuery(mapConfigQuery());
}
