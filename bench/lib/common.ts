import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from '../../src/server/test/server-process';

/**
 * Where the benchmark keeps its data, and what `bench:data` leaves behind for `bench`.
 *
 * PGlite: `bench:data` fills a template data folder (.tmp/bench/pglite-template: db/ + files/);
 * each `bench` run copies it to .tmp/bench/pglite-run, so every run starts from the same state.
 * PostgreSQL (BENCH_DATABASE_URL): the template is the database `linecrew_bench_template` on
 * that server; a run uses `linecrew_bench_run`, made with CREATE DATABASE … TEMPLATE.
 */
export const BENCH_DIR = path.join(ROOT, '.tmp/bench');
export const BENCH_PASSWORD = 'linecrew';
export const BENCH_ADMIN = 'bench-admin@example.com';
/**
 * The foreman whose My Work the field-mode figures measure (bench/data.ts makes bench-foreman1…6,
 * jobs dealt round-robin): the one with the fewest open tickets, still more than most foremen have.
 */
export const BENCH_FOREMAN = 'bench-foreman1@example.com';
export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const TEMPLATE_DB = 'linecrew_bench_template';
const RUN_DB = 'linecrew_bench_run';

export type Kind = 'pglite' | 'postgres';

export interface Manifest {
  kind: Kind;
  createdAt: string;
  jobs: number;
  bigJobTickets: number;
  companyId: number;
  adminUserId: number;
  adminEmail: string;
  utilityId: number;
  bigJobId: number;
  /** Jobs of 10 and 100 tickets, for the statements-per-request check. */
  sizedJobs: Record<string, number>;
  workbook: { path: string; rows: number; bytes: number };
  counts: Record<string, number>;
  seconds: number;
}

export interface Target {
  kind: Kind;
  quick: boolean;
  /** DATA_DIR of the template (files; and db/ for PGlite). */
  templateDir: string;
  /** DATA_DIR of a run. */
  runDir: string;
  manifestPath: string;
  templateUrl?: string;
  runUrl?: string;
  adminUrl?: string;
  templateDb?: string;
  runDb?: string;
}

/** `quick` data (--quick) lives beside the full-size data, so switching never regenerates. */
export function benchTarget(kind: Kind = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite', quick = false, large = false): Target {
  if (large && kind !== 'postgres') throw new Error('--scale large runs on PostgreSQL only: set BENCH_DATABASE_URL');
  const name = large ? `${kind}-large` : quick ? `${kind}-quick` : kind;
  const base = {
    kind,
    quick,
    templateDir: path.join(BENCH_DIR, `${name}-template`),
    runDir: path.join(BENCH_DIR, `${name}-run`),
    manifestPath: path.join(BENCH_DIR, `${name}-manifest.json`),
  };
  if (kind === 'pglite') return base;
  const adminUrl = process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL is not set');
  // --scale large (docs/product/scale.md §1) lives beside the 5,000-job data, so neither regenerates the other.
  const suffix = large ? '_large' : quick ? '_quick' : '';
  return {
    ...base,
    adminUrl,
    templateDb: `${TEMPLATE_DB}${suffix}`,
    runDb: `${RUN_DB}${suffix}`,
    templateUrl: withDatabase(adminUrl, `${TEMPLATE_DB}${suffix}`),
    runUrl: withDatabase(adminUrl, `${RUN_DB}${suffix}`),
  };
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function readManifest(t: Target): Manifest | null {
  if (!existsSync(t.manifestPath)) return null;
  return JSON.parse(readFileSync(t.manifestPath, 'utf8')) as Manifest;
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Empties the template (folder, and database on PostgreSQL) before `bench:data` fills it. */
export async function resetTemplate(t: Target) {
  rmSync(t.templateDir, { recursive: true, force: true });
  if (t.kind === 'postgres') {
    await admin(t.adminUrl!, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${t.templateDb} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${t.templateDb}`);
    });
  }
}

/** A fresh copy of the template for one run: same data every run. */
export async function prepareRun(t: Target) {
  rmSync(t.runDir, { recursive: true, force: true });
  cpSync(t.templateDir, t.runDir, { recursive: true });
  if (t.kind === 'postgres') {
    await admin(t.adminUrl!, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${t.runDb} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${t.runDb} TEMPLATE ${t.templateDb}`);
    });
  }
}

export async function dropRun(t: Target) {
  if (t.kind === 'postgres') await admin(t.adminUrl!, (c) => c.query(`DROP DATABASE IF EXISTS ${t.runDb} WITH (FORCE)`));
  rmSync(t.runDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// Statistics

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}
export const median = (values: readonly number[]) => {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export function round(v: number, digits = 1): number {
  if (!Number.isFinite(v)) return v;
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs fn up to `count` times but stops once `ms` have passed (at least once). */
export async function repeat<T>(count: number, ms: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  const deadline = Date.now() + ms;
  for (let i = 0; i < count && (i === 0 || Date.now() < deadline); i++) out.push(await fn(i));
  return out;
}

export function parseArgs(argv: string[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, v] = a.slice(2).split('=', 2);
    if (v !== undefined) out[k] = v;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) out[k] = argv[++i];
    else out[k] = true;
  }
  return out;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The body of PUT /jobs/ that imports the bench workbook into a new job (the import rows of npm run bench and bench:history). */
export function importJobBody(
  m: Manifest,
  a: { jobNumber: string; packetUrl: string | null | undefined; fileUrl: string; fileSize: number; mappings: { ticketsMappings: unknown; libraryMappings: unknown } },
) {
  return {
    job: {
      job_number: a.jobNumber,
      job_type: 0,
      due_date: '2027-06-30',
      selected_utility_id: m.utilityId,
      work_packet_url: a.packetUrl,
      work_packet_name: 'packet.pdf',
      ticketsFile: {
        ticket_file_url: a.fileUrl,
        ticket_file_name: 'bench.xlsx',
        ticket_file_size: a.fileSize,
        ticket_file_type: XLSX_TYPE,
        ticketsMappings: a.mappings.ticketsMappings,
        libraryMappings: a.mappings.libraryMappings,
      },
    },
  };
}

/** A JSON request to the bench server; the reply read loosely (status and parsed body). */
export async function http(origin: string, method: string, route: string, token?: string, body?: unknown) {
  const res = await fetch(`${origin}${route}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(300_000),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies of several routes, read loosely
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { raw: text.slice(0, 500) };
  }
  return { status: res.status, json };
}

/** The environment of the bench's server process (`node --import tsx src/server/main.ts`) on a run's data. */
export function serverEnv(t: Target, extra: Record<string, string> = {}) {
  return {
    NODE_ENV: 'production',
    DATA_DIR: t.runDir,
    ...(t.runUrl ? { DATABASE_URL: t.runUrl } : {}),
    JWT_SECRET,
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}
