import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './client';

/**
 * Generated files never drift (docs/product/platform.md §3): drizzle-kit, run on a copy of the committed
 * migrations, must find nothing to add. A schema edit without `npm run db:generate` fails here.
 */
describe('SQL migrations', () => {
  it('match the Drizzle schema', () => {
    // drizzle-kit reads --out relative to the working directory, so the copy lives in .tmp/.
    const out = path.relative(process.cwd(), mkdtempSync(path.resolve('.tmp/migrations-check-')));
    try {
      cpSync(migrationsFolder, out, { recursive: true });
      const before = readdirSync(out).filter((f) => f.endsWith('.sql'));
      const output = execFileSync(
        process.execPath,
        [path.resolve('node_modules/drizzle-kit/bin.cjs'), 'generate', '--dialect', 'postgresql', '--schema', 'src/server/db/schema/index.ts', '--out', out],
        { stdio: 'pipe', encoding: 'utf8' },
      );
      // drizzle-kit exits 0 even when it fails to read the folder, so insist on its verdict too.
      expect(output).toContain('No schema changes');
      const after = readdirSync(out).filter((f) => f.endsWith('.sql'));
      expect(after, 'the schema changed without a migration: run npm run db:generate').toEqual(before);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
