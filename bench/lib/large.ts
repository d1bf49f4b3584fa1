import { mkdirSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DEFAULT_ROLE_NAMES, ROLE } from '../../src/shared/constants';
import { openDatabase } from '../../src/server/db/client';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { BENCH_ADMIN, BENCH_PASSWORD, resetTemplate, type Manifest, type Target } from './common';

/**
 * `npm run bench:data -- --scale large` (docs/product/scale.md §1, decision 054): ten years of one
 * contractor's work in the bench company, bulk-loaded on PostgreSQL in a few statements of
 * INSERT … SELECT over generate_series (no pg-copy-streams in node_modules; a server-side
 * INSERT … SELECT moves no bytes through the client at all, which is what COPY would buy).
 *
 * The schema comes from the app's own migrations; rows are written with
 * `session_replication_role = replica`, so the foreign-key and "touch the ticket" triggers are
 * skipped: the rows are consistent by construction (explicit ids, every reference made from the
 * rows just written), and the triggers would turn 4,000,000 task rows into 4,000,000 ticket
 * updates. Then VACUUM ANALYZE, as a database after ten years of autovacuum would be.
 *
 * Shape (decision 054): 100,000 jobs over ten years (oldest first), sizes 1 to 5,000 tickets
 * (heavy-tailed, 20 of exactly 5,000), ~1,000,000 tickets of 4 tasks, 1 work order and 1 pole
 * each, a note on every 5th; 80 % complete: the newest jobs hold the open work (a job's open share
 * falls linearly from 100 % for the newest to 0 % once 400,000 newer tickets come before it, so
 * 200,000 stay open). Completed work is invoiced except the last few months'. 1,000,000 photo
 * rows without files (one per completed ticket, two on every 4th). 2,000 crew: 100 foremen (jobs
 * dealt round-robin: ~2,000 open tickets each), 400 working foremen, 1,000 linemen, 500
 * apprentices. 5 utilities of 500 units each, every other unit priced.
 */

export const LARGE = {
  jobs: 100_000,
  tickets: 1_000_000,
  bigJobs: 20,
  bigJobTickets: 5_000,
  /** Tickets of the newest jobs over which the open share falls from 100 % to 0 %: half of them stay open. */
  openWindow: 400_000,
  foremen: 100,
  workingForemen: 400,
  linemen: 1_000,
  apprentices: 500,
  utilities: ['NGRID', 'EVERSOURCE', 'UNITIL', 'CMP', 'VERSANT'],
  unitsPerUtility: 500,
};

/** Deterministic PRNG (mulberry32): the same data on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Tickets per job, oldest job first: most jobs a handful of poles, a long tail up to 5,000; the
 * 20 big jobs spread evenly over the ten years (the newest one still in progress). The sizes
 * are nudged at random until they sum to exactly LARGE.tickets.
 */
export function jobSizes(): { sizes: number[]; big: number[]; sized: Record<string, number> } {
  const r = rng(33);
  const sizes = Array.from({ length: LARGE.jobs }, () => {
    const u = r();
    if (u < 0.75) return 1 + Math.floor(r() * 4);
    if (u < 0.97) return 5 + Math.floor(r() * 16);
    if (u < 0.997) return 21 + Math.floor(r() * 180);
    return 201 + Math.floor(r() * 1800);
  });
  const big: number[] = [];
  for (let b = 0; b < LARGE.bigJobs; b++) {
    // Index in oldest-first order; the last lands among the newest jobs (open work).
    const i = Math.floor(((b + 1) * LARGE.jobs) / LARGE.bigJobs) - 1 - 200;
    big.push(i);
    sizes[i] = LARGE.bigJobTickets;
  }
  const fixed = new Set(big);
  // Jobs of exactly 10 and 100 tickets, for the statements-per-request check.
  const sized: Record<string, number> = { '10': LARGE.jobs - 50, '100': LARGE.jobs - 60 };
  sizes[sized['10']] = 10;
  sizes[sized['100']] = 100;
  fixed.add(sized['10']).add(sized['100']);
  let total = sizes.reduce((a, b) => a + b, 0);
  while (total !== LARGE.tickets) {
    const i = Math.floor(r() * LARGE.jobs);
    if (fixed.has(i)) continue;
    const step = total > LARGE.tickets ? -1 : 1;
    const cap = Math.abs(total - LARGE.tickets) > 1000 ? Math.min(Math.abs(total - LARGE.tickets), Math.max(1, Math.floor(sizes[i] / 2))) : 1;
    const next = sizes[i] + step * cap;
    if (next < 1 || next > 2000) continue;
    total += next - sizes[i];
    sizes[i] = next;
  }
  return { sizes, big, sized };
}

