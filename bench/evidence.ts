/**
 * `npm run bench:evidence`: the evidence pack of a 1,000-ticket / 4,000-photo invoice
 * (docs/product/billing.md §7; decision 048), time to last byte and the server's peak RSS above
 * its idle RSS, for GET /invoices/{id}/evidence.pdf and /evidence.zip. Budget: < 30 s and
 * < 300 MB above idle for each.
 *
 * The data is made in process on a fresh PGlite data folder under .tmp/ (the job through
 * PUT /jobs/, tickets marked Complete and 4,000 image rows in SQL, the invoice through its
 * route); then the real server runs as a child process (node --import tsx src/server/main.ts) on
 * that folder and the bench downloads each file once, counting the bytes without keeping them,
 * while /proc is sampled every 50 ms. The 4,000 images point at 40 distinct stored photos and
 * their thumbnails: every image is still read from storage on its own, and the disk holds 40
 * files instead of 4,000.
 *
 * The photos (decision 055): `--photo stored` (default) is what this app stores from a phone —
 * 2048 × 1536 (PHOTO_MAX_SIDE of src/web/offline/photo.ts, a 4:3 camera), JPEG quality 85, with
 * the detail of a natural scene, ~440 KB — and its 400 px thumbnail as the upload makes it
 * (~26 KB); `--photo noise` is the worst case kept for comparison: 1600 × 1200 of pure noise,
 * ~1.2 MB, which no phone upload produces.
 *
 *   npm run bench:evidence [-- --tickets 1000 --photos 4 --photo stored|noise --only pdf|zip --keep]
 *
 * `--keep` reuses the data folder of the last run when it was made with the same arguments
 * (for profiling: `--prof` writes the server's CPU profile to .tmp/bench-evidence-prof/).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { and, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { companies, tickets, utilities } from '../src/server/db/schema/index';
import { seedIfEmpty } from '../src/server/db/seed/seed';
import { createMailer } from '../src/server/mail/mailer';
import { createStorage } from '../src/server/storage/create';
import { makeStorageKey } from '../src/server/storage/keys';
import { memoryOf, ROOT, rssSampler, startServer } from '../src/server/test/server-process';
import { JWT_SECRET, parseArgs, round, sleep } from './lib/common';

const args = parseArgs(process.argv.slice(2));
const TICKETS = Number(args.tickets ?? 1000);
const PER_TICKET = Number(args.photos ?? 4);
const PHOTO = args.photo === 'noise' ? 'noise' : 'stored';
const ONLY = args.only === 'pdf' || args.only === 'zip' ? [`evidence.${args.only}` as const] : (['evidence.pdf', 'evidence.zip'] as const);
const DISTINCT = 40;
const BUDGET = { seconds: 30, mb: 300 };
const DATA_DIR = path.join(ROOT, '.tmp/bench-evidence');
const PROF_DIR = path.join(ROOT, '.tmp/bench-evidence-prof');
/** What the data folder was made with: `--keep` reuses it only when this matches. */
const MADE_WITH = path.join(DATA_DIR, 'made-with.json');
const log = (s: string) => console.log(`[evidence] ${s}`);

/** Deterministic bytes: the same photos every run. */
function random(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) >> 8) & 0xff;
}

/**
 * Photo `i` as the app stores it, and its thumbnail as the upload makes it (images.service.ts).
 * `stored`: a smooth scene with mid and fine detail (a natural photo's JPEG size, not noise's).
 */
