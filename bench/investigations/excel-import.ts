/**
 * Workbook read speed (docs/product/imports.md, decision 034): a generated workbook of N ticket rows read and converted
 * the way the server does it (in the workbook worker, imports/worker/), and the longest
 * stall of this thread's event loop meanwhile (what other users of the server would feel).
 *
 *   npx tsx bench/investigations/excel-import.ts [rows=10000]
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { defaultMappings } from '../../src/shared/excel';
import { generateTicketWorkbook } from '../../src/server/test/generate-workbook';
import { workbookColumnsOffThread, workbookImportOffThread } from '../../src/server/modules/imports/worker/off-thread';

async function main() {
  const rows = Number(process.argv[2] ?? 10_000);
  const buf = await generateTicketWorkbook(rows);
  // The worker's code warms up on the column read, as with getColumns before a save.
  const columns = await workbookColumnsOffThread(buf);
  const m = defaultMappings(columns);

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
    const result = await workbookImportOffThread(buf, { ticketsMappings: m.ticketsMappings, libraryMappings: m.libraryMappings });
    const t1 = performance.now();
    // Let the ticker run once more, so a stall at the very end is measured too.
    await new Promise((resolve) => setTimeout(resolve, 5));
    h.disable();
    clearInterval(ticker);
    results.push({
      run: run + 1,
      tickets: result.tickets.length,
      units: result.library.length,
      fileKB: Math.round(buf.length / 1024),
      totalMs: Math.round(t1 - t0),
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
