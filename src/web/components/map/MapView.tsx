import { lazy, Suspense, useMemo } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { localIsoDay } from '../../../shared/ticket-state';
import { useMapConfig } from '../../api/mapConfig';
import type { Position } from '../geolocation';
import { mapCountText, toMapPoints, type MappableTicket } from './mapPoints';
import type { TicketMapProps } from './TicketMap';

// Leaflet, supercluster and the map's CSS load only when a map is first shown (issue 17's page
// budgets): this file is all the job and My Work pages carry.
const TicketMap = lazy(() => import('./TicketMap'));

function Loading() {
  return (
    <Center h={320}>
      <Loader aria-label="Loading the map" />
    </Center>
  );
}

/**
 * A map of tickets (DESIGN §7.2) with its count: "N of M poles on the map", M the rows given
 * (what the list shows after its filters and search), N those with coordinates. The rows are
 * the list's own, so every filter of the list applies to the map too.
 */
export function MapView({
  rows,
  position,
  ...props
}: {
  rows: readonly MappableTicket[];
  position?: Position | null;
} & Pick<TicketMapProps, 'label' | 'fitLabel' | 'onOpen' | 'onMove'>) {
  const config = useMapConfig();
  const today = localIsoDay();
  const points = useMemo(() => toMapPoints(rows, today), [rows, today]);
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} aria-live="polite" data-testid="map-count">
        {mapCountText(points.length, rows.length)}
      </Text>
      {config.data ? (
        <Suspense fallback={<Loading />}>
          <TicketMap key={config.data.tile_url} config={config.data} points={points} position={position} {...props} />
        </Suspense>
      ) : (
        <Loading />
      )}
    </Stack>
  );
}
