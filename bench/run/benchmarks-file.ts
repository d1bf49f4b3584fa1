import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../src/server/test/server-process';

/**
 * docs/benchmarks.md holds three parts, each with its own writer: the everyday table
 * (`npm run bench`), the large section (`npm run bench -- --scale large`) and the figures measured
 * for the decisions (written by hand, each under its decision). A run replaces its own part and
 * keeps the other two as they are.
 */
export const BENCHMARKS_FILE = path.join(ROOT, 'docs/benchmarks.md');
export const LARGE = { start: '<!-- bench --scale large: start -->', end: '<!-- bench --scale large: end -->' };
export const MEASURED = { start: '<!-- measured for the decisions: start -->', end: '<!-- measured for the decisions: end -->' };

/** The part of `text` between `marks`, the marks included; '' when it has none. */
function part(text: string, marks: { start: string; end: string }): string {
  const a = text.indexOf(marks.start);
  const b = text.indexOf(marks.end, a);
  return a >= 0 && b > a ? text.slice(a, b + marks.end.length) : '';
}

/** The file's text with the parts a run gives replaced: `table` (all before the marked parts), `large`. */
export function mergeBenchmarks(old: string, parts: { table?: string; large?: string }): string {
  const marked = [LARGE.start, MEASURED.start].map((m) => old.indexOf(m)).filter((i) => i >= 0);
  const oldTable = marked.length ? old.slice(0, Math.min(...marked)) : old;
  return [(parts.table ?? oldTable).trim(), (parts.large ?? part(old, LARGE)).trim(), part(old, MEASURED)].filter(Boolean).join('\n\n') + '\n';
}

/** Writes the parts a run gives into docs/benchmarks.md, keeping the others. */
export function writeBenchmarks(parts: { table?: string; large?: string }): void {
  const old = existsSync(BENCHMARKS_FILE) ? readFileSync(BENCHMARKS_FILE, 'utf8') : '';
  writeFileSync(BENCHMARKS_FILE, mergeBenchmarks(old, parts));
}
