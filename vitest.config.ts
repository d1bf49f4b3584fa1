import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// API tests run against PGlite always, and against the PostgreSQL server of TEST_DATABASE_URL
// too when it is set (CI). Unit tests of src/shared and src/web run once.
//
// Only server tests that reach a database run twice: those that build an app (test/harness),
// open a database, start the server process or read which database is in use. The others
// (workbook parsers, signing, the ZIP writer, S3 storage, the migrations drift check) do the same
// work whichever database the project names; repeating them in "postgres" cost ~40 s of a CI run
// and proved nothing more.
const usesDatabase = /test\/harness|openDatabase|server-process|TEST_DB_KIND|TEST_DATABASE_URL/;
const databaseTests = () =>
  readdirSync('src/server', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `src/server/${f.replaceAll('\\', '/')}`)
    .filter((f) => usesDatabase.test(readFileSync(f, 'utf8')));
// CI's second pass on the current Node LTS (.ci/run, TEST_NODE_LTS=1): what can differ between
// Node versions is Node's own part — HTTP parsing, streams, zlib, crypto, fetch, worker threads,
// child processes, Intl time zones, sockets — and the libraries over it. So that pass runs every
// test that reaches no database, and of those that do, the files that drive those parts end to
// end. The other API files exercise our rules and SQL through the same layers and were already
// run on Node 20; running them all again cost ~7 of CI's minutes (decision 057).
const NODE_LTS_API = [
  'hostile-input', // Node's HTTP parser: NUL bytes, huge bodies, bad encodings
  'auth.api', 'sessions.api', 'api-tokens.api', // crypto: password hashes, signed sessions, tokens
  'uploads.api', 'images.api', 'file-kinds.api', // multipart streams, sharp
  'exports.api', 'map-exports.api', 'invoice-files.api', 'invoices/evidence.api', // streams, PDF, ZIP (zlib.crc32)
  'compression.api', 'web-static', 'security-headers', // zlib brotli/gzip, static files, headers
  'webhooks.api', 'mailer.smtp', // fetch (undici) and HMAC, an SMTP socket
  'real-files.api', 'staged-import.api', 'reimport.api', // workbooks in a worker thread
  'digest.api', // Intl time zones (ICU ships with Node)
  'shutdown', 'scale-out', 'backup', // child processes, signals, files
  'jobs.api', 'tickets.api', 'idempotency.api', // the two busiest areas, and replays
];
const nodeLtsPass = process.env.TEST_NODE_LTS === '1';
const pgliteInclude = () => {
  if (!nodeLtsPass) return ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'];
  const picked = new RegExp(`/(${NODE_LTS_API.map((n) => n.replaceAll('.', '\\.')).join('|')})\\.test\\.ts$`);
  const db = new Set(databaseTests());
  return [
    ...readdirSync('src', { recursive: true, encoding: 'utf8' })
      .map((f) => `src/${f.replaceAll('\\', '/')}`)
      .filter((f) => /\.test\.tsx?$/.test(f) && (!db.has(f) || picked.test(f))),
    'bench/**/*.test.ts',
  ];
};
const pgProject = process.env.TEST_DATABASE_URL
  ? [{ extends: true as const, test: { name: 'postgres', include: databaseTests(), env: { TEST_DB_KIND: 'postgres' } } }]
  : [];

export default defineConfig({
  test: {
    globalSetup: ['src/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Test files share their worker's loaded modules: each file no longer pays ~1.5 s of loading
    // Fastify, drizzle and PGlite again (3 m 24 s → 2 m 14 s for the PGlite project on 2 cores).
    // Safe because no test relies on a fresh module: each test file builds its own app
    // (createTestApp), and configuration is read from the options passed, not module state.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'pglite', include: pgliteInclude(), env: { TEST_DB_KIND: 'pglite' } } },
      ...pgProject,
    ],
  },
});
