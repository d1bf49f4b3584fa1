import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../db/client';
import { seedDemo } from '../db/seed/seed';

/**
 * Runs once before all test files: migrates and seeds a template database, so that each test
 * file starts from its own copy in a fraction of the time (STACK-NOTES: PGlite dumps, and
 * PostgreSQL's CREATE DATABASE … TEMPLATE).
 */
export const TEMPLATE_DIR = path.resolve('.tmp');
export const PGLITE_TEMPLATE = path.join(TEMPLATE_DIR, 'pglite-template.tar.gz');
export const PG_TEMPLATE_DB = 'linecrew_template';

export default async function setup() {
  mkdirSync(TEMPLATE_DIR, { recursive: true });
  const lite = await openDatabase({});
  await lite.migrate();
  await seedDemo({ db: lite.db });
  // PGlite's dump API lives on the client, which drizzle keeps as $client.
  const client = (lite.db as unknown as { $client: { dumpDataDir(c: 'gzip'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('gzip');
  writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  await lite.close();

  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${PG_TEMPLATE_DB} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${PG_TEMPLATE_DB}`);
    await admin.end();
    const tpl = await openDatabase({ databaseUrl: withDatabase(url, PG_TEMPLATE_DB), poolSize: 1 });
    await tpl.migrate();
    await seedDemo({ db: tpl.db });
    await tpl.close();
  }
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
