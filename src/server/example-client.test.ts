import { spawnSync } from 'node:child_process';
import type http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind } from './test/harness';
import { freePort, ROOT, startServer, type ServerProcess } from './test/server-process';

/**
 * The walkthrough of docs/api.md, run as an integrator runs it (docs/product/integrations.md, decision 052):
 * a real server started as `npm start` starts it (its own data folder, the demo seeded), types
 * generated from its /api/docs/json by openapi-typescript, examples/api-client.ts compiled with
 * them by tsc (no hand-written type), then exactly the client's calls over real HTTP.
 * The server uses its embedded database, so the run is the same in both test projects: once.
 */
/** What an Admin does on the API tokens page: sign in, make a token, copy the secret. */
async function createToken(origin: string, email: string, password: string, name = 'Example client', roleId = 2): Promise<string> {
  const login = await fetch(`${origin}/api/v1/crew/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const { token: session } = (await login.json()) as { token: string };
  const res = await fetch(`${origin}/api/v1/api-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ name, role_id: roleId }),
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
  let client: Record<string, (...args: Loose[]) => Loose> & { LinecrewError: new (...args: Loose[]) => Error };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'linecrew-example-'));
    // WEBHOOKS_ALLOW_PRIVATE: the receiver of step 6 listens on loopback (refused otherwise: SSRF).
    server = await startServer({
      env: { DATA_DIR: dataDir, SEED_DEMO: '1', JWT_SECRET: 'example-client-secret-example-client-secret', DATABASE_URL: '', WEBHOOKS_ALLOW_PRIVATE: '1' },
      timeoutMs: 280_000,
    });
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

  it('receives a webhook: registers an endpoint, a new job is delivered and its signature verifies; a tampered body does not', async () => {
    // Registering endpoints is an Admin's: a second token, at the Admin role, for the setup.
    const setup = { baseUrl: server.origin, token: await createToken(server.origin, 'admin@example.com', 'linecrew', 'Webhook setup', 1) };
    const got: { event: Loose; raw: { headers: http.IncomingHttpHeaders; body: string } }[] = [];
    // The endpoint's address first (the secret comes with its registration), then the receiver on it.
    const url = `http://127.0.0.1:${await freePort()}/linecrew`;
    const { secret } = await client.registerWebhook(setup, url, ['job.created']);
    expect(secret).toMatch(/^whsec_/);
    const receiver: http.Server = client.webhookReceiver(secret, (event: Loose, raw: Loose) => void got.push({ event, raw }));
    await new Promise<void>((resolve) => receiver.listen(Number(new URL(url).port), '127.0.0.1', resolve));
    try {
      const job = await client.createJob(lc, 'EX-2', 'NGRID', await client.uploadWorkPacket(lc, 'p2.pdf', new Blob([Buffer.from('%PDF-1.4 two')], { type: 'application/pdf' })), 'create-EX-2');
      await expect.poll(() => got.length, { timeout: 30_000, interval: 250 }).toBe(1);
      const [{ event, raw }] = got;
      expect(event).toMatchObject({ type: 'job.created', id: raw.headers['webhook-id'], data: { job_id: job.id, job_number: 'EX-2' } });
      expect(client.verifyWebhook(secret, raw.headers, raw.body)).toBe(true);

      // Tampered on the way (another job id), or signed with another secret: refused.
      const tampered = raw.body.replace(`"job_id":${job.id}`, `"job_id":${job.id + 1}`);
      expect(tampered).not.toBe(raw.body);
      expect(client.verifyWebhook(secret, raw.headers, tampered)).toBe(false);
      expect(client.verifyWebhook('whsec_' + Buffer.alloc(32, 7).toString('base64'), raw.headers, raw.body)).toBe(false);
      // …and the receiver answers 401 without handling it.
      const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(raw.headers[h])]));
      const forged = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: tampered });
      expect(forged.status).toBe(401);
      // The genuine request again (a retry): 204, handled once.
      const again = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: raw.body });
      expect(again.status).toBe(204);
      expect(got).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  }, 60_000);

  it("verifies as the Standard Webhooks reference does: the specification's test vector, a stale timestamp refused", () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
    expect(client.verifyWebhook(secret, headers, '{"test": 2432232314}', 1614265330_000)).toBe(true);
    expect(client.verifyWebhook(secret, headers, '{"test": 2432232315}', 1614265330_000)).toBe(false);
    expect(client.verifyWebhook(secret, headers, '{"test": 2432232314}', (1614265330 + 301) * 1000)).toBe(false);
  });
});
