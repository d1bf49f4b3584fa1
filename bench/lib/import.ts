import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { defaultMappings } from '../../src/shared/excel';
import { http, importJobBody, median, percentile, repeat, sleep, XLSX_TYPE, type Manifest } from './common';

/**
 * The bench's workbook import (the rows "Import of the 10,000-row workbook", "First import
 * after the server's start", "GET /api/v1/health during the imports"): the workbook uploaded with
 * the signed-upload flow and its columns read (getColumns, as the web client does before a save),
 * then PUT /jobs/ with ticketsFile timed from request to reply while GET /health is sampled.
 * Used by `npm run bench` (bench/run.ts) and `npm run bench:import` (bench/import.ts).
 */

export interface ImportRun {
  seconds: number;
  tickets?: number;
  jobId?: number;
  /** GET /api/v1/health round trips during the import, ms. */
  health: number[];
  healthFailures: number;
}

export interface ImportFigures {
  /** Median of the imports after the first. */
  seconds: number;
  rowsPerSecond: number;
  exceljsSeconds: number;
  healthMaxMs: number;
  healthP99Ms: number;
  healthSamples: number;
  healthFailures: number;
  tickets?: number;
  /** The job the last import created (its tickets are what the history rows time the entries over). */
  lastJobId?: number;
  /**
   * The first import after the server's start (decision 034): cold code in the worker and the
   * server, cold pages; what an office sees on the morning's first workbook after a deploy.
   */
  first: { seconds: number; healthMaxMs: number; healthFailures: number };
}

/** `new ExcelJS.Workbook().xlsx.load(buffer)` on the workbook, median of 3 (what the import can at best approach). */
export async function exceljsAloneSeconds(m: Manifest): Promise<number> {
  const buf = readFileSync(m.workbook.path);
  const reads = await repeat(3, 120_000, async () => {
    const t0 = performance.now();
    await new ExcelJS.Workbook().xlsx.load(buf as unknown as ArrayBuffer);
    return (performance.now() - t0) / 1000;
  });
  return median(reads);
}

/** `runs` imports of the bench workbook into new jobs, one after the other; null when the jobs routes do not answer. */
export async function timeImports(origin: string, token: string, m: Manifest, runs: number, log: (m: string) => void): Promise<ImportRun[] | null> {
  const buf = readFileSync(m.workbook.path);
  // The signed-upload flow of the browser: sign, PUT the bytes, keep the url.
  const sign = await http(origin, 'GET', `/api/v1/doc_upload/sign-s3-pdf?directory=excel&fileName=bench.xlsx&fileType=${encodeURIComponent(XLSX_TYPE)}&fileSize=${buf.length}`, token);
  if (sign.status !== 200) throw new Error(`sign upload: ${sign.status} ${JSON.stringify(sign.json)}`);
  const target = new URL(sign.json.signedRequest as string, origin);
  const put = await fetch(`${origin}${target.pathname}${target.search}`, { method: 'PUT', headers: sign.json.headers, body: buf });
  if (!put.ok) throw new Error(`upload: ${put.status}`);
  const url = sign.json.url as string;
  const cols = await http(origin, 'GET', `/api/v1/jobs/excel/getColumns?url=${encodeURIComponent(url)}`, token);
  if (cols.status !== 200) throw new Error(`getColumns: ${cols.status}`);
  const mappings = defaultMappings(cols.json);

  const probe = await http(origin, 'GET', '/api/v1/jobs', token);
  if (probe.status !== 200) return null;
  const packet = (probe.json as { work_packet_url: string | null }[]).find((j) => j.work_packet_url)?.work_packet_url;

  const out: ImportRun[] = [];
  for (let i = 0; i < runs; i++) {
    const health: number[] = [];
    let healthFailures = 0;
    let importing = true;
    const sampler = (async () => {
      const deadline = Date.now() + 300_000;
      while (importing && Date.now() < deadline) {
        const t0 = performance.now();
        try {
          const r = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(5000) });
          await r.arrayBuffer();
          if (r.ok) health.push(performance.now() - t0);
          else healthFailures++;
        } catch {
          healthFailures++;
        }
        await sleep(25);
      }
    })();
    const t0 = performance.now();
    const r = await http(origin, 'PUT', '/api/v1/jobs/', token, importJobBody(m, { jobNumber: `IMPORT-${Date.now().toString(36)}-${i}`, packetUrl: packet, fileUrl: url, fileSize: buf.length, mappings }));
    const seconds = (performance.now() - t0) / 1000;
    importing = false;
    await sampler;
    if (r.status !== 200) throw new Error(`import: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    out.push({ seconds, tickets: r.json?.imported?.tickets, jobId: r.json?.job?.id, health, healthFailures });
    log(`import ${i + 1}: ${seconds.toFixed(2)} s, /health max ${Math.max(...health).toFixed(0)} ms`);
  }
  return out;
}

/** The rows' figures: the first import on its own, the others the steady state. */
export function importFigures(runs: readonly ImportRun[], m: Manifest, exceljsSeconds: number): ImportFigures {
  const steady = runs.length > 1 ? runs.slice(1) : runs;
  const seconds = median(steady.map((r) => r.seconds));
  const health = steady.flatMap((r) => r.health);
  return {
    seconds,
    rowsPerSecond: m.workbook.rows / seconds,
    exceljsSeconds,
    healthMaxMs: Math.max(...health),
    healthP99Ms: percentile(health, 99),
    healthSamples: health.length,
    healthFailures: steady.reduce((n, r) => n + r.healthFailures, 0),
    tickets: runs[0]?.tickets,
    lastJobId: runs[runs.length - 1]?.jobId,
    first: { seconds: runs[0].seconds, healthMaxMs: Math.max(...runs[0].health), healthFailures: runs[0].healthFailures },
  };
}
