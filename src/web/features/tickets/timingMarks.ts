import { useCallback, useEffect, useRef } from 'react';
import type { Job } from '../../../shared/jobs.schemas';

/*
 * Benchmark marks of the ticket table (bench/ reads them, docs/benchmarks.md): the first paint of
 * the table, and each re-sort or filter from the click to the re-ordered rows being painted.
 */

export function mark(name: string) {
  if (typeof performance !== 'undefined' && performance.mark) performance.mark(name);
}

export type RowsMeasure = 'tickets-sort' | 'tickets-filter';

/** 'tickets-table-visible': the frame after the job's tickets are first on screen. */
export function useFirstPaintMark(job: Job | undefined) {
  const firstPaint = useRef(false);
  useEffect(() => {
    if (!job || firstPaint.current) return;
    firstPaint.current = true;
    requestAnimationFrame(() => mark('tickets-table-visible'));
  }, [job]);
}

/**
 * 'tickets-sort' / 'tickets-filter': from the click to the re-ordered rows being painted. Call
 * the returned `startMeasure` where the change starts; the measure ends once `rows` changed.
 */
export function useRowsMeasure(rows: unknown) {
  const pending = useRef<RowsMeasure | null>(null);
  const startMeasure = useCallback((name: RowsMeasure) => {
    mark(`${name}-start`);
    pending.current = name;
  }, []);
  useEffect(() => {
    const name = pending.current;
    if (!name) return;
    pending.current = null;
    requestAnimationFrame(() => {
      mark(`${name}-end`);
      try {
        performance.measure(name, `${name}-start`, `${name}-end`);
      } catch {
        // marks cleared by the page: nothing to measure
      }
    });
  }, [rows]);
  return startMeasure;
}
