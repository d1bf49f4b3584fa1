/**
 * `npx tsx bench/investigations/trace-summary.ts TRACE.json [--min MS]` — the page's main thread in a
 * Chromium trace (job-table.ts --trace, map.ts --trace), from navigation start: each task of at
 * least MS ms (default 8) with what it spent its time on (self time per trace event name: script
 * evaluation, compile, style, layout, GC…), the network requests' start and end, the page's marks,
 * and the totals per event name. Where the time before a mark goes, without opening DevTools.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from '../lib/common';
import type { TraceEvent } from '../lib/trace';

type Ev = TraceEvent;

const argv = process.argv.slice(2);
const args = parseArgs(argv);
const file = argv.find((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
if (!file) throw new Error('usage: npx tsx bench/investigations/trace-summary.ts TRACE.json [--min MS]');
const MIN = Number(args.min ?? 8);
const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents;

// The page's renderer main thread: the one whose thread is named CrRendererMain and that set a mark.
const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
const userMarks = events.filter((e) => e.cat.includes('blink.user_timing') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b') && mains.has(`${e.pid}:${e.tid}`));
// The page's navigation: the main frame's, with an address (a WebUI renderer of the browser's own, e.g. the omnibox popup, may trace its own).
const nav = events.find((e) => {
  const d = e.args?.data as { isLoadingMainFrame?: boolean; documentLoaderURL?: string } | undefined;
  return e.name === 'navigationStart' && mains.has(`${e.pid}:${e.tid}`) && d?.isLoadingMainFrame && /^https?:/.test(d.documentLoaderURL ?? '');
});
const main = nav ? `${nav.pid}:${nav.tid}` : [...mains][0];
// The page's own marks (not the navigation timing ones every frame records).
const TIMING = /^(navigationStart|fetchStart|responseEnd|unloadEvent|commitNavigationEnd|dom[A-Z]|loadEvent)/;
const marks = userMarks.filter((e) => `${e.pid}:${e.tid}` === main && !TIMING.test(e.name));
const t0 = nav?.ts ?? Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
const ms = (ts: number) => ((ts - t0) / 1000).toFixed(0).padStart(5);

const thread = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
const tasks = thread.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');

/** Self time per event name inside [from, to) (nested X events on one thread). */
function selfTimes(from: number, to: number): Map<string, number> {
  const inside = thread.filter((e) => e.ts >= from && e.ts + e.dur! <= to && e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask');
  const self = new Map<string, number>();
  const stack: Ev[] = [];
  const add = (e: Ev, d: number) => {
    const key = e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.compileModule' || e.name === 'v8.evaluateModule'
      ? `${e.name} ${String((e.args?.data?.url as string | undefined) ?? (e.args?.data?.fileName as string | undefined) ?? (e.args?.data?.functionName as string | undefined) ?? '').split('/').pop()}`
      : e.name;
    self.set(key, (self.get(key) ?? 0) + d);
  };
  const childTime = new Map<Ev, number>();
  for (const e of inside) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur! <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) childTime.set(parent, (childTime.get(parent) ?? 0) + e.dur!);
    stack.push(e);
  }
  for (const e of inside) add(e, e.dur! - (childTime.get(e) ?? 0));
  return self;
}

const fmt = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .filter(([, v]) => v >= 1000)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}`)
    .join(', ');

console.log(`main thread ${main}; t=0 is navigation start`);
console.log('\nrequests (sent → finished):');
const sends = events.filter((e) => e.name === 'ResourceSendRequest' && `${e.pid}` === main.split(':')[0]);
const finishes = new Map(events.filter((e) => e.name === 'ResourceFinish').map((e) => [e.args?.data?.requestId, e]));
for (const s of sends) {
  const d = s.args!.data!;
  const f = finishes.get(d.requestId);
  console.log(`  ${ms(s.ts)} → ${f ? ms(f.ts) : '    ?'}  ${String(d.priority ?? '').padEnd(8)} ${String(d.url).replace(/^https?:\/\/[^/]+/, '')}`);
}
console.log('\nmarks:', marks.map((e) => `${e.name} ${ms(e.ts)}`).join(', '));
console.log(`\ntasks ≥ ${MIN} ms (start, duration, self time by event):`);
for (const t of tasks) {
  if (t.dur! < MIN * 1000) continue;
  console.log(`  ${ms(t.ts)} ${(t.dur! / 1000).toFixed(0).padStart(5)} ms  ${fmt(selfTimes(t.ts, t.ts + t.dur!), 6)}`);
}
const end = marks.length ? Math.max(...marks.map((e) => e.ts)) : Infinity;
const busy = tasks.filter((t) => t.ts < end).reduce((n, t) => n + t.dur!, 0);
// Thread time (tdur): what the page's own work cost, without the time the thread waited for a core.
const cpu = tasks.filter((t) => t.ts < end).reduce((n, t) => n + (t.tdur ?? 0), 0);
console.log(`\nbusy before the last mark: ${(busy / 1000).toFixed(0)} ms in ${tasks.filter((t) => t.ts < end).length} tasks (thread CPU ${(cpu / 1000).toFixed(0)} ms)`);
console.log('by event (self ms):', fmt(selfTimes(t0, end), 30));

// The page shares the machine's cores with the browser's other processes: their busy time meanwhile.
const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args?.name ?? '']));
const others = new Map<string, number>();
for (const e of events) {
  if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask') || e.ts < t0 || e.ts > end) continue;
  if (`${e.pid}:${e.tid}` === main) continue;
  const key = `${names.get(e.pid) ?? e.pid} ${e.pid}:${e.tid}`;
  others.set(key, (others.get(key) ?? 0) + e.dur!);
}
console.log('other threads (busy ms before the last mark):', fmt(others, 8));
