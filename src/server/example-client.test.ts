import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from './test/harness';
import { ROOT, startServer, type ServerProcess } from './test/server-process';

/**
 * The walkthrough of docs/api.md, run as an integrator runs it (issue 32 "tests that prove it"):
 * a real server started as `npm start` starts it (its own data folder, the demo seeded), types
 * generated from its /api/docs/json by openapi-typescript, examples/api-client.ts compiled with
 * them by tsc (no hand-written type), then exactly the client's calls over real HTTP.
 * The server uses its embedded database, so the run is the same in both test projects: once.
 */
/** What an Admin does on the API tokens page: sign in, make a token, copy the secret. */
async function createToken(origin: string, email: string, password: string): Promise<string> {
  const login = await fetch(`${origin}/api/v1/crew/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const { token: session } = (await login.json()) as { token: string };
  const res = await fetch(`${origin}/api/v1/api-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ name: 'Example client', role_id: 2 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { secret: string }).secret;
}

/**
 * The client's types exist only once generated from a running server (the first test), so the
 * project's own typecheck does not load it: it is imported by path, after tsc has checked it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
const CLIENT = path.join(ROOT, 'examples/api-client.ts');

describe.skipIf(dbKind === 'postgres')('the example client of docs/api.md', () => {
  let server: ServerProcess;
  let dataDir: string;
  let lc: { baseUrl: string; token: string };
  let client: Record<string, (...args: Loose[]) => Promise<Loose>> & { LinecrewError: new (...args: Loose[]) => Error };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-example-'));
    server = await startServer({ env: { DATA_DIR: dataDir, SEED_DEMO: '1', JWT_SECRET: 'example-client-secret-example-client-secret', DATABASE_URL: '' }, timeoutMs: 280_000 });
    await server.ready;
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('compiles against types generated from the server’s OpenAPI document', async () => {
    const out = path.join(ROOT, 'examples/generated/linecrew-api.d.ts');
    const gen = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'), `${server.origin}/api/docs/json`, '-o', out], { encoding: 'utf8' });
    expect(gen.status, gen.stderr).toBe(0);
    const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'examples/tsconfig.json')], { encoding: 'utf8' });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
    client = await import(/* @vite-ignore */ CLIENT);
  }, 120_000);

  it('signs in with an API token, uploads the packet, creates a job with tickets', async () => {
    // Step 1 happens on the API tokens page: an Admin makes a token for the system.
    lc = { baseUrl: server.origin, token: await createToken(server.origin, 'admin@example.com', 'linecrew') };
    expect(lc.token).toMatch(/^lc_/);

    const packetUrl = await client.uploadWorkPacket(lc, 'packet.pdf', new Blob([Buffer.from('%PDF-1.4 example packet')], { type: 'application/pdf' }));
    expect(packetUrl).toMatch(/^\/files\/\d+\/work_packet\//);

    const job = await client.createJob(lc, 'EX-1', 'NGRID', packetUrl, 'create-EX-1');
    expect(job).toMatchObject({ job_number: 'EX-1', ticket_count: 2 });
    // The same request again (a retry after a timeout) creates nothing more: same job, replayed.
    expect((await client.createJob(lc, 'EX-1', 'NGRID', packetUrl, 'create-EX-1')).id).toBe(job.id);
  });

  it('changes one task once with an Idempotency-Key, refuses a stale version, and production shows it', async () => {
    const { data: jobs } = await client.call(lc, 'get', '/api/v1/jobs');
    const job = jobs.find((j: { job_number: string }) => j.job_number === 'EX-1')!;
    const [ticket, other] = await client.ticketsOf(lc, job.id);
    const task = ticket.tasks[0];

    const first = await client.setTaskChange(lc, ticket.id, task.ticket_task_id, ticket.version, 1, 'task-change-1');
    expect(first.replayed).toBe(false);
    expect(first.data.ticket.tasks[0].additional_qty).toBe(1);
    const again = await client.setTaskChange(lc, ticket.id, task.ticket_task_id, ticket.version, 1, 'task-change-1');
    expect(again.replayed).toBe(true);
    expect(again.data.ticket.version).toBe(first.data.ticket.version);

    // A new change sent with the version read before the first one: someone saved since.
    const stale = await client.setTaskChange(lc, ticket.id, task.ticket_task_id, ticket.version, 5, 'task-change-2').catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(client.LinecrewError);
    expect((stale as { status: number }).status).toBe(409);

    // The other ticket's tasks were not touched.
    expect((await client.ticketsOf(lc, job.id))[1].tasks).toEqual(other.tasks);

    const prod = await client.production(lc, job.id);
    const unit = prod.units.find((u: { code: string }) => u.code === 'XARM-8')!;
    expect(unit).toMatchObject({ bid_qty: 3, actual_qty: 4 });
  });
});
