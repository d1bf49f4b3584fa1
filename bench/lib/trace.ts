import { readFileSync, writeFileSync } from 'node:fs';
import type { CDPSession } from '@playwright/test';

/** DevTools' own trace categories (what its Performance panel records). */
export const TRACE_CATEGORIES = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'loading',
  'latencyInfo',
].join(',');

/** Records a Chromium performance trace (DevTools' Performance panel opens it) of `work` into `file`. */
export async function recordTrace(cdp: CDPSession, file: string, work: () => Promise<unknown>): Promise<number> {
  const chunks: unknown[] = [];
  const collect = (e: { value: unknown[] }) => chunks.push(...e.value);
  cdp.on('Tracing.dataCollected', collect);
  const done = new Promise<void>((r) => cdp.once('Tracing.tracingComplete', () => r()));
  await cdp.send('Tracing.start', { categories: TRACE_CATEGORIES, transferMode: 'ReportEvents' });
  await work();
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', collect);
  writeFileSync(file, JSON.stringify({ traceEvents: chunks }));
  return chunks.length;
}

/** One event of a Chromium trace (the fields the bench reads). */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown> };
}

/**
 * The page's main thread in a trace written by recordTrace: when `mark` was set (ms from the
 * navigation) and how much thread time (CPU, `tdur`) its tasks took before it. On a loaded machine
 * the wall time stretches with every other process; the thread time is the page's own work.
 */
export function mainThreadBefore(file: string, mark: string): { markMs: number; cpuMs: number; busyMs: number } | null {
  const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const nav = events.find((e) => {
    const d = e.args?.data as { isLoadingMainFrame?: boolean; documentLoaderURL?: string } | undefined;
    return e.name === 'navigationStart' && mains.has(`${e.pid}:${e.tid}`) && d?.isLoadingMainFrame && /^https?:/.test(d.documentLoaderURL ?? '');
  });
  if (!nav) return null;
  const main = `${nav.pid}:${nav.tid}`;
  const m = events.find((e) => e.name === mark && e.cat.includes('blink.user_timing') && `${e.pid}:${e.tid}` === main);
  if (!m) return null;
  const tasks = events.filter(
    (e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ts >= nav.ts && e.ts < m.ts,
  );
  return {
    markMs: (m.ts - nav.ts) / 1000,
    cpuMs: tasks.reduce((n, t) => n + (t.tdur ?? 0), 0) / 1000,
    busyMs: tasks.reduce((n, t) => n + (t.dur ?? 0), 0) / 1000,
  };
}
