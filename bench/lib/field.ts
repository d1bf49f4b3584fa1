import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { SESSION_COOKIE } from '../../src/shared/constants';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { median, sleep } from './common';
import { countingRelay } from './wire';

/**
 * Field mode figures (docs/product/field-mode.md, decision 021) in headless Chromium at a phone's width, signed in
 * as a foreman:
 * - repeat visit of /work on emulated slow 3G (CDP Network.emulateNetworkConditions: 400 kbit/s
 *   each way, 400 ms round trip), after a first visit installed the service worker: navigation
 *   start → the 'work-list-visible' mark My Work sets (src/web/features/work/WorkPage.tsx), and
 *   the bytes that crossed the network (CDP Network.loadingFinished encodedDataLength of the
 *   page's requests not answered by the service worker or a cache, plus the service worker's own);
 * - reload of /work with the network emulated offline: navigation start → the same mark;
 * - a 12-megapixel camera photo through the app's own resize (the "Take photo" input of the
 *   phone's ticket view, offline, so the resized photo waits in the outbox): its bytes as queued
 *   in IndexedDB ('linecrew-offline', store 'outbox') against the original's;
 * - 50 notes added offline through the ticket view, spread over 5 tickets: from the `online`
 *   event to the status line reading "All changes synced"; the API must then hold exactly those 50.
 * Every wait is bounded; all traffic goes to the bench's server on 127.0.0.1.
 */
export interface FieldFigures {
  /** Median over the repeat visits. */
  repeatVisitMs: number | null;
  /** DevTools' count: encodedDataLength of the page's requests that went to the network, and the service worker's own. */
  repeatBytes: number | null;
  /** Every byte the server sent during the visit, counted on the wire (the browser's /sw.js update check included). */
  repeatWireBytes: number | null;
  /** Of repeatBytes: API replies, and what they would weigh gzipped (as nginx sends them in production). */
  repeatApiBytes: number | null;
  repeatApiGzipBytes: number | null;
  /** Requests that went to the network on a repeat visit (one visit), e.g. "GET /api/v1/work". */
  repeatRequests: string[];
  repeatRuns: number;
  offlineReloadMs: number | null;
  offlineRuns: number;
  photo: { originalBytes: number; uploadedBytes: number; width: number; height: number; type: string } | null;
  /** Median over the sync runs; each run checked against the API. */
  syncMs: number | null;
  syncRuns: number;
  /** Notes the API holds after each run, of the 50 queued. */
  syncArrived: number[];
  /** Open tickets on the foreman's My Work. */
  workTickets: number;
  notes: string[];
}

/** Chrome DevTools' "slow 3G" as docs/product/scale.md §3 means it: 400 kbit/s down and up, 400 ms round trip. */
const SLOW_3G = { offline: false, latency: 400, downloadThroughput: 400_000 / 8, uploadThroughput: 400_000 / 8 };
/**
 * The app's queries are fresh for 15 s (src/web/app/providers.tsx): a visit sooner than that shows
 * the copy on the device without asking the server. A crew's next visit comes later, so each
 * measured visit waits until the copy is older than that, and then pays for My Work's refresh.
 */
const COPY_STALE_MS = 16_000;
const NO_THROTTLE = { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const MARK = 'work-list-visible';
const NOTES_PER_RUN = 50;
const NOTE_TICKETS = 5;
const PHONE = { width: 390, height: 844 };

interface ApiTicket {
  id: number;
  pole_name: string | null;
  line_name: string | null;
  notes: { note_text: string }[];
}

async function api<T>(origin: string, route: string, token: string): Promise<T> {
  const res = await fetch(`${origin}/api/v1${route}`, { headers: { accept: 'application/json', authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`GET ${route}: ${res.status}`);
  const body = (await res.json()) as T | { ticket: T };
  return body && typeof body === 'object' && 'ticket' in body ? (body.ticket as T) : (body as T);
}

async function newContext(browser: Browser, origin: string, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin, sameSite: 'Strict' }]);
  return context;
}

