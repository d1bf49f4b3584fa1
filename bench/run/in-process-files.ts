import { performance } from 'node:perf_hooks';
import { queryStats } from '../../src/server/db/client';
import { buildExportCsv, exportProblems } from '../../src/shared/export';
import type { Job } from '../../src/shared/jobs.schemas';
import type { Ticket } from '../../src/shared/tickets.schemas';
import { median, repeat, type Manifest } from '../lib/common';
import type { Inject } from '../lib/history';
import type { MapExportFigures } from './figures';
import { QUICK } from './options';

/** The files of the big job that phase 1 times in process (bench/run/in-process.ts). */

/** CSV export of the big job: what the Export button does (check, then build), median ms per option. */
export async function timeCsvExport(inject: Inject, m: Manifest): Promise<Record<string, number>> {
  // As the Export modal does: the job, then its full tickets (GET /jobs/tickets/{id}).
  const jobRes = await inject('GET', `/api/v1/jobs/${m.bigJobId}`);
  const ticketsRes = await inject('GET', `/api/v1/jobs/tickets/${m.bigJobId}`);
  if (jobRes.statusCode !== 200 || ticketsRes.statusCode !== 200) throw new Error(`GET /jobs/{id}: ${jobRes.statusCode}, tickets ${ticketsRes.statusCode}`);
  const job = { ...(jobRes.json() as Job), tickets: ticketsRes.json() as Ticket[] };
  const run = (option: 1 | 2) => {
    const problem = exportProblems(job);
    if (problem) throw new Error(`export refused: ${problem}`);
    return buildExportCsv(job, job.tickets, option, job.company_time_zone);
  };
  const exportMs: Record<string, number> = {};
  for (const option of [1, 2] as const) {
    run(option); // warm-up
    const times = await repeat(QUICK ? 3 : 7, 30_000, async () => {
      const t0 = performance.now();
      run(option);
      return performance.now() - t0;
    });
    exportMs[`option ${option}`] = median(times);
  }
  return exportMs;
}

/** The map exports of the big job (docs/product/map.md §5): request to last byte, in process. */
export async function timeMapExports(inject: Inject, m: Manifest): Promise<MapExportFigures> {
  const url = (kind: string) => `/api/v1/jobs/${m.bigJobId}/${kind}`;
  const first = await inject('GET', url('geojson')); // warm-up
  if (first.statusCode !== 200) throw new Error(`GET /jobs/{id}/geojson: ${first.statusCode}`);
  const features = (JSON.parse(first.body) as { features: unknown[] }).features.length;
  const before = queryStats.count;
  await inject('GET', url('geojson'));
  const statementCount = queryStats.count - before;
  const timeOf = (kind: string) =>
    repeat(QUICK ? 3 : 9, 30_000, async () => {
      const t0 = performance.now();
      const res = await inject('GET', url(kind));
      if (res.statusCode !== 200) throw new Error(`GET /jobs/{id}/${kind}: ${res.statusCode}`);
      return performance.now() - t0;
    });
  await inject('GET', url('kml')); // warm-up
  return { geojsonMs: median(await timeOf('geojson')), kmlMs: median(await timeOf('kml')), features, tickets: m.bigJobTickets, statements: statementCount };
}
