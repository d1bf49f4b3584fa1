import { mapConfigQuery } from '../../api/mapConfig';
import type { QueryClient } from '@tanstack/react-query';

/** The map's lazy chunk (Leaflet, supercluster, the map's CSS): one import, shared by MapView and the preload. */
export const loadTicketMap = () => import('./TicketMap');

/**
 * Starts what a map needs before it is shown: its code and GET /map/config. A page that knows
 * the map will open (the job page remembered in Map view) calls this as navigation starts, so
 * neither waits for the tickets to arrive first (issue 15: map usable < 1.5 s).
 */
export function preloadTicketMap(queryClient: QueryClient): void {
  void loadTicketMap().catch(() => {
    // A failed chunk is retried by MapView's lazy import, which shows its own error.
  });
  void queryClient.prefetchQuery(mapConfigQuery());
}
