import { get as httpGet } from 'node:http';
import { performance } from 'node:perf_hooks';
import { http, median, percentile, type Manifest } from '../lib/common';
import type { Phase1, RouteLoad } from './figures';
import { CONNECTIONS, REBUILT_ROUNDS } from './options';

/** Each ticket's current version from the server, so the next PUT of it is not stale. */
export async function rereadVersions(origin: string, token: string, tickets: { id: number; version: number }[]) {
  for (const tk of tickets) {
    const r = await http(origin, 'GET', `/api/v1/tickets/${tk.id}`, token);
    if (r.status === 200) tk.version = (r.json.ticket ?? r.json).version;
  }
}

/**
 * The big job's page read right after one of its tickets was saved (PUT /tickets/, as a crew
 * does), on the running server with its reply cache: alone (REBUILT_ROUNDS.one rounds), then with
 * CONNECTIONS clients reading at once after each save (they share one rebuild). Each read is timed
 * to its last byte, compressed as a browser asks. The saved tickets' versions are kept in
 * p1.putTickets for the ticket-save load test that follows.
 */
export async function rebuiltLoad(origin: string, token: string, m: Manifest, p1: Phase1): Promise<RouteLoad> {
  const url = `${origin}/api/v1/jobs/${m.bigJobId}`;
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip, deflate, br' };
  let n = 0;
  let non2xx = 0;
  const save = async () => {
    const tk = p1.putTickets[n % p1.putTickets.length];
    const r = await http(origin, 'PUT', '/api/v1/tickets/', token, { ticket: { id: tk.id, version: tk.version, description: `bench rebuild ${++n}` } });
    if (r.status !== 200) throw new Error(`PUT /tickets/ before a rebuild: ${r.status}`);
    tk.version = r.json.ticket.version;
  };
  // Read from the socket, as autocannon does for the other rows: fetch would also time its own
  // decompression of the body.
  const read = () =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = httpGet(url, { headers }, (res) => {
        if (res.statusCode !== 200) non2xx++;
        res.on('data', () => {});
        res.on('end', () => resolve(performance.now() - t0));
      });
      req.on('error', reject);
      req.setTimeout(300_000, () => req.destroy(new Error('GET timed out')));
    });
  // Phase 1's measurements after it read these tickets (the history saves, the invoice's billing
  // and its undo) changed their versions: read them again, or every save is a 409.
  await rereadVersions(origin, token, p1.putTickets);
  await read(); // warm-up
  const one: number[] = [];
  for (let i = 0; i < REBUILT_ROUNDS.one; i++) {
    await save();
    one.push(await read());
  }
  const many: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < REBUILT_ROUNDS.many; i++) {
    await save();
    many.push(...(await Promise.all(Array.from({ length: CONNECTIONS }, read))));
  }
  return {
    p50: median(many),
    p99: percentile(many, 99),
    rps: many.length / ((performance.now() - t0) / 1000),
    non2xx,
    errors: 0,
    requests: one.length + many.length,
    singleP50: median(one),
    runs: REBUILT_ROUNDS.many,
    mode: `${REBUILT_ROUNDS.one} saves each read alone; ${REBUILT_ROUNDS.many} saves each read by ${CONNECTIONS}`,
  };
}
