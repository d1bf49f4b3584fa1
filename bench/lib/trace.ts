import { writeFileSync } from 'node:fs';
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