async function makePhoto(i: number): Promise<{ photo: Buffer; thumb: Buffer }> {
  let photo: Buffer;
  if (PHOTO === 'noise') {
    const raw = Buffer.alloc(1600 * 1200 * 3);
    for (let b = 0; b < raw.length; b++) raw[b] = (b * 7 + i * 31 + ((b >> 9) % 97)) & 0xff;
    photo = await sharp(raw, { raw: { width: 1600, height: 1200, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
  } else {
    const [w, h] = [2048, 1536];
    const rnd = random(1000 + i);
    const layer = async (lw: number, lh: number) => {
      const small = Buffer.alloc(lw * lh * 3);
      for (let b = 0; b < small.length; b++) small[b] = rnd();
      return sharp(small, { raw: { width: lw, height: lh, channels: 3 } }).resize(w, h, { kernel: 'cubic' }).raw().toBuffer();
    };
    const scene = await layer(32, 24);
    const detail = await layer(300, 225);
    const raw = Buffer.alloc(scene.length);
    for (let b = 0; b < raw.length; b++) raw[b] = Math.max(0, Math.min(255, scene[b] * 0.8 + detail[b] * 0.2 + (rnd() % 7) - 3));
    photo = await sharp(raw, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
  }
  const thumb = await sharp(photo).resize(400, 400, { fit: 'inside' }).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  return { photo, thumb };
}

async function makeData(): Promise<number> {
  const madeWith = JSON.stringify({ TICKETS, PER_TICKET, PHOTO });
  if (args.keep && existsSync(MADE_WITH)) {
    const before = JSON.parse(readFileSync(MADE_WITH, 'utf8')) as { madeWith: string; invoiceId: number };
    if (before.madeWith === madeWith) {
      log(`reusing ${DATA_DIR} (${madeWith})`);
      return before.invoiceId;
    }
  }
  rmSync(DATA_DIR, { recursive: true, force: true });
  mkdirSync(DATA_DIR, { recursive: true });
  const config = loadConfig({ NODE_ENV: 'production', DATA_DIR, JWT_SECRET, LOG_LEVEL: 'error' });
  const database = await openDatabase({ pgliteDir: path.join(DATA_DIR, 'db') });
  await database.migrate();
  const ctx = { db: database.db, config, mail: createMailer({ outboxDir: path.join(DATA_DIR, 'outbox'), from: config.mailFrom }), storage: await createStorage(config) };
  await seedIfEmpty(ctx);
  const app = await buildApp({ ...ctx, logger: false });
  try {
    const inject = async (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: unknown) => {
      const res = await app.inject({ method, url, payload: payload as object, headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res.json();
    };
    const token = (await inject('POST', '/api/v1/crew/login', undefined, { email: 'admin@example.com', password: 'linecrew' })).token as string;
    const [company] = await ctx.db.select({ id: companies.id }).from(companies).where(eq(companies.name, 'Demo Line Co'));
    const [utility] = await ctx.db.select({ id: utilities.id }).from(utilities).where(and(eq(utilities.companyId, company.id), eq(utilities.code, 'NGRID')));
    const packetKey = makeStorageKey(company.id, 'work_packet', 'packet.pdf');
    await ctx.storage.put(packetKey, Buffer.from('%PDF-1.4 bench'), 'application/pdf');
    log(`job of ${TICKETS} tickets`);
    const job = (
      await inject('PUT', '/api/v1/jobs/', token, {
        job: {
          job_number: 'EVIDENCE-BENCH',
          job_type: 0,
          due_date: '12/31/2027',
          selected_utility_id: utility.id,
          work_packet_url: ctx.storage.urlFor(packetKey),
          work_packet_name: 'packet.pdf',
          newUnits: [{ code: 'EB-1', description: 'Install crossarm', uom: 'EA' }],
          newTickets: Array.from({ length: TICKETS }, (_, i) => ({
            pole: { pole_name: String(i + 1), line_name: `L-${(i % 7) + 1}` },
            work_orders: [`WO-${Math.floor(i / 50) + 1}`],
            tasks: [{ code: 'EB-1', init_qty: 1 }],
          })),
        },
      })
    ).job as { id: number };

    log(`${DISTINCT} distinct photos (${PHOTO}) and thumbnails, ${TICKETS * PER_TICKET} image rows`);
    const stored: { url: string; thumb: string }[] = [];
    let photoBytes = 0;
    let thumbBytes = 0;
    for (let i = 0; i < DISTINCT; i++) {
      const { photo, thumb } = await makePhoto(i);
      photoBytes += photo.length;
      thumbBytes += thumb.length;
      const key = makeStorageKey(company.id, 'media', `bench-${i}.jpg`);
      const thumbKey = makeStorageKey(company.id, 'thumbnail', `bench-${i}.jpg`);
      await ctx.storage.put(key, photo, 'image/jpeg');
      await ctx.storage.put(thumbKey, thumb, 'image/jpeg');
      stored.push({ url: ctx.storage.urlFor(key), thumb: ctx.storage.urlFor(thumbKey) });
    }
    log(`photos ${round(photoBytes / DISTINCT / 1024, 0)} KB on average, thumbnails ${round(thumbBytes / DISTINCT / 1024, 0)} KB`);
    await ctx.db.update(tickets).set({ actualCompletionDate: new Date() }).where(eq(tickets.jobId, job.id));
    const rows = (await ctx.db.select({ id: tickets.id }).from(tickets).where(eq(tickets.jobId, job.id))).flatMap((t, i) =>
      Array.from({ length: PER_TICKET }, (_, k) => {
        const s = stored[(i * PER_TICKET + k) % DISTINCT];
        return { ticket_id: t.id, url: s.url, thumb: s.thumb, k };
      }),
    );
    for (let i = 0; i < rows.length; i += 2000) {
      await ctx.db.execute(sql`
        insert into images (company_id, ticket_id, url, thumbnail_url, taken_at)
        select ${company.id}, (e->>'ticket_id')::int, e->>'url', e->>'thumb', now() - ((e->>'k')::int || ' minutes')::interval
        from jsonb_array_elements(${JSON.stringify(rows.slice(i, i + 2000))}::jsonb) as e`);
    }
    const invoice = (await inject('POST', `/api/v1/jobs/${job.id}/invoices`, token, {})).invoice as { id: number; ticket_count: number };
    log(`invoice ${invoice.id}: ${invoice.ticket_count} tickets`);
    writeFileSync(MADE_WITH, JSON.stringify({ madeWith, invoiceId: invoice.id }));
    return invoice.id;
  } finally {
    await app.close();
    await database.close();
  }
}

/** The machine's 1-minute load average: the times below mean little without it (a shared machine). */
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

/** Downloads `url` to its last byte, counting bytes, none kept. */
async function download(origin: string, url: string, token: string): Promise<number> {
  const res = await fetch(`${origin}${url}`, { headers: { authorization: `Bearer ${token}` } });
  if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status}`);
  let bytes = 0;
  const reader = res.body.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.length;
  return bytes;
}

async function main() {
  const invoiceId = await makeData();
  const server = await startServer({
    env: { NODE_ENV: 'production', DATA_DIR, JWT_SECRET, SEED_DEMO: '0', LOG_LEVEL: 'warn' },
    nodeArgs: args.prof ? ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`] : [],
    timeoutMs: 120_000,
  });
  try {
    await server.ready;
    const login = await fetch(`${server.origin}/api/v1/crew/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'linecrew' }),
    });
    const token = ((await login.json()) as { token: string }).token;
    // Warm: the routes and the invoice read once, then idle.
    await fetch(`${server.origin}/api/v1/invoices/${invoiceId}`, { headers: { authorization: `Bearer ${token}` } });
    await sleep(3000);
    const results: string[] = [];
    for (const kind of ONLY) {
      const loadBefore = loadAverage();
      const idle = memoryOf(server.pid)!.rssMB;
      const rss = rssSampler(server.pid, 50);
      const t0 = performance.now();
      const bytes = await download(server.origin, `/api/v1/invoices/${invoiceId}/${kind}`, token);
      const seconds = (performance.now() - t0) / 1000;
      const above = rss.peak() - idle;
      rss.stop();
      const met = seconds < BUDGET.seconds && above < BUDGET.mb ? 'met' : 'NOT met';
      results.push(
        `| GET /invoices/{id}/${kind}, ${TICKETS} tickets / ${TICKETS * PER_TICKET} photos (${PHOTO}) | ${round(seconds, 1)} s | ${round(above, 0)} MB (idle ${round(idle, 0)} MB) | ${round(bytes / 1048576, 1)} MB | < ${BUDGET.seconds} s, < ${BUDGET.mb} MB: ${met} | ${loadBefore} → ${loadAverage()} |`,
      );
      await sleep(3000);
    }
    console.log('\n| what | time to last byte | peak RSS above idle | size | budget | load average (1 min) before → after |\n| --- | --- | --- | --- | --- | --- |');
    for (const r of results) console.log(r);
  } finally {
    await server.stop();
  }
}

await main();
