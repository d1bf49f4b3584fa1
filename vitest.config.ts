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
      { extends: true, test: { name: 'pglite', include: ['src/**/*.test.{ts,tsx}', 'bench/**/*.test.ts'], env: { TEST_DB_KIND: 'pglite' } } },
      ...pgProject,
    ],
  },
});