export async function generateLargeData(t: Target, log: (m: string) => void): Promise<Manifest> {
  if (t.kind !== 'postgres' || !t.templateUrl) throw new Error('--scale large is for PostgreSQL: set BENCH_DATABASE_URL');
  const started = performance.now();
  await resetTemplate(t);
  mkdirSync(t.templateDir, { recursive: true });
  // The schema: the app's own migrations, as the server applies them.
  const database = await openDatabase({ databaseUrl: t.templateUrl });
  await database.migrate();
  await database.close();

  const c = new pg.Client({ connectionString: t.templateUrl });
  await c.connect();
  const step = async (what: string, text: string, values: unknown[] = []) => {
    const t0 = performance.now();
    const r = await c.query(text, values);
    log(`  ${what}: ${r.rowCount ?? ''} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return r;
  };
  try {
    await c.query(`SET session_replication_role = replica`);
    await c.query(`SET maintenance_work_mem = '512MB'`);
    await c.query(`SET work_mem = '256MB'`);
    const one = async <T>(text: string, values: unknown[] = []) => (await c.query(text, values)).rows[0] as T;
    // The big tables' secondary indexes are dropped while they fill and built again after, in
    // one sort each: several times faster than a million index insertions (constraints stay).
    const bulkTables = ['poles', 'tickets', 'ticket_tasks', 'work_orders', 'notes', 'images', 'billed_tickets', 'invoices'];
    const dropped = (
      await c.query<{ indexname: string; indexdef: string }>(
        `SELECT i.indexname, i.indexdef FROM pg_indexes i
         WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
           AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)`,
        [bulkTables],
      )
    ).rows;
    for (const d of dropped) await c.query(`DROP INDEX ${d.indexname}`);

    // The company, its roles and its first admin.
    const { id: companyId } = await one<{ id: number }>(`INSERT INTO companies (name) VALUES ('Bench Line Co') RETURNING id`);
    for (const [roleId, name] of Object.entries(DEFAULT_ROLE_NAMES)) {
      await c.query(`INSERT INTO company_roles (company_id, role_id, display_role_name) VALUES ($1, $2, $3)`, [companyId, Number(roleId), name]);
    }
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const { id: adminUserId } = await one<{ id: number }>(
      `INSERT INTO users (company_id, role_id, first_name, last_name, email, password_hash) VALUES ($1, $2, 'Bench', 'Admin', $3, $4) RETURNING id`,
      [companyId, ROLE.ADMIN, BENCH_ADMIN, passwordHash],
    );

    // Crew: foremen first (ids contiguous from fBase), then their crews.
    const fBase = Number((await one<{ n: string }>(`SELECT coalesce(max(id), 0) + 1 AS n FROM users`)).n);
    await step(
      'foremen',
      `INSERT INTO users (id, company_id, role_id, first_name, last_name, email, phone_number, crew_status)
       SELECT $1::int + g - 1, $2, $3, 'Foreman', 'No' || g, 'bench-foreman' || g || '@example.com', '6175550000', 1 FROM generate_series(1, $4::int) g`,
      [fBase, companyId, ROLE.FOREMAN, LARGE.foremen],
    );
    let next = fBase + LARGE.foremen;
    const wfBase = next;
    for (const [role, name, count] of [
      [ROLE.WORKING_FOREMAN, 'Working', LARGE.workingForemen],
      [ROLE.LINEMAN, 'Lineman', LARGE.linemen],
      [ROLE.APPRENTICE, 'Apprentice', LARGE.apprentices],
    ] as const) {
      await step(
        `${name} crew`,
        `INSERT INTO users (id, company_id, role_id, first_name, last_name, email, crew_status, foreman_id)
         SELECT $1::int + g - 1, $2, $3, $4::text, 'No' || g, 'bench-' || lower($4::text) || g || '@example.com',
           CASE WHEN g % 10 = 0 THEN 2 ELSE 1 END, $5::int + (g % $6::int)
         FROM generate_series(1, $7::int) g`,
        [next, companyId, role, name, fBase, LARGE.foremen, count],
      );
      next += count;
    }
    await c.query(`SELECT setval(pg_get_serial_sequence('users', 'id'), (SELECT max(id) FROM users))`);

    // Utilities and their unit libraries (every other unit priced).
    const utilityIds: number[] = [];
    for (const code of LARGE.utilities) {
      utilityIds.push((await one<{ id: number }>(`INSERT INTO utilities (company_id, code) VALUES ($1, $2) RETURNING id`, [companyId, code])).id);
    }
    await step(
      'units',
      `INSERT INTO units (company_id, utility_id, code, description, family, type, action, uom, unit_price)
       SELECT $1::int, u, 'BU-' || lpad(g::text, 3, '0'), 'Bench unit ' || g,
         (ARRAY['Poles','Framing','Guying','Transformers','Conductor','Protection','Grounding','Clearing'])[1 + g % 8],
         CASE WHEN g % 3 = 0 THEN 'Labor' ELSE 'Material' END, (ARRAY['Install','Remove','Transfer'])[1 + g % 3],
         CASE WHEN g % 9 = 0 THEN 'FT' ELSE 'EA' END, CASE WHEN g % 2 = 0 THEN ((g % 40) + 1) * 1.25 END
       FROM unnest($2::int[]) u, generate_series(1, $3::int) g ORDER BY u, g`,
      [companyId, utilityIds, LARGE.unitsPerUtility],
    );

    // The plan: one row per job (oldest first) with its size and how many newer tickets come after it.
    const { sizes, big, sized } = jobSizes();
    const jBase = Number((await one<{ n: string }>(`SELECT coalesce(max(id), 0) + 1 AS n FROM jobs`)).n);
    await c.query(`CREATE TEMP TABLE plan_jobs (ord int PRIMARY KEY, job_id int, n int, first_ord bigint, newer bigint)`);
    await step(
      'plan of jobs',
      `INSERT INTO plan_jobs
       SELECT ord, $1::int + ord - 1, n, sum(n) OVER (ORDER BY ord) - n + 1, sum(n) OVER (ORDER BY ord DESC) - n
       FROM unnest($2::int[]) WITH ORDINALITY AS s(n, ord)`,
      [jBase, sizes],
    );
    // Ten years, oldest first; the newest job was made yesterday.
    const packet = `${companyId}/work_packet/00000000-0000-4000-8000-000000000000/packet.pdf`;
    await step(
      'jobs',
      `INSERT INTO jobs (id, company_id, job_number, job_type, created_by, foreman_id, due_date, utility_id, work_packet_url,
         work_packet_name, work_packet_size, work_packet_type, hospital_name, hospital_address, created_at, updated_at)
       SELECT p.job_id, $1, CASE WHEN p.n = ${LARGE.bigJobTickets} THEN 'BIG-' ELSE 'J-' END || lpad(p.ord::text, 6, '0'),
         CASE WHEN p.ord % 10 = 0 THEN 1 ELSE 0 END, $2, $3::int + ((p.ord + p.ord / 1000) % $4::int),
         (x.made + interval '90 days')::date, ($5::int[])[1 + p.ord % ${LARGE.utilities.length}], $6, 'packet.pdf', 36, 'application/pdf',
         'Baystate Medical Center', '759 Chestnut St, Springfield MA', x.made, x.made
       FROM plan_jobs p CROSS JOIN LATERAL (SELECT now() - interval '1 day' - (($7::int - p.ord) * interval '1 hour' * 0.876) AS made) x`,
      [companyId, adminUserId, fBase, LARGE.foremen, utilityIds, packet, LARGE.jobs],
    );
    await c.query(`SELECT setval(pg_get_serial_sequence('jobs', 'id'), (SELECT max(id) FROM jobs))`);

    // One row per ticket: its job, place in the job, and state. A job's first tickets are done
    // first; its open share falls linearly with the tickets newer than it (see the header).
    const tBase = Number((await one<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM tickets`)).n);
    const pBase = Number((await one<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM poles`)).n);
    await c.query(`CREATE TEMP TABLE plan_tickets (ord bigint, job_ord int, job_id int, k int, utility_id int, made timestamptz, due date,
      foreman_id int, done timestamptz, billed boolean)`);
    await step(
      'plan of tickets',
      `INSERT INTO plan_tickets
       SELECT p.first_ord + k - 1, p.ord, p.job_id, k, j.utility_id, j.created_at, j.due_date, j.foreman_id,
         CASE WHEN k > round(p.n * least(1, p.newer::numeric / $1)) THEN NULL
              -- open work's done tickets: the last 12 weeks (the dashboard's chart); older jobs' in their first months
              WHEN p.newer < $1 THEN greatest(j.created_at + interval '1 hour', now() - ((p.first_ord + k) % 2016) * interval '1 hour')
              ELSE j.created_at + ((k % 60) + 1) * interval '1 day' END,
         -- invoiced: all but the last few months' completed work, and progress-billed halfway through the open window
         (p.newer >= $1 + 50000 OR (p.newer >= $1 / 2 AND p.newer < $1))
       FROM plan_jobs p JOIN jobs j ON j.id = p.job_id, generate_series(1, p.n) k`,
      [LARGE.openWindow],
    );
    await c.query(`UPDATE plan_tickets SET billed = false WHERE done IS NULL`);
    await c.query(`UPDATE plan_tickets SET done = least(done, now() - interval '1 hour') WHERE done > now()`);
    await step(
      'poles',
      `INSERT INTO poles (id, company_id, utility_id, pole_id, pole_name, line_name, line_id, street_address, geo_lat, geo_lon,
         primary_voltage, secondary_voltage, arc_rating, import_job_id)
       SELECT $1::bigint + ord, $2, utility_id, 'PID-' || ord, 'P' || (1000 + k), 'L' || job_ord || '-' || (1 + k / 40), 'LID-' || job_ord || '-' || (1 + k / 40),
         (10 + k % 900) || ' Main St, Springfield MA',
         CASE WHEN k % 7 = 6 THEN NULL ELSE round((42.0 + (ord % 5000) / 10000.0)::numeric, 6) END,
         CASE WHEN k % 7 = 6 THEN NULL ELSE round((-72.5 - (ord % 4999) / 10000.0)::numeric, 6) END,
         '13.8 kV', '240 V', '8 cal/cm²', job_id
       FROM plan_tickets`,
      [pBase, companyId],
    );
    await c.query(`SELECT setval(pg_get_serial_sequence('poles', 'id'), (SELECT max(id) FROM poles))`);
    await step(
      'tickets',
      `INSERT INTO tickets (id, company_id, job_id, pole_id, due_date, created_date, actual_completion_date, assigned_to, street_address,
         geo_lat, geo_lon, description, dig_safe_required, nra_required, billed_at)
       SELECT $1::bigint + ord, $2, job_id, $3::bigint + ord, due, made, done,
         CASE WHEN k % 4 = 3 THEN NULL ELSE $4::int + ((foreman_id - $5::int) + $6::int * (k % 4)) % $7::int END,
         (10 + k % 900) || ' Main St, Springfield MA',
         CASE WHEN k % 7 = 6 THEN NULL ELSE round((42.0 + (ord % 5000) / 10000.0)::numeric, 6) END,
         CASE WHEN k % 7 = 6 THEN NULL ELSE round((-72.5 - (ord % 4999) / 10000.0)::numeric, 6) END,
         CASE WHEN k % 9 = 0 THEN 'Set new pole, transfer primary.' END,
         CASE WHEN k % 11 = 0 THEN 1 ELSE 0 END, CASE WHEN k % 13 = 0 THEN 1 ELSE 0 END,
         CASE WHEN billed THEN least(done + interval '30 days', now()) END
       FROM plan_tickets`,
      [tBase, companyId, pBase, wfBase, fBase, LARGE.foremen, LARGE.workingForemen],
    );
    await c.query(`SELECT setval(pg_get_serial_sequence('tickets', 'id'), (SELECT max(id) FROM tickets))`);
    // Each working foreman above belongs to the crew of the foreman whose jobs he works on.
    await c.query(`UPDATE users SET foreman_id = $1::int + ((id - $2::int) % $3::int) WHERE company_id = $4 AND role_id = $5`, [
      fBase,
      wfBase,
      LARGE.foremen,
      companyId,
      ROLE.WORKING_FOREMAN,
    ]);

    await step(
      'tasks',
      `INSERT INTO ticket_tasks (company_id, ticket_id, unit_id, init_qty, additional_qty, date_completed, created_at)
       SELECT $1::int, $2::bigint + p.ord, u.first + ((p.ord * 7 + g * 13) % $3::int), 1 + ((p.ord + g) % 5),
         CASE WHEN p.done IS NOT NULL AND (p.ord + g) % 10 = 0 THEN 1 ELSE 0 END, p.done, p.made
       FROM plan_tickets p
       JOIN (SELECT utility_id, min(id) AS first FROM units WHERE company_id = $1 GROUP BY utility_id) u ON u.utility_id = p.utility_id,
       generate_series(0, 3) g`,
      [companyId, tBase, LARGE.unitsPerUtility],
    );
    await step(
      'work orders',
      `INSERT INTO work_orders (company_id, ticket_id, work_order) SELECT $1::int, $2::bigint + ord, 'WO-' || (100000 + ord / 3) FROM plan_tickets`,
      [companyId, tBase],
    );
    await step(
      'notes',
      `INSERT INTO notes (company_id, ticket_id, author_id, note_text, created_date)
       SELECT $1::int, $2::bigint + ord, foreman_id, 'Crew on site, check guy anchor before setting.', made + interval '2 days'
       FROM plan_tickets WHERE ord % 5 = 0`,
      [companyId, tBase],
    );
    // Photo rows without files: one per completed ticket, a second on every 4th.
    await step(
      'images',
      `INSERT INTO images (company_id, ticket_id, url, thumbnail_url, uploaded_by, uploaded_at, taken_at, geo_lat, geo_lon)
       SELECT $1::int, $2::bigint + p.ord, '/files/' || $1::int || '/images/bench-' || p.ord || '-' || g || '.jpg',
         '/files/' || $1::int || '/images/bench-' || p.ord || '-' || g || '-thumb.jpg', p.foreman_id, p.done, p.done - interval '5 minutes',
         42.0 + (p.ord % 5000) / 10000.0, -72.5 - (p.ord % 4999) / 10000.0
       FROM plan_tickets p, generate_series(1, 2) g WHERE p.done IS NOT NULL AND (g = 1 OR p.ord % 4 = 0)`,
      [companyId, tBase],
    );

    // One invoice per job with billed work; its lines are not written (the bench reads no old
    // invoice's lines: decision 054).
    const iBase = Number((await one<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM invoices`)).n);
    await c.query(`CREATE TEMP TABLE plan_invoices AS
      SELECT job_ord, job_id, row_number() OVER (ORDER BY job_ord) AS n, max(done) AS through FROM plan_tickets WHERE billed GROUP BY job_ord, job_id`);
    await step(
      'invoices',
      `INSERT INTO invoices (id, company_id, job_id, number, currency, total, through_date, created_by, created_at)
       SELECT $1::bigint + n, $2::int, job_id, 'INV-' || lpad(n::text, 6, '0'), 'USD', 0, through::date, $3, least(through + interval '30 days', now())
       FROM plan_invoices`,
      [iBase, companyId, adminUserId],
    );
    await c.query(`SELECT setval(pg_get_serial_sequence('invoices', 'id'), (SELECT max(id) FROM invoices))`);
    await c.query(`UPDATE companies SET last_invoice_number = (SELECT count(*) FROM plan_invoices) WHERE id = $1`, [companyId]);
    await step(
      'billed tickets',
      `INSERT INTO billed_tickets (ticket_id, company_id, invoice_id)
       SELECT $1::bigint + t.ord, $2::int, $3::bigint + i.n FROM plan_tickets t JOIN plan_invoices i ON i.job_id = t.job_id WHERE t.billed`,
      [tBase, companyId, iBase],
    );
    await c.query(`UPDATE tickets t SET invoice_number = i.number FROM billed_tickets b JOIN invoices i ON i.id = b.invoice_id
      WHERE b.ticket_id = t.id AND t.company_id = $1`, [companyId]);
    await c.query(`SET session_replication_role = origin`);
    const t0 = performance.now();
    for (const d of dropped) await c.query(d.indexdef);
    log(`  ${dropped.length} indexes built again in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // Written with the triggers off: the figures they keep (migrations 0030 and 0032, decision 059)
    // are made once here, set-based, as those migrations' backfills make them.
    await step('kept production figures', `SELECT linecrew_kept_rebuild()`);
    await step('kept dashboard figures', `SELECT linecrew_dash_rebuild()`);
    await step('VACUUM ANALYZE', `VACUUM ANALYZE`);

    const count = async (table: string) => Number((await one<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE company_id = $1`, [companyId])).n);
    const counts = {
      jobs: await count('jobs'),
      tickets: await count('tickets'),
      openTickets: Number((await one<{ n: string }>(`SELECT count(*) AS n FROM tickets WHERE company_id = $1 AND actual_completion_date IS NULL`, [companyId])).n),
      tasks: await count('ticket_tasks'),
      notes: await count('notes'),
      workOrders: await count('work_orders'),
      images: await count('images'),
      poles: await count('poles'),
      units: await count('units'),
      invoices: await count('invoices'),
      billedTickets: await count('billed_tickets'),
      crew: (await count('users')) - 1,
    };
    const manifest: Manifest = {
      kind: 'postgres',
      createdAt: new Date().toISOString(),
      jobs: LARGE.jobs,
      bigJobTickets: LARGE.bigJobTickets,
      companyId,
      adminUserId,
      adminEmail: BENCH_ADMIN,
      utilityId: utilityIds[0],
      // The newest big job: in progress, as the one a crew and the office open all day.
      bigJobId: jBase + big[big.length - 1],
      sizedJobs: { '10': jBase + sized['10'], '100': jBase + sized['100'], [String(LARGE.bigJobTickets)]: jBase + big[big.length - 1] },
      workbook: { path: '', rows: 0, bytes: 0 },
      counts,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    return manifest;
  } finally {
    await c.end();
  }
}
