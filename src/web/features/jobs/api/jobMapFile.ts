import { useMutation } from '@tanstack/react-query';
import { mapExportFileName, type MapExportKind } from '../../../../shared/map-export';
import { apiDownload } from '../../../api/client';
import { saveFile } from '../../../components/saveFile';

/**
 * GET /jobs/{id}/geojson and /jobs/{id}/kml: the job's tickets with coordinates as a map layer,
 * built by the server and saved under the name the server gives it too ('{job number}.geojson').
 * Fetched (not a plain link) so that a refusal shows its message in the modal instead of a
 * broken download.
 */
export const getJobMapFile = (id: number, kind: MapExportKind) => apiDownload(`/jobs/${id}/${kind}`);

export const useJobMapDownload = (job: { id: number; job_number: string }) =>
  useMutation({
    mutationFn: async (kind: MapExportKind) => saveFile(await getJobMapFile(job.id, kind), mapExportFileName(job.job_number, kind)),
  });