/** Navigation start → the mark, read from the new document (its time origin is the navigation's start). */
async function markAfter(page: Page, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? null, MARK, { timeout: timeoutMs, polling: 20 });
  return (await handle.jsonValue()) as number;
}

/**
 * Network traffic of one page as CDP reports it. A request counts when it went to the network:
 * not answered by the service worker, the memory cache, the disk cache or a prefetch.
 */
class NetworkLog {
  private inFlight = new Set<string>();
  private served = new Set<string>();
  private urls = new Map<string, { method: string; url: string }>();
  private lastActivity = performance.now();
  finished: { url: string; method: string; bytes: number }[] = [];

  constructor(cdp: CDPSession) {
    cdp.on('Network.requestWillBeSent', (e) => {
      this.inFlight.add(e.requestId);
      this.urls.set(e.requestId, { method: e.request.method, url: e.request.url });
      this.lastActivity = performance.now();
    });
    cdp.on('Network.requestServedFromCache', (e) => this.served.add(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      const r = e.response;
      if (r.fromServiceWorker || r.fromDiskCache || r.fromPrefetchCache) this.served.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      this.done(e.requestId);
      const req = this.urls.get(e.requestId);
      if (req && !this.served.has(e.requestId)) this.finished.push({ ...req, bytes: e.encodedDataLength });
    });
    cdp.on('Network.loadingFailed', (e) => this.done(e.requestId));
  }

  private done(id: string) {
    this.inFlight.delete(id);
    this.lastActivity = performance.now();
  }

  reset() {
    this.finished = [];
    this.served.clear();
    this.inFlight.clear();
    this.lastActivity = performance.now();
  }

  /** Until nothing has been in flight for quietMs (at most maxMs). */
  async quiet(quietMs: number, maxMs: number): Promise<boolean> {
    const deadline = performance.now() + maxMs;
    while (performance.now() < deadline) {
      if (this.inFlight.size === 0 && performance.now() - this.lastActivity >= quietMs) return true;
      await sleep(100);
    }
    return false;
  }
}

/** A 12-megapixel camera photo as a phone writes it: 4000 × 3000 JPEG at quality 92, with EXIF; fine grain keeps it as large as a real one. */
export function cameraPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: { r: 128, g: 128, b: 128 }, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .blur(0.8)
    .jpeg({ quality: 92 })
    .withExif({ IFD0: { Make: 'Linecrew bench' }, IFD2: { DateTimeOriginal: '2026:11:20 09:15:30' } })
    .toBuffer();
}

/** The outbox's queued photos, read from IndexedDB as the app stored them. */
function queuedPhotos(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ size: number; type: string; width: number; height: number }[]>((resolve, reject) => {
        const open = indexedDB.open('linecrew-offline');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('outbox').objectStore('outbox').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            const photos = (all.result as { kind: string; blob: Blob }[]).filter((e) => e.kind === 'photo');
            open.result.close();
            void Promise.all(
              photos.map(async (p) => {
                const bitmap = await createImageBitmap(p.blob);
                const out = { size: p.blob.size, type: p.blob.type, width: bitmap.width, height: bitmap.height };
                bitmap.close();
                return out;
              }),
            ).then(resolve, reject);
          };
        };
      }),
  );
}

/**
 * A first visit of /work with the network: the service worker installs and takes control, My
 * Work and its first tickets are fetched ahead and kept on the device (the copies are written a
 * moment after the server's answers). Returns once the network has been quiet for 2 s.
 */
async function firstVisit(context: BrowserContext, origin: string, notes: string[]) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const net = new NetworkLog(cdp);
  await page.goto(`${origin}/work`, { waitUntil: 'commit', timeout: 60_000 });
  await markAfter(page, 120_000);
  await page.waitForFunction(
    async () => {
      const reg = await navigator.serviceWorker.ready;
      return Boolean(reg.active) && navigator.serviceWorker.controller !== null;
    },
    null,
    { timeout: 120_000, polling: 200 },
  );
  if (!(await net.quiet(2000, 180_000))) notes.push('field: a first visit was still fetching after 180 s');
  await sleep(1000);
  return { page, cdp, net };
}

