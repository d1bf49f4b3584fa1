import { useCallback } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { LatLon } from '../../../shared/distance';
import { formatGeo, truncateGeo } from '../../../shared/geo';
import type { Job } from '../../../shared/jobs.schemas';
import type { TicketRow } from '../../../shared/tickets.schemas';
import { ApiError } from '../../api/client';
import { queryKeys } from '../../api/queryKeys';
import { confirmDialog } from '../../components/confirm';
import { useSaveTicket } from './api/saveTicket';

/**
 * A point dragged on the job map (docs/product/map.md §3, office roles): asks "Move pole X here?", then
 * saves the new coordinates through the one ticket save, with the version of the row the map
 * drew (a stale one is refused with the server's usual 409 message, and the job is read again).
 * Resolves whether the move was saved: the map puts the point back otherwise.
 */
export function useMovePole(jobId: number, tickets: readonly TicketRow[]) {
  const qc = useQueryClient();
  const save = useSaveTicket();
  const { mutateAsync } = save;
  return useCallback(
    async (id: number, to: LatLon): Promise<boolean> => {
      const t = tickets.find((x) => x.id === id);
      const lat = truncateGeo(to.lat);
      const lon = truncateGeo(to.lon);
      if (!t || lat === null || lon === null) return false;
      const pole = t.pole_name ?? '--';
      const yes = await confirmDialog({
        title: 'Move pole',
        message: `Move pole ${pole} here? Its location becomes ${formatGeo(lat)}, ${formatGeo(lon)}.`,
        confirmLabel: 'Move',
      });
      if (!yes) return false;
      try {
        const saved = await mutateAsync({ id, version: t.version, job_id: jobId, geo_lat: lat, geo_lon: lon });
        // The point stays where it was dropped while the job is read again.
        qc.setQueryData<Job>(queryKeys.job(jobId), (job) =>
          job && { ...job, tickets: job.tickets.map((r) => (r.id === id ? { ...r, geo_lat: saved.geo_lat, geo_lon: saved.geo_lon, version: saved.version } : r)) },
        );
        notifications.show({ color: 'green', message: `Pole ${pole} moved.` });
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) void qc.invalidateQueries({ queryKey: queryKeys.job(jobId) });
        notifications.show({ color: 'red', title: `Pole ${pole} not moved`, message: err instanceof Error ? err.message : String(err) });
        return false;
      }
    },
    [tickets, jobId, qc, mutateAsync],
  );
}
