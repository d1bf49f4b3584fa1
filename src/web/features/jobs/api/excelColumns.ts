import type { WorkbookColumns } from '../../../../shared/excel';
import { apiFetch } from '../../../api/client';

/** GET /jobs/excel/getColumns?url=: header columns of the tickets and unit-library sheets (422 with the SPEC §5 message). */
export const getExcelColumns = (url: string, signal?: AbortSignal) =>
  apiFetch<WorkbookColumns>(`/jobs/excel/getColumns?${new URLSearchParams({ url })}`, { signal });
