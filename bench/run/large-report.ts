import { round } from '../lib/common';
import { LARGE } from './benchmarks-file';
import { ms, status, type Machine } from './format';
import type { LargeFigures } from './large';
import { CONNECTIONS, DURATION, RUNS } from './options';

/** The large run's section of docs/benchmarks.md, between its marks (bench/run/benchmarks-file.ts). */
export function renderLarge(f: LargeFigures, mach: Machine, loadAfter: string): string {
  const m = f.manifest;
  const c = m.counts;
  const lines = [
    LARGE.start,
    '## Ten years of work: `npm run bench -- --scale large` (PostgreSQL)',
    '',
    `Data: \`npm run bench:data -- --scale large\` (bench/lib/large.ts, decision 054): ${c.jobs.toLocaleString('en-US')} jobs,`,
    `${c.tickets.toLocaleString('en-US')} tickets (${c.openTickets?.toLocaleString('en-US')} open), ${c.tasks.toLocaleString('en-US')} tasks, ${c.images?.toLocaleString('en-US')} photo rows,`,
    `${c.crew.toLocaleString('en-US')} crew, ${c.invoices?.toLocaleString('en-US')} invoices; built in ${m.seconds} s on ${m.createdAt.slice(0, 10)}. Each route: one client alone, then`,
    `${CONNECTIONS} clients (${RUNS} runs of ${DURATION} s, or of ${CONNECTIONS * 2} requests when one request is slow), replies compressed as a browser asks.`,
    `- date: ${mach.date}; machine: ${mach.cpus}, load average at start ${mach.load}, at end ${loadAfter}; commit ${mach.commit}`,
    '',
    '| Measure | PostgreSQL | Budget |',
    '| --- | --- | --- |',
    `| bench:data --scale large: time to build | ${round(m.seconds / 60, 1)} min — ${status(m.seconds < 900)} | < 15 min |`,
  ];
  for (const [name, fig] of Object.entries(f.load)) {
    const budget = /jobs\?limit=50&q/.test(name) || name.startsWith('Search') ? 200 : name.startsWith('Jobs page') ? 100 : name.includes('dashboard') ? 300 : name.startsWith('My Work') ? 200 : name.startsWith('Production') ? 100 : 150;
    if (!fig && f.alone[name] !== undefined) {
      lines.push(`| ${name} | 1 client alone, in process: ${ms(f.alone[name], 0)}${f.bytes[name] === undefined ? '' : `; reply ${round(f.bytes[name] / 1024, 1)} KB of JSON`} (${CONNECTIONS} clients not run) — not met | p50 < ${budget} ms |`);
      continue;
    }
    if (!fig) {
      lines.push(`| ${name}, ${CONNECTIONS} clients: p50 | not measured (see notes) | p50 < ${budget} ms |`);
      continue;
    }
    const size = f.bytes[name] === undefined ? '' : `; reply ${round(f.bytes[name] / 1024, 1)} KB of JSON`;
    lines.push(
      `| ${name}, ${CONNECTIONS} clients: p50 / p99 / req/s | ${ms(fig.p50, 0)} / ${ms(fig.p99, 0)} / ${round(fig.rps, 1)} (1 client: ${ms(fig.singleP50, 0)}; ${fig.mode}${size}${fig.non2xx ? `; ${fig.non2xx} non-2xx` : ''}) — ${status(fig.p50 < budget && fig.non2xx === 0)} | p50 < ${budget} ms |`,
    );
    lines.push(
      `|   bare SQL of that route: alone / p50 at ${CONNECTIONS} concurrent; route ÷ SQL | ${fig.sqlP50 == null ? 'not measured' : `${ms(fig.sqlSingle)} / ${ms(fig.sqlP50)}; ×${round(fig.ratio!, 2)} — ${status(fig.ratio! < 2)}`} | route ÷ SQL < 2 |`,
    );
  }
  // The everyday data's budgets for the same files (docs/product/scale.md §3): the ten years must not show.
  const fl = f.files;
  const measured = (v: number | null, budget: number) => (v == null ? 'not measured' : `${ms(v, 0)} — ${status(v < budget)}`);
  lines.push(
    `| Exports of the ${m.bigJobTickets.toLocaleString('en-US')}-ticket job, 1 client in process: export.xlsx option 2 / units; GeoJSON | ${measured(fl.xlsxAllMs, 2000)} / ${measured(fl.xlsxUnitsMs, 2000)}; ${measured(fl.geojsonMs, 300)} | xlsx < 2 s; GeoJSON < 300 ms |`,
  );
  const inv = fl.invoice;
  lines.push(
    `| Invoice of that job, 1 client in process: lines; preview / create / XLSX / PDF | ${inv ? `${inv.lines.toLocaleString('en-US')} lines of ${inv.tickets} tickets; ${ms(inv.previewMs, 0)} / ${ms(inv.createMs, 0)} — ${status(inv.createMs < 2000)} / ${ms(inv.xlsxMs, 0)} / ${ms(inv.pdfMs, 0)}` : 'not measured'} | create < 2 s |`,
  );
  lines.push(`| Server peak RSS during the large bench | ${f.rssMB == null ? 'not measured' : `${round(f.rssMB, 0)} MB — ${status(f.rssMB < 1024)}`} | < 1 GB |`);
  lines.push('', ...(f.notes.length ? ['Notes from this run:', '', ...f.notes.map((n) => `- ${n}`), ''] : []), LARGE.end);
  return lines.join('\n');
}
