/**
 * Excel import speed (issue 3): parse + convert a generated workbook of N ticket rows, and the
 * longest stall of the event loop meanwhile (what other users of the server would feel). The
 * server path is parseWorkbook (streaming reader) + workbookToImportChunked; syncConvertMs is the
 * plain workbookToImport for comparison.
 *
 *   npx tsx bench/excel-import.ts [rows=10000]
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { defaultMappings } from '../src/shared/excel';
import { workbookToImport, workbookToImportChunked } from '../src/server/modules/excel/convert';
import { generateTicketWorkbook } from '../src/server/modules/excel/generate';
import { parseWorkbook } from '../src/server/modules/excel/workbook';

async function main() {
  const rows = Number(process.argv[2] ?? 10_000);
  const buf = await generateTicketWorkbook(rows);
  // Warm-up run so that module loading and JIT do not count.
  await parseWorkbook(await generateTicketWorkbook(200));

  const results = [];
  for (let run = 0; run < 3; run++) {
    const h = monitorEventLoopDelay({ resolution: 5 });
    // A ticker standing in for other requests: how late does it get to run?
    let maxGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 1);
    h.enable();
    const t0 = performance.now();
    const parsed = await parseWorkbook(buf);
    const t1 = performance.now();
    const m = defaultMappings({ jobColumns: parsed.tickets.columns, libraryColumns: parsed.library?.columns ?? [] });
    const result = await workbookToImportChunked(parsed, m.ticketsMappings, m.libraryMappings);
    const t2 = performance.now();
    // Let the ticker run once more, so a stall at the very end is measured too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.disable();
    const t3 = performance.now();
    workbookToImport(parsed, m.ticketsMappings, m.libraryMappings);
    const syncConvertMs = Math.round((performance.now() - t3) * 10) / 10;
    clearInterval(ticker);
    if (result.errors.length) throw new Error(result.errors[0].message);
    results.push({
      run: run + 1,
      rows: parsed.tickets.rows.length,
      tickets: result.tickets.length,
      units: result.library.length,
      fileKB: Math.round(buf.length / 1024),
      parseMs: Math.round(t1 - t0),
      convertMs: Math.round((t2 - t1) * 10) / 10,
      syncConvertMs,
      totalMs: Math.round(t2 - t0),
      maxEventLoopDelayMs: Math.round(h.max / 1e6),
      maxTickerGapMs: Math.round(maxGap),
      heapMB: Math.round(process.memoryUsage().heapUsed / 1048576),
    });
  }
  console.table(results);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
