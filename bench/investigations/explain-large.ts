/**
 * The plans behind `npm run bench -- --scale large` (decision 054): each measured route's
 * statements, captured from one request in process, run again under EXPLAIN (ANALYZE, BUFFERS)
 * on a copy of the large data with this commit's migrations.
 *
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/investigations/explain-large.ts > plans.txt
 *   … bench/investigations/explain-large.ts --db NAME [--only work,job]   on a copy of your own (kept: neither made
 *                                                         nor dropped here; migrated), some routes
 */
import path from 'node:path';
import pg from 'pg';
import { and, eq, sql } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { openDatabase } from '../../src/server/db/client';
import { users } from '../../src/server/db/schema/index';
import { createMailer } from '../../src/server/mail/mailer';
import { hashPassword } from '../../src/server/modules/auth/passwords';
import { createStorage } from '../../src/server/storage/create';
import { BENCH_PASSWORD, JWT_SECRET, benchTarget, parseArgs, readManifest, withDatabase } from '../lib/common';
import { capture } from '../lib/sql';

const args = parseArgs(process.argv.slice(2));
const OWN_DB = typeof args.db === 'string' ? args.db : undefined;
const EXPLAIN_DB = OWN_DB ?? 'linecrew_bench_explain_large';
const ONLY = typeof args.only === 'string' ? new Set(args.only.split(',')) : null;

async function main() {
  const t = benchTarget('postgres', false, true);
  const m = readManifest(t);
  if (!m) throw new Error('no large data: run `npm run bench:data -- --scale large` first');
  if (EXPLAIN_DB === t.templateDb) throw new Error('--db names a copy, never the template');
  const admin = new pg.Client({ connectionString: t.adminUrl });
  await admin.connect();
  if (!OWN_DB) {
    await admin.query(`DROP DATABASE IF EXISTS ${EXPLAIN_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${EXPLAIN_DB} TEMPLATE ${t.templateDb}`);
  }
  const url = withDatabase(t.adminUrl!, EXPLAIN_DB);
  const database = await openDatabase({ databaseUrl: url });
  try {
    await database.migrate();
    await database.db.execute(sql`ANALYZE`);
    const { rows } = (await database.db.execute(sql`
      select u.email, count(*)::int as open from tickets t join jobs j on j.id = t.job_id and j.company_id = t.company_id
      join users u on u.id = j.foreman_id where t.company_id = ${m.companyId} and t.actual_completion_date is null
      group by u.email order by abs(count(*) - 2000), u.email limit 1`)) as unknown as { rows: { email: string; open: number }[] };
    const fm = rows[0];
    await database.db.update(users).set({ passwordHash: await hashPassword(BENCH_PASSWORD) }).where(and(eq(users.companyId, m.companyId), eq(users.email, fm.email)));
    const config = loadConfig({ NODE_ENV: 'production', DATA_DIR: path.join(t.runDir, 'explain'), DATABASE_URL: url, JWT_SECRET, LOG_LEVEL: 'error' });
    const app = await buildApp({ db: database.db, config, mail: createMailer({ outboxDir: path.join(t.runDir, 'explain-outbox'), from: config.mailFrom }), storage: await createStorage(config), logger: false });
    await app.ready();
    const login = async (email: string) => (await app.inject({ method: 'POST', url: '/api/v1/crew/login', payload: { email, password: BENCH_PASSWORD } })).json().token as string;
    const tokens = { admin: await login(m.adminEmail), foreman: await login(fm.email) };
    const routes: [string, string, string, 'admin' | 'foreman'][] = [
      ['jobs', 'GET /jobs?limit=50', '/api/v1/jobs?limit=50', 'admin'],
      ['search', 'GET /jobs?limit=50&q=0999', '/api/v1/jobs?limit=50&q=0999', 'admin'],
      ['dashboard', 'GET /dashboard', '/api/v1/dashboard', 'admin'],
      ['work', `GET /work (${fm.email}, ${fm.open} open tickets)`, '/api/v1/work', 'foreman'],
      ['production', 'GET /jobs/{5,000-ticket job}/production', `/api/v1/jobs/${m.bigJobId}/production`, 'admin'],
      ['job', 'GET /jobs/{5,000-ticket job}', `/api/v1/jobs/${m.bigJobId}`, 'admin'],
    ];
    const client = (database.db as unknown as { $client: pg.Pool }).$client;
    for (const [key, name, route, as] of routes) {
      if (ONLY && !ONLY.has(key)) continue;
      const get = () => app.inject({ method: 'GET', url: route, headers: { authorization: `Bearer ${tokens[as]}` } });
      const first = await get();
      const body = first.body.trimStart();
      if (first.statusCode !== 200 || (route.includes('limit=') && body.startsWith('['))) {
        console.log(`\n## ${name}\n\nnot explained: ${first.statusCode === 200 ? 'the paged list is not in this build' : first.statusCode}`);
        continue;
      }
      const { statements } = await capture(get);
      console.log(`\n## ${name}: ${statements.length} statements (the first is the session check)`);
      for (const s of statements.slice(1)) {
        if (/^\s*(begin|commit|rollback)/i.test(s.query)) continue;
        const plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${s.query}`, s.params as unknown[])).rows.map((r: Record<string, string>) => r['QUERY PLAN']);
        console.log(`\n\`\`\`sql\n${s.query.replace(/\s+/g, ' ').slice(0, 600)}\n\`\`\`\n\`\`\`\n${plan.join('\n')}\n\`\`\``);
      }
    }
    await app.close();
  } finally {
    await database.close();
    if (!OWN_DB) await admin.query(`DROP DATABASE IF EXISTS ${EXPLAIN_DB} WITH (FORCE)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