const statusLine = (page: Page) => page.getByRole('status').filter({ hasText: /Offline|sync/ });

export async function measureField(opts: {
  /** The server. */
  origin: string;
  /** Port of the byte-counting relay the browser goes through (default: a free one). */
  relayPort?: number;
  /** A foreman's session token (the My Work that is measured is his). */
  token: string;
  /** Reads the tickets back (the foreman can too; any role that reads them will do). */
  checkToken: string;
  visits: number;
  /** false: no photo (bench/investigations/field-sync.ts times the sync alone). */
  photo?: boolean;
  syncRuns: number;
  timeBudgetMs: number;
  log: (m: string) => void;
}): Promise<FieldFigures> {
  const { token, log } = opts;
  const notes: string[] = [];
  const fig: FieldFigures = {
    repeatVisitMs: null,
    repeatBytes: null,
    repeatWireBytes: null,
    repeatApiBytes: null,
    repeatApiGzipBytes: null,
    repeatRequests: [],
    repeatRuns: 0,
    offlineReloadMs: null,
    offlineRuns: 0,
    photo: null,
    syncMs: null,
    syncRuns: 0,
    syncArrived: [],
    workTickets: 0,
    notes,
  };
  const work = await api<{ tickets: { id: number }[] }>(opts.origin, '/work', token);
  fig.workTickets = work.tickets.length;
  if (work.tickets.length < NOTE_TICKETS) {
    notes.push(`field mode: the foreman has ${work.tickets.length} open tickets, fewer than ${NOTE_TICKETS}: not measured`);
    return fig;
  }
  // The soonest due: among the tickets My Work keeps whole on the device (the first 200).
  const ticketIds = work.tickets.slice(0, NOTE_TICKETS).map((t) => t.id);
  const deadline = Date.now() + opts.timeBudgetMs;
  const relay = await countingRelay(Number(new URL(opts.origin).port), opts.relayPort);
  // The browser's origin: the relay (the bench's own API calls go to the server directly).
  const origin = relay.origin;
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // --- First visit: installs the service worker, keeps My Work and its tickets on the device.
    const context = await newContext(browser, origin, token);
    // The service worker's own requests (its script's update check, precache fetches): Playwright
    // reports them on the context; a request of the page answered by the worker is not one of them.
    const swRequests: { url: string; bytes: number }[] = [];
    context.on('requestfinished', (req) => {
      if (!req.serviceWorker()) return;
      void req.sizes().then(
        (s) => swRequests.push({ url: req.url(), bytes: s.responseHeadersSize + s.responseBodySize }),
        () => undefined,
      );
    });
    // API reply bodies (decoded), gzipped with zlib: a yardstick beside what the app sent.
    const apiBodies: Promise<number>[] = [];
    context.on('response', (res) => {
      if (!new URL(res.url()).pathname.startsWith('/api/') || res.fromServiceWorker()) return;
      apiBodies.push(res.body().then((b) => gzipSync(b).length, () => 0));
    });

    log(`field: first visit of /work (${fig.workTickets} open tickets)`);
    const { page, cdp, net } = await firstVisit(context, origin, notes);

    // --- Repeat visits on slow 3G.
    const visits: { ms: number; bytes: number; wire: number; api: number; apiGzip: number; requests: string[] }[] = [];
    await cdp.send('Network.emulateNetworkConditions', SLOW_3G);
    let lastFetch = performance.now();
    for (let i = 0; i < opts.visits && (i === 0 || Date.now() < deadline); i++) {
      await sleep(Math.max(0, lastFetch + COPY_STALE_MS - performance.now()));
      net.reset();
      swRequests.length = 0;
      apiBodies.length = 0;
      const wireBefore = relay.down();
      try {
        await page.goto(`${origin}/work`, { waitUntil: 'commit', timeout: 60_000 });
        const ms = await markAfter(page, 60_000);
        // The bytes are those of the whole visit: the refresh of My Work arrives after the list shows.
        if (!(await net.quiet(1500, 120_000))) notes.push(`field: repeat visit ${i + 1} still fetching after 120 s`);
        // The browser checks /sw.js for a new release a moment after the page has loaded.
        await relay.quiet(2500, 30_000);
        const wire = relay.down() - wireBefore;
        lastFetch = performance.now();
        const apiGzip = (await Promise.all(apiBodies)).reduce((a, b) => a + b, 0);
        const pageReqs = net.finished;
        const api = pageReqs.filter((r) => new URL(r.url).pathname.startsWith('/api/')).reduce((n, r) => n + r.bytes, 0);
        const bytes = pageReqs.reduce((n, r) => n + r.bytes, 0) + swRequests.reduce((n, r) => n + r.bytes, 0);
        const requests = [...pageReqs.map((r) => `${r.method} ${new URL(r.url).pathname} (${r.bytes} B)`), ...swRequests.map((r) => `service worker: ${new URL(r.url).pathname} (${r.bytes} B)`)];
        visits.push({ ms, bytes, wire, api, apiGzip, requests });
        log(`field: repeat visit ${i + 1} on slow 3G: usable at ${Math.round(ms)} ms, ${(wire / 1024).toFixed(1)} KB on the wire (DevTools: ${(bytes / 1024).toFixed(1)} KB)`);
      } catch (e) {
        notes.push(`field: repeat visit ${i + 1}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    await cdp.send('Network.emulateNetworkConditions', NO_THROTTLE);
    if (visits.length) {
      fig.repeatVisitMs = median(visits.map((v) => v.ms));
      fig.repeatBytes = median(visits.map((v) => v.bytes));
      fig.repeatWireBytes = median(visits.map((v) => v.wire));
      fig.repeatApiBytes = median(visits.map((v) => v.api));
      fig.repeatApiGzipBytes = median(visits.map((v) => v.apiGzip));
      fig.repeatRequests = visits[visits.length - 1].requests;
      fig.repeatRuns = visits.length;
    }

    // --- Offline reloads (Playwright's offline emulation: the page and the service worker).
    await context.setOffline(true);
    await cdp.send('Network.emulateNetworkConditions', { ...NO_THROTTLE, offline: true });
    const reloads: number[] = [];
    for (let i = 0; i < opts.visits && (i === 0 || Date.now() < deadline); i++) {
      try {
        await page.reload({ waitUntil: 'commit', timeout: 60_000 });
        reloads.push(await markAfter(page, 30_000));
        log(`field: offline reload ${i + 1}: usable at ${Math.round(reloads[reloads.length - 1])} ms`);
      } catch (e) {
        notes.push(`field: offline reload ${i + 1}: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    if (reloads.length) {
      fig.offlineReloadMs = median(reloads);
      fig.offlineRuns = reloads.length;
    }

    // --- A camera photo through the app's resize, queued offline.
    if (opts.photo !== false) {
      try {
        const original = await cameraPhoto();
        await page.goto(`${origin}/work/${ticketIds[0]}`, { waitUntil: 'commit', timeout: 60_000 });
        await page.getByRole('button', { name: 'Take photo' }).waitFor({ timeout: 30_000 });
        await page.locator('input[type=file]').setInputFiles({ name: 'IMG_0001.jpg', mimeType: 'image/jpeg', buffer: original });
        await page.getByRole('img', { name: /waiting to sync/ }).waitFor({ timeout: 60_000 });
        const [queued] = await queuedPhotos(page);
        if (!queued) throw new Error('no photo in the outbox');
        fig.photo = { originalBytes: original.length, uploadedBytes: queued.size, width: queued.width, height: queued.height, type: queued.type };
        log(`field: photo ${(original.length / 1024).toFixed(0)} KB → ${(queued.size / 1024).toFixed(0)} KB (${queued.width}×${queued.height})`);
      } catch (e) {
        notes.push(`field: photo: ${(e as Error).message.split('\n')[0]}`);
      }
    }
    await context.close();

    // --- 50 notes queued offline, then synced (a fresh device each run: its outbox holds only them).
    const syncs: number[] = [];
    for (let run = 0; run < opts.syncRuns && (run === 0 || Date.now() < deadline); run++) {
      const tag = `bench sync ${Date.now().toString(36)}-${run}`;
      const ctx = await newContext(browser, origin, token);
      try {
        const { page: p, cdp: own } = await firstVisit(ctx, origin, notes);
        // Only Playwright's emulation from here on: a second DevTools session left attached puts
        // its own (online) network state back on each navigation, and the page would think it is online.
        await own.detach();
        const before = await Promise.all(ticketIds.map((id) => api<ApiTicket>(opts.origin, `/tickets/${id}`, opts.checkToken)));

        await ctx.setOffline(true);
        let n = 0;
        for (const id of ticketIds) {
          await p.goto(`${origin}/work/${id}`, { waitUntil: 'commit', timeout: 60_000 });
          const box = p.getByRole('textbox', { name: 'New note' });
          await box.waitFor({ timeout: 30_000 });
          for (let k = 0; k < NOTES_PER_RUN / NOTE_TICKETS; k++) {
            await box.fill(`${tag} #${++n}`);
            await p.getByRole('button', { name: 'Add note' }).click();
            // Queued: the page empties the box once the note is in the outbox.
            await p.waitForFunction((el) => (el as HTMLTextAreaElement).value === '', await box.elementHandle(), { timeout: 10_000, polling: 20 });
          }
        }
        await statusLine(p).filter({ hasText: `Offline · ${NOTES_PER_RUN} changes waiting to sync` }).waitFor({ timeout: 30_000 });

        // Timed in the page: from the `online` event to the status line's "All changes synced".
        await p.evaluate(() => {
          const w = window as unknown as { __benchOnline?: number; __benchSynced?: number };
          window.addEventListener('online', () => (w.__benchOnline = performance.now()), { once: true });
          // (No named functions in here: tsx would wrap them in a helper the page does not have.)
          const observer = new MutationObserver(() => {
            if (w.__benchOnline !== undefined && [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.includes('All changes synced'))) {
              w.__benchSynced = performance.now();
              observer.disconnect();
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        });
        await ctx.setOffline(false);
        // A phone whose signal returns gets the browser's `online` event. Chromium 150's offline
        // emulation does not send it after a navigation (navigator.onLine is already true on the
        // new page), so the event is sent here, as the device would. (The app would also find
        // the way back by itself: a probe of /health every 2–15 s, offline/network.ts.)
        await p.evaluate(() => window.dispatchEvent(new Event('online')));
        const handle = await p.waitForFunction(
          () => {
            const w = window as unknown as { __benchOnline?: number; __benchSynced?: number };
            return w.__benchSynced !== undefined && w.__benchOnline !== undefined ? w.__benchSynced - w.__benchOnline : null;
          },
          null,
          { timeout: 180_000, polling: 50 },
        );
        const ms = (await handle.jsonValue()) as number;

        const after = await Promise.all(ticketIds.map((id) => api<ApiTicket>(opts.origin, `/tickets/${id}`, opts.checkToken)));
        const arrived = after.reduce((sum, t) => sum + t.notes.filter((x) => x.note_text.startsWith(`${tag} #`)).length, 0);
        const added = after.reduce((sum, t, i) => sum + t.notes.length - before[i].notes.length, 0);
        fig.syncArrived.push(arrived);
        if (arrived !== NOTES_PER_RUN || added !== NOTES_PER_RUN) notes.push(`field: sync run ${run + 1}: the API holds ${arrived} of the ${NOTES_PER_RUN} notes (${added} notes added in all)`);
        syncs.push(ms);
        log(`field: sync run ${run + 1}: ${NOTES_PER_RUN} notes in ${Math.round(ms)} ms; ${arrived} arrived`);
      } catch (e) {
        notes.push(`field: sync run ${run + 1}: ${(e as Error).message.split('\n')[0]}`);
      } finally {
        await ctx.close();
      }
    }
    if (syncs.length) {
      fig.syncMs = median(syncs);
      fig.syncRuns = syncs.length;
    }
    return fig;
  } finally {
    await browser.close();
    await relay.close();
  }
}
