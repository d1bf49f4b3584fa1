import { lazy, Suspense, useState } from 'react';
import { Center } from '@mantine/core';
import { Spinner } from '../Spinner';
import { loadedTicketMap, loadTicketMap } from './loadTicketMap';
import type { TicketMapProps } from './TicketMap';

// The map, its count, Leaflet, supercluster and the map's CSS load only when a map is first
// shown (or preloaded, loadTicketMap.ts): this file is all the job and My Work pages carry
// (the page weights of docs/product/scale.md §3).
const TicketMap = lazy(loadTicketMap);

/** A map of the list's tickets (docs/product/map.md §1): see TicketMap. */
export function MapView(props: TicketMapProps) {
  // Already here (preloaded, or a map shown before): drawn in this very render, no fallback first.
  // Chosen once per mount: a change of component type would remount the map and lose its view.
  const [Shown] = useState(() => loadedTicketMap()?.default ?? TicketMap);
  return (
    <Suspense
      fallback={
        <Center h={320}>
          <Spinner label="Loading the map" />
        </Center>
      }
    >
      <Shown {...props} />
    </Suspense>
  );
}
