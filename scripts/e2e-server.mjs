// The server the browser tests talk to: a fresh data folder, seeded demo data, fixed secret.
import { rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// One folder per port, so that two runs on different E2E_PORTs never share data.
const dataDir = path.join(root, `.tmp/e2e-data-${process.env.E2E_PORT ?? '3210'}`);
rmSync(dataDir, { recursive: true, force: true });
const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: process.env.E2E_PORT ?? '3210',
    SEED_DEMO: '1',
    // The browser tests count the mail sent to an address: no digest among them.
    DAILY_DIGEST: '0',
    JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    // The webhooks journey (e2e/webhooks.spec.ts) delivers to a receiver on loopback; these
    // machines resolve no public name, so private addresses are allowed here only (decision 050).
    WEBHOOKS_ALLOW_PRIVATE: '1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
