/**
 * What migration 0034's write stamps (decision 062) add to one write at ten years' size: a task's
 * quantity changed and a ticket completed or reopened on the big job, each timed with the stamp
 * triggers enabled and disabled in turn (blocks of 5: A B A B …, same connection, same load), medians.
 * Works on a kept copy of the large data (--db NAME, made with CREATE DATABASE … TEMPLATE
 * linecrew_bench_template_large; migrated by bench/profile-large.ts or explain-large.ts first).
 * Leaves the triggers enabled.
 *
 *   BENCH_DATABASE_URL=postgres://… flock /work/bench.lock npx tsx bench/stamp-cost-large.ts --db NAME [--runs 20]
 */
import pg from 'pg';
import { benchTarget, median, parseArgs, readManifest, withDatabase } from './lib/common';

const args = parseArgs(process.argv.slice(2));
const runs = Number(args.runs ?? 20);

/** The stamp triggers of migration 0034, per table. */
const STAMPS: Record<string, string[]> = {
  job_dashboard: ['job_dashboard_stamp_ins', 'job_dashboard_stamp_upd', 'job_dashboard_stamp_del'],
  job_ticket_days: ['job_ticket_days_stamp_ins', 'job_ticket_days_stamp_upd', 'job_ticket_days_stamp_del'],
  job_figures: ['job_figures_stamp_ins', 'job_figures_stamp_upd', 'job_figures_stamp_del'],
  company_unit_weeks: ['company_unit_weeks_stamp_ins', 'company_unit_weeks_stamp_upd', 'company_unit_weeks_stamp_del'],
};

async function main() {
  const t = benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no large data');
  if (typeof args.db !== 'string' || args.db === t.templateDb) throw new Error('--db names your own copy of the large data');
  const c = new pg.Client({ connectionString: withDatabase(t.adminUrl!, args.db) });
  await c.connect();
  const toggle = async (on: boolean) => {
    for (const [table, names] of Object.entries(STAMPS)) for (const n of names) await c.query(`ALTER TABLE ${table} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${n}`);
  };
  try {
    const { rows } = await c.query<{ id: number; ticket_id: number }>(
      `select tt.id, tt.ticket_id from ticket_tasks tt join tickets t on t.id = tt.ticket_id where t.job_id = $1 and t.actual_completion_date is null limit 1`,
      [m.bigJobId],
    );
    const task = rows[0]!;
    const writes: [string, string][] = [
      ['a task quantity changed', `update ticket_tasks set additional_qty = additional_qty + 1 where id = ${task.id}`],
      ['a ticket completed or reopened, in turn', `update tickets set actual_completion_date = case when actual_completion_date is null then now() end where id = ${task.ticket_id}`],
    ];
    for (const [name, q] of writes) {
      const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
      // Blocks of 5 (after one untimed write: a toggle re-plans the trigger functions' statements).
      for (let i = 0; i < Math.ceil(runs / 5) * 2; i++) {
        const on = i % 2 === 0;
        await toggle(on);
        await c.query(q);
        for (let k = 0; k < 5; k++) {
          const t0 = performance.now();
          await c.query(q);
          times[on ? 'on' : 'off'].push(performance.now() - t0);
        }
      }
      console.log(`${name}: stamps on ${median(times.on).toFixed(2)} ms, off ${median(times.off).toFixed(2)} ms (medians of ${times.on.length} each, blocks of 5 alternated)`);
    }
  } finally {
    await toggle(true);
    await c.end();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
