import { BENCH_FOREMAN, round } from '../lib/common';
import { unreadBodiesSkipped } from '../lib/load-client';
import type { DbResults } from './figures';
import type { Machine, Status } from './format';
import { CONNECTIONS, DURATION, FIELD_SYNCS, FIELD_VISITS, QUICK, RUNS } from './options';
import type { Row } from './rows';

/** The table as text for the terminal, and docs/benchmarks.md (without its large section). */
export function render(all: DbResults[], rows: Row[], mach: Machine, loadAfter: string): { text: string; md: string } {
  const kinds = all.map((r) => r.kind);
  const head = ['Measure', ...kinds.map((k) => (k === 'pglite' ? 'PGlite' : 'PostgreSQL')), 'Budget'];
  const cellText = (c: { text: string; status?: Status } | undefined) => (c ? (c.status ? `${c.text} — ${c.status}` : c.text) : '');
  const body = rows.map((r) => [r.measure, ...kinds.map((k) => cellText(r.cells[k])), r.budget]);
  const widths = head.map((h, i) => Math.min(90, Math.max(h.length, ...body.map((b) => b[i].length))));
  const line = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i])).join(' │ ');
  const text = [line(head), widths.map((w) => '─'.repeat(w)).join('─┼─'), ...body.map(line)].join('\n');

  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const m0 = all[0].manifest;
  const md = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); data from `npm run bench:data` (bench/data.ts). Medians over',
    `repeated runs: ${RUNS} load-test runs of ${DURATION} s with ${CONNECTIONS} connections (autocannon, after a 1 s warm-up;`,
    `${unreadBodiesSkipped ? 'it decodes only the replies a test reads' : '**it decoded every reply: see bench/lib/load-client.ts**'}),`,
    `${QUICK ? 1 : RUNS} imports, ${QUICK ? 2 : 5} browser loads; field mode: ${FIELD_VISITS} repeat visits and offline reloads of My Work,`,
    `${FIELD_SYNCS} sync${FIELD_SYNCS === 1 ? '' : 's'} of 50 notes.${QUICK ? ' **Quick mode: smaller data, fewer runs.**' : ''}`,
    '',
    `- date: ${mach.date}`,
    `- machine: ${mach.cpus}, ${mach.memory} memory, ${mach.os}; load average at start ${mach.load}, at end ${loadAfter}`,
    `- node: ${mach.node}`,
    `- commit: ${mach.commit}`,
    `- data: ${m0.counts.jobs} jobs (one of ${m0.bigJobTickets} tickets × 4 tasks, 1 note, 1 work order), ${m0.counts.crew} crew members, ${m0.counts.units} units, ${m0.counts.tickets} tickets in all; workbook ${m0.workbook.rows} rows (${round(m0.workbook.bytes / 1024, 0)} KB)`,
    '',
    `| ${head.map(esc).join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...body.map((b) => `| ${b.map(esc).join(' | ')} |`),
    '',
    '## How to read it',
    '',
    '- Load tests run against the real server (`node --import tsx src/server/main.ts`, `NODE_ENV=production`) as a',
    '  child process; autocannon runs in the bench process on the same machine, so both share the CPUs.',
    '- "Bare SQL" is the exact statements the route sent (captured from drizzle\'s logger during one request,',
    '  session check included) replayed directly on the driver against the same database: reads with the',
    '  route\'s own parallelism, the ticket save in order inside a transaction that is rolled back. The ratio',
    `  is route p50 ÷ bare-SQL p50, both at ${CONNECTIONS} concurrent: what Fastify, validation, mapping and JSON add.`,
    "  A read route's bare SQL is replayed after the bench's in-process writes (saves, the invoice), on the",
    '  state its load test reads: new row versions elsewhere change what the same statements cost (decision 065).',
    '- `GET /jobs/{id}` checks a fingerprint of the job\'s rows (one statement) and serves the reply it built',
    '  after the last change (src/server/plugins/reply-cache.ts); every client of the load test reads the',
    '  same unchanged job, so its row is the steady state. The "rebuilt" row is the first read after each',
    '  save of one ticket (PUT /tickets/): the kept reply is rebuilt from the changed ticket\'s row (decision',
    '  027), read alone and by 10 clients at once (who share one rebuild); its bare SQL is the statements of',
    '  such a rebuild. The load test sends `Accept-Encoding: gzip, deflate, br` as',
    '  browsers do, so replies come compressed: the job page once per change of the job, every other API reply',
    '  over 1 KB as it is sent (@fastify/compress, docs/deploy.md).',
    '- PGlite is one connection in one process: the bare SQL is timed in the bench process before the server',
    '  starts (the server would otherwise hold the data folder). The p50 budget is stated for PostgreSQL.',
    '- Statements per request are counted in process (buildApp + app.inject) by `queryStats` (src/server/db/client.ts).',
    '- The map exports are timed in process from `app.inject` to the whole reply (session check, the job, its located',
    '  tickets with their work orders and unit codes, the file built and sent); the bench job has coordinates on 6 of',
    '  every 7 tickets. Their statements per request include the session check.',
    '- The import is timed from the PUT /jobs/ request to its reply (the workbook was uploaded beforehand with the',
    '  signed-upload flow); "exceljs alone" is `new ExcelJS.Workbook().xlsx.load(buffer)` on the same file.',
    '- Browser figures come from the marks the tickets page sets (`tickets-table-visible`, measure `tickets-sort`);',
    '  initial JavaScript is every script a fresh load of the page fetches, each gzipped with zlib.',
    `- Field figures (bench/lib/field.ts) are those of ${BENCH_FOREMAN}, the bench foreman with the fewest open tickets`,
    '  (the count is in the row), in Chromium at 390 × 844 px. A first visit of /work installs the service worker',
    '  (navigator.serviceWorker.ready, the page controlled) and keeps My Work and its first 200 tickets on the device;',
    '  only the visits after it are measured. Slow 3G is CDP `Network.emulateNetworkConditions` (400 kbit/s each',
    '  way, 400 ms latency) on the page; offline is Playwright\'s offline emulation (page and service worker).',
    '  "Usable" is the `work-list-visible` mark My Work sets when its list first paints with data (the copy on the',
    '  device, before the server\'s fresh answer). Each measured visit comes 16 s after the last one, when that copy',
    '  is older than the app\'s 15 s freshness, so it pays for My Work\'s refresh as a visit later in the day does.',
    '  Bytes are counted until the network is quiet, two ways: every byte the server sent, on a TCP relay the browser',
    '  goes through (bench/lib/wire.ts; it also sees the browser\'s update check of /sw.js, which DevTools reports',
    '  for no page), and CDP `Network.loadingFinished` `encodedDataLength` (headers included) of the page\'s requests',
    '  not answered by the service worker or a cache, plus the worker\'s own. The API replies are compressed by the',
    '  app (br or gzip as the browser asks); beside their size as sent is their JSON gzipped with zlib, for scale.',
    '- The photo is made with sharp (fine gaussian grain, so it weighs what a phone\'s does) and set on the "Take photo"',
    '  input of the phone\'s ticket view offline; its size is the queued blob\'s in IndexedDB (`linecrew-offline`,',
    '  store `outbox`). The 50 notes are typed into 5 tickets through the same view offline (10 each, a fresh',
    '  browser context per run); the time runs in the page from the `online` event (sent to the page as a phone',
    '  gets it: Chromium 150\'s emulation drops it after a navigation) to the status line reading',
    '  "All changes synced", and the API must then hold exactly those 50 notes.',
    '',
    ...(all.some((r) => r.notes.length)
      ? ['## Notes from this run', '', ...all.flatMap((r) => r.notes.map((n) => `- ${r.kind}: ${n}`)), '']
      : []),
  ].join('\n');
  return { text, md };
}
