import type { Kind, Manifest } from '../lib/common';
import type { BrowserFigures } from '../lib/browser';
import type { FieldFigures } from '../lib/field';
import type { HistoryFigures } from '../lib/history';
import type { ImportFigures } from '../lib/import';
import type { InvoiceFigures } from '../lib/invoices';
import type { MapFigures } from '../lib/map';
import type { VitalsFigures } from '../lib/vitals';

/** What one run of `npm run bench` measures on one database, and the names of its routes. */

export interface LoadFigures {
  p50: number;
  p99: number;
  rps: number;
  non2xx: number;
  errors: number;
  requests: number;
  /** p50 of one client alone. */
  singleP50: number;
  runs: number;
  mode: string;
  /** Bare SQL: one replay at a time, and at the same concurrency as the load test. */
  sqlSingle: number | null;
  sqlP50: number | null;
  ratio: number | null;
  note?: string;
}
/** A load test's figures before its bare SQL is set beside them (withSql). */
export type RouteLoad = Omit<LoadFigures, 'sqlSingle' | 'sqlP50' | 'ratio'>;
/** The bare SQL of a route: one replay alone, and the p50 at the load test's concurrency. */
export type SqlFigure = { single: number; p50: number };

/** Statements of GET /jobs/{id}: job unchanged since the last read / changed (reply rebuilt). */
export type StatementCounts = Record<string, { warm: number; cold: number } | null>;
/**
 * The big job's page read right after one of its tickets was saved: the kept reply is rebuilt
 * (docs/product/scale.md §3, decision 028).
 */
export const COLD_ROUTE = 'GET /api/v1/jobs/{big job}, rebuilt';
/** The big job's production (docs/product/billing.md §3): computeProduction over all its tasks, read in one statement. */
export const PRODUCTION_ROUTE = 'GET /api/v1/jobs/{big job}/production';

/** The big job's map exports in process: median ms of GeoJSON and KML, points, statements per request. */
export interface MapExportFigures {
  geojsonMs: number;
  kmlMs: number;
  features: number;
  tickets: number;
  statements: number;
}

/** What the in-process phase hands the server phase (bench/run/in-process.ts). */
export interface Phase1 {
  statements: StatementCounts;
  sql: Record<string, SqlFigure | null>;
  exportMs: Record<string, number> | null;
  mapExport: MapExportFigures | null;
  invoice: InvoiceFigures | null;
  exceljsSeconds: number;
  putTickets: { id: number; version: number }[];
  history: HistoryFigures | null;
  notes: string[];
}

export interface DbResults {
  kind: Kind;
  manifest: Manifest;
  statements: StatementCounts;
  load: Record<string, LoadFigures | null>;
  importFig: ImportFigures | null;
  exportMs: Record<string, number> | null;
  mapExport: MapExportFigures | null;
  /** An invoice of ~5,000 lines: preview, create, XLSX, PDF (bench/lib/invoices.ts). */
  invoice?: InvoiceFigures | null;
  /** What recording the history costs (docs/product/records.md §1, decision 044). */
  history?: HistoryFigures | null;
  /** The job map in the browser (bench/lib/map.ts). */
  map?: MapFigures | null;
  /** Lighthouse's mobile load figures: the job page's blocking time, /work's layout shift (bench/lib/vitals.ts). */
  vitals?: VitalsFigures | null;
  rss: { loadMB: number; importMB: number; hwmMB: number } | null;
  browser: BrowserFigures | null;
  field: FieldFigures | null;
  notes: string[];
  seconds: number;
}

export function withSql(fig: RouteLoad, sql: SqlFigure | null | undefined): LoadFigures {
  return { ...fig, sqlSingle: sql?.single ?? null, sqlP50: sql?.p50 ?? null, ratio: sql ? fig.p50 / Math.max(sql.p50, 0.01) : null };
}
